// A worklist page read by walking indexes newest first (or oldest first), whatever the total: for the
// filters whose matches are dense in the walked index, so the walk reads about as many index entries
// as the page holds. A staff member's facilities (or a facility filter) are walked one index scan per
// facility (per facility and modality group with a modality filter, per facility and status on a
// status tab, per facility and tag with a priority filter), merged in created_at order (MergeAppend);
// one assignee (a reporter's own list, a by_user_ids filter) a scan of the assignee's index, several
// one scan each over at most a month; the whole organisation (an admin) one scan of its index. Other
// filters keep the page form the total chooses (worklist-list.queries.ts). Sorted by another column
// header (patient name, study date, last update…), a page with too many matches to collect is read
// from the first entries of the column's sort index (prefixWalkSql, at the end).
import type { TModality, TWorklistListQuery } from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { oneOf } from '../../../db/one-of.ts';
import {
  dateRangeOn,
  facilitiesOf,
  LISTED_STATUSES,
  worklistFilters,
  worklistWhere,
  type TWorklistCriteria,
} from './worklist-criteria.ts';
import { holdsSearchText } from './worklist-search-text.ts';
import { arrivalDayWalkSql, collectsArrivalLike } from './worklist-arrival-day-walk.ts';
import { orderBy } from './worklist-sql.ts';
import { sortIndexPrefix } from './worklist-sort-index.ts';

/** Up to this many index scans are merged (facilities, times modality groups with that filter). */
const MERGED_SCANS_AT_MOST = 32;

/**
 * Several assignees are walked one scan each over a range of at most this many days. A scan reads at
 * most its assignee's entries in the range, which the total's form read anyway once PostgreSQL chose
 * the assignee index (a reporter's month naming a radiologist: 9,300 matches collected and sorted,
 * 10–25 ms; the walk reads a page's worth). Over longer ranges an assignee whose studies lie outside
 * the caller's facilities would have all of them read (19,000 for none kept over all dates).
 */
const ASSIGNEES_WALK_MAX_DAYS = 31;
const DAY_MS = 86_400_000;

type TPage = Pick<TWorklistListQuery, 'limit' | 'offset' | 'sort_by' | 'sort_order'>;
/** A walked page whose rows carry a column beside the id (`carried`: worklist-dense-search.ts sorts by it). */
type TWalkPage = TPage & { carried?: string };
const carriedOf = (page: TWalkPage, at: string) => sql.raw(page.carried ? `, ${at}."${page.carried}"` : '');

/**
 * Which index a walk in created_at order reads, when it meets a match in nearly every entry it reads
 * (or, for assignees, never reads more than collecting the matches would), else null (the total
 * chooses the page form):
 * - `assignees`: one scan of the assignee index per assignee (one, or several over at most
 *   ASSIGNEES_WALK_MAX_DAYS); it holds the status, modality group and priority tag, which lead no
 *   index under an assignee either.
 * - `modalities`: a staff member's facilities (or a facility filter) with every listed status, one
 *   scan of the facility index per facility (of the facility and modality group index per facility
 *   and group with a modality filter).
 * - `statuses`: a status tab without modality filter, one scan of the facility and status index per
 *   facility and status: every entry in range is a match.
 * - `priorities`: a priority filter with every listed status and no modality filter, one scan of the
 *   partial facility and priority index per facility and tag (of the organisation's per tag for an
 *   admin without a facility filter).
 * - `organisation`: an admin's whole organisation with any status and modality filter, one scan of
 *   studies_organisation_created_idx, which holds both. Collecting the matches read every entry of
 *   the range from that same index (the only one led by the organisation that holds the status, so
 *   the generic plan's), then sorted them; the walk reads the same entries newest first and stops at
 *   the page: never more, and about a page's worth when matches are common (an admin's today: 25
 *   entries instead of 1,100 collected and sorted).
 * Never with a search whose candidates an index finds (a text tested on each row, searchInRange, is
 * a filter as any other: worklist-dense-search.ts), nor for a referrer's referrals (no walked index
 * holds them).
 */
function walkKind(
  criteria: TWorklistCriteria,
  page: TPage,
): 'assignees' | 'modalities' | 'statuses' | 'priorities' | 'organisation' | null {
  if (
    page.sort_by !== 'created_at' ||
    (criteria.searchText !== null && !criteria.searchInRange) ||
    criteria.scope.principal.role === 'REFERRING_PHYSICIAN'
  ) {
    return null;
  }
  // One assignee: the walk never reads more than collecting would. Several: ASSIGNEES_WALK_MAX_DAYS.
  if (criteria.byUserIds.length > 0) {
    const { from, to } = criteria;
    const days = from === null || to === null ? Infinity : (to.at.getTime() - from.getTime()) / DAY_MS;
    const walked = criteria.byUserIds.length === 1 || days <= ASSIGNEES_WALK_MAX_DAYS;
    return walked ? 'assignees' : null;
  }
  const listed = LISTED_STATUSES.every((status) => criteria.statuses.includes(status));
  if (facilitiesOf(criteria) === null && criteria.priorityTags.length === 0) return 'organisation';
  if (criteria.priorityTags.length > 0) {
    return listed && criteria.modalities.length === 0 ? 'priorities' : null;
  }
  if (listed) return 'modalities';
  return criteria.modalities.length === 0 ? 'statuses' : null;
}

/**
 * The walks of a page in arrival order (ties by id): one ordered scan of `where`, or ordered scans
 * each stopping after offset + limit rows, merged (null past MERGED_SCANS_AT_MOST scans).
 */
function arrivalWalks(page: TWalkPage) {
  const order = orderBy(page, 'created_at');
  const limits = sql`limit ${page.limit} offset ${page.offset}`;
  return {
    single: (where: SQL) =>
      sql`select "studies"."id"${carriedOf(page, 'studies')} from studies where ${where} ${order} ${limits}`,
    scan: (where: SQL) =>
      sql`(select "studies"."id", "studies"."created_at"${carriedOf(page, 'studies')} from studies
        where ${where} ${order} limit ${page.offset + page.limit})`,
    merged: (scans: SQL[]) =>
      scans.length > MERGED_SCANS_AT_MOST
        ? null
        : sql`select w."id"${carriedOf(page, 'w')} from (${sql.join(scans, sql.raw(' union all '))}) w ${order} ${limits}`,
  };
}

/**
 * Each assignee's scan, within the caller's visibility and every other filter. With a text tested on
 * each row (worklist-dense-search.ts), the assignee's index is read in order and the caller's
 * facilities checked after it (OFFSET 0 keeps the check out of the scan), as matchesOf does: with
 * the facilities in the scan, the generic plan read the facilities' index for every study of the
 * range and sorted them (a reporter's month of "brain": 18 ms, 10 ms by the assignee's index).
 */
function perAssignee(db: TDbOrTx, criteria: TWorklistCriteria, page: TWalkPage, scan: (where: SQL) => SQL) {
  const facilities = facilitiesOf(criteria);
  return criteria.byUserIds.map((userId) => {
    const one = { ...criteria, byUserIds: [userId] };
    if (criteria.searchText === null || facilities === null || facilities.length === 0) {
      return scan(worklistWhere(db, one, criteria.statuses));
    }
    return sql`(select s."id", s."created_at"${carriedOf(page, 's')} from (select "studies"."id", "studies"."created_at",
        "studies"."facility_id"${carriedOf(page, 'studies')} from studies where "studies"."organisation_id" = ${criteria.scope.organisationId}::uuid
          and ${worklistFilters(db, one, criteria.statuses)} ${orderBy(page, 'created_at')} offset 0) s
      where ${oneOf('s."facility_id"', facilities, 'uuid')} limit ${page.offset + page.limit})`;
  });
}

/**
 * The page's ids as `select id … order by … limit … offset …` read by walking, or null when the
 * filters call for the form the total chooses. The merged scans are written one per facility (and
 * modality group, status or priority tag) with the facility as the leading equality of its index,
 * so each is an ordered index scan that stops after offset + limit matches: the cost follows the
 * page, not the matches (a radiologist's week of CT and MRI in 5 facilities: ~60 index entries
 * instead of 1,500 sorted). With `carried`, each row holds that column too (an arrival day walk: null).
 */
export function walkedPageIdsSql(db: TDbOrTx, criteria: TWorklistCriteria, page: TWalkPage): SQL | null {
  if (collectsArrivalLike(criteria, page)) return page.carried ? null : arrivalDayWalkSql(db, criteria, page);
  const kind = walkKind(criteria, page);
  if (kind === null) return null;
  const { single, scan, merged } = arrivalWalks(page);
  if (kind === 'assignees') return merged(perAssignee(db, criteria, page, scan));
  if (kind === 'organisation') return single(worklistWhere(db, criteria, criteria.statuses));
  const facilities = facilitiesOf(criteria);
  const organisation = sql`"studies"."organisation_id" = ${criteria.scope.organisationId}::uuid`;
  if (facilities === null && kind === 'priorities') {
    // The whole organisation (an admin): its partial priority index, one scan per tag.
    const filters = worklistFilters(db, { ...criteria, priorityTags: [] }, criteria.statuses);
    return merged(
      criteria.priorityTags.map((tag) =>
        scan(sql`${organisation} and "studies"."priority_tag" = ${tag}::priority_tag and ${filters}`),
      ),
    );
  }
  if (facilities === null || facilities.length === 0) return null;
  // Each scan's equalities lead its index (the facility, then the group, status or tag); the other
  // filters are the same for every scan.
  const { statuses, modalities, priorityTags } = criteria;
  const keys =
    kind === 'statuses'
      ? statuses.map((status) => sql` and "studies"."status" = ${status}::study_status`)
      : kind === 'priorities'
        ? priorityTags.map((tag) => sql` and "studies"."priority_tag" = ${tag}::priority_tag`)
        : modalities.length > 0
          ? modalities.map((group) => sql` and "studies"."modality_group" = ${group}::modality_group`)
          : [sql``];
  const { searchText } = criteria;
  const filters =
    kind === 'statuses'
      ? sql.join(
          [
            sql`true`,
            ...dateRangeOn('"studies"."created_at"', criteria),
            ...(searchText === null ? [] : [holdsSearchText(searchText)]),
          ],
          sql.raw(' and '),
        )
      : worklistFilters(db, { ...criteria, modalities: [], priorityTags: [] }, statuses);
  return merged(
    facilities.flatMap((facilityId) =>
      keys.map((key) =>
        scan(sql`${organisation} and "studies"."facility_id" = ${facilityId}::uuid${key} and ${filters}`),
      ),
    ),
  );
}

/**
 * How many entries of a sort index a prefix walk of the list reads at most: PREFIX_WALK_ENTRIES, or 20
 * per row up to the page's end if more; with PREFIX_WALK_WIDENS_AT matches or more, 10 per match if
 * more still. Collecting that many matches reads their rows (the sort key) scattered over the table,
 * 6-9 µs each (a reporter's 28,000 over all dates: 170 ms; a radiologist's 49,000: 420 ms), where
 * the walk reads an entry in 0.2 µs; a recent range's rows lie together and collect in under a µs each.
 * Over all dates the rows are scattered whatever the number of matches, so the walk widens from
 * PREFIX_WALK_WIDENS_AT_ALL_DATES (every page past COLLECT_AT_MOST): an admin's To read and Ordered
 * nuclear medicine and MRI studies by series count, 5,800 matches, collected each from its row
 * (120-370 ms) after a walk of 5,000 entries held 27. A walk that still does not hold the page costs
 * 2 µs a match before the matches are collected, where collecting them costs 6-20 µs each.
 * Not widened where the matches are collected from an index that holds their sort keys and is led by
 * the filter (collectsFromModalityIndex): each then costs about what a walked entry does.
 */
const PREFIX_WALK_ENTRIES = 5_000;
const PREFIX_WALK_WIDENS_AT = 10_000;
const PREFIX_WALK_WIDENS_AT_ALL_DATES = 2_000;

/**
 * Whether the matches of a range with a start are collected from
 * studies_organisation_modality_created_idx (migration 0038): the whole organisation (an admin
 * without a facility filter) with a modality filter and no assignee. The walk reads at most one
 * entry a match for them, not ten: collecting from that index, which holds every sort key, costs
 * about what walking an entry does, where a widened walk may read ten entries a match for none (an
 * admin's month of MRI by study description read 490,000 before the sort index was led by the group,
 * migration 0039). Not the floor alone: sorted by status descending, every deleted study of all dates
 * comes first (20,000 at 1,000,000 studies), and an admin's year of CT stopped there and collected
 * 211,000 matches (100 ms; 11 ms walked past them). Over all dates the walk stays widened:
 * collecting reads up to the whole archive (an admin's CT and MRI: 400,000 matches, 265 ms).
 */
export function collectsFromModalityIndex(criteria: TWorklistCriteria): boolean {
  return (
    criteria.from !== null &&
    criteria.modalities.length > 0 &&
    criteria.byUserIds.length === 0 &&
    criteria.searchText === null &&
    criteria.scope.principal.role !== 'REFERRING_PHYSICIAN' &&
    facilitiesOf(criteria) === null
  );
}

/** The list's prefix walk budget (see PREFIX_WALK_ENTRIES) for `total` matches, as SQL. */
export function prefixWalkBudget(criteria: TWorklistCriteria, page: TPage, total: SQL): SQL {
  const floor = Math.max(PREFIX_WALK_ENTRIES, 20 * (page.offset + page.limit));
  if (collectsFromModalityIndex(criteria)) return sql`greatest(${floor}::bigint, ${total}::bigint)`;
  const widensAt = criteria.from === null ? PREFIX_WALK_WIDENS_AT_ALL_DATES : PREFIX_WALK_WIDENS_AT;
  return sql`greatest(${floor}::bigint, case when ${total} >= ${widensAt}::int then ${total}::bigint * 10 else 0 end)`;
}

/**
 * A search's prefix walk reads the rows of at most this many entries the index's filters keep: each
 * reads its row for the search text (2-3 µs), so a text whose matches lie together elsewhere in the
 * order ("sm" sorted by name) wastes at most a few ms before its matches are collected.
 */
export const PREFIX_SEARCH_ROWS = 2_000;
/**
 * … and at most this many entries of the index (0.2 µs each, 4 ms): the filters keep a staff
 * member's or an assignee's share of them (a reporter's month: 1 in 90), so the entries a page needs
 * are many more than the rows. Walking 2,000 entries found 15 of the 25 rows a reporter's month
 * sorted by name holds for "a", whose 7,700 matches were then collected and sorted (22-38 ms).
 */
export const PREFIX_SEARCH_ENTRIES = 20_000;

/**
 * A page sorted by a column header but arrival (each has a sort index of its own): the first
 * `budget` entries of the organisation's sort index in that order (`select … order by … limit`, one
 * ordered scan whatever the filters), filtered, then the page. The filters are applied after the
 * limit, so this reads at most the budget's entries, and gives the page exactly when it finds the
 * page's every row among them (the caller checks, and collects otherwise). Where matches are spread
 * over the column's order (an admin's month, a radiologist's five facilities, a text most studies
 * hold) that takes a few hundred entries; where they lie together elsewhere (today's studies are
 * new patients' ids, their last updates the latest; names holding "sm"), the budget runs out and
 * the page is collected: an estimate of how many entries the walk reads, as the planner makes,
 * assumes neither (it walked a whole million patient ids for today's 3,800 studies, 34 ms). With a
 * search, each entry the index's filters keep reads its row for the text (of `walkedGroups` alone by
 * an index the group leads). Null for a referrer's referrals (the index does not hold them) and for
 * arrival (its own indexes).
 */
export function prefixWalkSql(
  db: TDbOrTx,
  criteria: TWorklistCriteria,
  page: TPage,
  column: string,
  budget: SQL,
  searchRows: number = PREFIX_SEARCH_ROWS,
  walkedGroups: readonly TModality[] | null = null,
): SQL | null {
  if (page.sort_by === 'created_at' || criteria.scope.principal.role === 'REFERRING_PHYSICIAN') {
    return null;
  }
  const order = orderBy(page, column);
  const prefix = sortIndexPrefix({
    criteria,
    column,
    order,
    budget,
    startsAt: prefixStartOf(criteria, page),
    walkedGroups,
  });
  // Aliased as studies, so the filters' "studies"."…" name the prefix's columns; PostgreSQL never
  // moves a condition into a subquery with a LIMIT.
  const { searchText } = criteria;
  const filters = worklistWhere(db, { ...criteria, searchText: null }, criteria.statuses);
  if (searchText === null) {
    return sql`select "studies"."id" from (${prefix}) studies where ${filters}
      ${order} limit ${page.limit} offset ${page.offset}`;
  }
  // With a search, only the entries the index's filters keep read their row, for the substring test
  // alone (every entry read its row and computed its pairs of characters, other facilities' too), and
  // only the first `searchRows` of them: the first matches in order among them are the page.
  return sql`select k."id" from (select "studies"."id", "studies"."${sql.raw(column)}" from (${prefix}) studies
      where ${filters} ${order} limit ${searchRows}) k
    join studies on studies.id = k.id and ${holdsSearchText(searchText)}
    ${orderBy(page, column, 'k')} limit ${page.limit} offset ${page.offset}`;
}

/**
 * Where a prefix walk of the last-update sort index, oldest first, begins: at the range's start. A
 * study is last updated at or after it arrives, so every study last updated before the range began
 * arrived before it too, and the walk from the index's start read all of them first (the archive's
 * older part) to find none of the range's: an admin's month of ultrasound and nuclear medicine
 * holding "ab" was then collected (200 ms at 1,000,000 studies, 2 ms walked from the start). The
 * exceptions, studies whose last update a server clock behind PostgreSQL's wrote before their
 * arrival, are read beside the walk (sortIndexPrefix). Null for every other order: a study date has
 * no such bound, and newest first starts at the newest update whatever the range.
 */
export function prefixStartOf(criteria: TWorklistCriteria, page: TPage): Date | null {
  return page.sort_by === 'updated_at' && page.sort_order === 'asc' ? criteria.from : null;
}
