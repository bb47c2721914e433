// A search whose text many of the range's studies hold ("brain", "chest", the first digits of a
// patient id), by a caller whose studies are walked in arrival order (worklist-page-walk.ts: a staff
// member's facilities, an assignee). The keyed indexes find every study of the caller's facilities
// (or of the organisation's weeks) that holds such a text, of all dates, and each is read to be
// tested against the range: a radiologist's month of "brain" read 12,500 candidates for 4,300
// matches (50 ms), a reporter's month of "MRN01" 260 ms. Walking the range newest first and testing
// each study's text meets a match every few rows and stops at the page and the count's cap
// (WORKLIST_SEARCH_COUNT_CAP, shown as "1,000+"): a few thousand rows. A probe of the range's first
// rows decides; a text fewer of them hold keeps its keyed read, which finds its few matches without
// reading the range.
import {
  cappedCountLimit,
  WORKLIST_SEARCH_COUNT_CAP,
  type TStudyStatus,
  type TWorklistListQuery,
} from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDatabase } from '../../../db/client.ts';
import {
  findsFewByKeys,
  LISTED_STATUSES,
  worklistWhere,
  type TWorklistCriteria,
} from './worklist-criteria.ts';
import { holdsSearchText } from './worklist-search-text.ts';
import { walkedPageIdsSql } from './worklist-page-walk.ts';
import { countsSearchByWeeks, type TSearchCounts, type TSearchWalk } from './worklist-search-walk.ts';
import { hotRows } from './worklist-sql.ts';
import { WALK_DAYS_AT_MOST } from './worklist-search-open.ts';

type TPage = Pick<TWorklistListQuery, 'limit' | 'offset' | 'sort_by' | 'sort_order'>;

/** How many of the range's first studies, in the walk's order, the probe tests. */
const PROBE_ROWS = 128;
/** A text that at least one in this many of the probed studies hold is walked. */
export const DENSE_ONE_IN = 8;

// The walk reads at most WALK_DAYS_AT_MOST days of the range, its newest (its oldest, ascending): a
// text dense among the first studies may be rare further on (a protocol new this week), and a walk
// that does not reach the cap in those days leaves the search to the keyed indexes, whatever the range.
const DAY_MS = 86_400_000;

/**
 * The walked part of the range: its first WALK_DAYS_AT_MOST days in the walk's order (a range open
 * at its end ends at the request's instant), and whether that is all of it; null for an ascending
 * walk of a range without a start.
 */
export function walkedDays(criteria: TWorklistCriteria, sortOrder: TPage['sort_order']) {
  const span = WALK_DAYS_AT_MOST * DAY_MS;
  const { from, to } = criteria;
  if (sortOrder === 'asc') {
    if (from === null) return null;
    const end = new Date(from.getTime() + span);
    if (to !== null && to.at <= end) return { part: criteria, whole: true };
    return { part: { ...criteria, to: { at: end, inclusive: false } }, whole: false };
  }
  const start = new Date((to?.at ?? criteria.now).getTime() - span);
  if (from !== null && from >= start) return { part: criteria, whole: true };
  return { part: { ...criteria, from: start }, whole: false };
}

/** Whether the walked days are the whole range (WALK_DAYS_AT_MOST days at most, with a start). */
export function walksRangeWhole(criteria: TWorklistCriteria): boolean {
  return walkedDays(criteria, 'desc')?.whole === true;
}

/** The walk's statements hold no text, only its parameter: planned once per connection. */
const run = { prepare: true, plan: 'generic' } as const;

/**
 * The first `limit` studies of the range in arrival order (`sort_order`) under `criteria` and
 * `statuses`, the text tested on each (searchInRange: no index finds candidates); null where no walk
 * serves the caller (worklist-page-walk.ts, walkKind).
 */
function arrivalWalk(
  criteria: TWorklistCriteria,
  database: TDatabase,
  statuses: readonly TStudyStatus[],
  page: Pick<TPage, 'limit' | 'sort_order'>,
  carried: string | null = null,
): SQL | null {
  const tested = { ...criteria, statuses: [...statuses], searchWeeks: null, searchFacilities: null };
  return walkedPageIdsSql(
    database.db,
    { ...tested, searchInRange: tested.searchText !== null },
    {
      limit: page.limit,
      offset: 0,
      sort_by: 'created_at',
      sort_order: page.sort_order,
      ...(carried && { carried }),
    },
  );
}

/**
 * Whether the search under `criteria` (its `statuses`: the list's, or the tabs' counted ones) is
 * walked: a text (with trigram keys, or without over more than the walked days: "ct") over a range
 * of more than SEARCH_IN_RANGE_AT_MOST studies (fewer are read whole: searchInRange), not made rare by a modality
 * filter (searchModalities), not walked by weeks (an admin's organisation: countsSearchByWeeks), whose
 * range an arrival walk serves (an admin's facility filter too, their deleted studies counted apart:
 * countDenseSearch), and held by at least one in DENSE_ONE_IN of the range's first PROBE_ROWS
 * studies (or the range holds fewer: the walk reads it whole, as cheaply as the probe).
 */
export async function walksDenseSearch(
  database: TDatabase,
  criteria: TWorklistCriteria,
  statuses: readonly TStudyStatus[],
  sortOrder: TPage['sort_order'] = 'desc',
): Promise<boolean> {
  const { searchText } = criteria;
  if (
    searchText === null ||
    criteria.searchInRange ||
    findsFewByKeys(criteria) ||
    countsSearchByWeeks(criteria) ||
    // A text without keys over at most the walked days keeps its own read (its matches up to the cap
    // in any order: a week of "a" counted in 2.4 ms, walked in 7.7).
    (!criteria.searchKeyed && walkedDays(criteria, sortOrder)?.whole === true)
  ) {
    return false;
  }
  return holdsDensely(database, criteria, statuses, sortOrder);
}

/**
 * What the probe found: the share of the probed studies holding the text; `few` when the walked days
 * hold fewer than PROBE_ROWS.
 */
export type TDensity = { share: number; few: boolean };

/**
 * The share of the first PROBE_ROWS studies of the range's walked days (or all of them, if fewer)
 * under `criteria` and `statuses` that hold its search text; null where no arrival walk serves the
 * caller.
 */
export async function probeDensity(
  database: TDatabase,
  criteria: TWorklistCriteria,
  statuses: readonly TStudyStatus[],
  sortOrder: TPage['sort_order'],
): Promise<TDensity | null> {
  const { searchText } = criteria;
  const days = walkedDays(criteria, sortOrder);
  if (searchText === null || !days) return null;
  const probe = arrivalWalk({ ...days.part, searchText: null }, database, statuses, {
    limit: PROBE_ROWS,
    sort_order: sortOrder,
  });
  if (!probe) return null;
  const [row] = await hotRows<{ n: number; hits: number }>(
    database,
    sql`select count(*)::int as n, (count(*) filter (where ${holdsSearchText(searchText)}))::int as hits
      from studies where "studies"."id" = any(array(${probe}))`,
    run,
  );
  if (!row) return null;
  return { share: row.n === 0 ? 0 : row.hits / row.n, few: row.n < PROBE_ROWS };
}

/** Whether one in DENSE_ONE_IN of the probed studies or more hold the text, or they are few. */
async function holdsDensely(
  database: TDatabase,
  criteria: TWorklistCriteria,
  statuses: readonly TStudyStatus[],
  sortOrder: TPage['sort_order'],
): Promise<boolean> {
  const density = await probeDensity(database, criteria, statuses, sortOrder);
  return density !== null && (density.few || density.share * DENSE_ONE_IN >= 1);
}

/**
 * The criteria of an ascending walk: a range open at its start begins at the organisation's first
 * arrival (the same studies; an index probe), so its oldest days are walked as a bounded range's
 * (a reporter's "plain" oldest first before a date read every candidate the keys found: 126 ms).
 */
export async function fromFirstArrival(
  database: TDatabase,
  criteria: TWorklistCriteria,
): Promise<TWorklistCriteria> {
  if (criteria.from !== null) return criteria;
  const first = await firstArrivalOf(database, criteria.scope.organisationId);
  return first === null ? criteria : { ...criteria, from: new Date(first) };
}

/** The organisation's first arrival, in epoch milliseconds (an index probe); null without studies. */
export async function firstArrivalOf(database: TDatabase, organisationId: string): Promise<number | null> {
  const [row] = await hotRows<{ first: number | null }>(
    database,
    sql`select floor(extract(epoch from min("created_at")) * 1000)::float8 as first from studies
      where "organisation_id" = ${organisationId}::uuid`,
    run,
  );
  return row?.first ?? null;
}

/**
 * A staff member's range whose matches are collected by walking it (collectWalkedRange) holds at
 * most this many: each walked row is tested (1-2 µs in arrival order), where their facilities' keys
 * find the text's candidates of every date (a reporter's month of "lumbar spine", 1,157 matches:
 * 15,000 candidates read, 100-130 ms).
 */
const COLLECT_WALKED_AT_MOST = 5_000;

/**
 * Every match of a range the arrival walk covers whole (WALK_DAYS_AT_MOST days at most), each row's
 * text tested, and the page sorted by `column` from them: the exact total. Each walked row carries
 * its `column` (fetching the matches again by id to sort them cost a radiologist's month of "lumbar
 * spine", 2,500 matches, 10 of its 43 ms). Null for a longer range, a caller no walk serves, or more
 * than COLLECT_WALKED_AT_MOST matches.
 */
export async function collectWalkedRange(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TPage,
  column: string,
): Promise<TSearchWalk | null> {
  if (!walksRangeWhole(criteria)) return null;
  const limit = { limit: COLLECT_WALKED_AT_MOST + 1, sort_order: 'desc' } as const;
  const walk = arrivalWalk(criteria, database, criteria.statuses, limit, column);
  if (!walk) return null;
  const direction = page.sort_order === 'asc' ? 'asc' : 'desc';
  const order = sql.raw(`order by w."${column}" ${direction}, w."id" ${direction}`);
  const [row] = await hotRows<{ n: number; ids: string[] | null }>(
    database,
    sql`with w as materialized (${walk}) select (select count(*) from w)::int as n,
        array(select w."id" from w ${order} limit ${page.limit} offset ${page.offset})::text[] as ids`,
    { prepare: false },
  );
  if (!row || row.n > COLLECT_WALKED_AT_MOST) return null;
  return { ids: row.ids ?? [], total: row.n, capped: false };
}

/**
 * The page's ids and the capped total of a walked dense search (walksDenseSearch, sorted by arrival):
 * the range's matches in the page's order up to cappedCountLimit; that many, and the total is capped.
 * Null when the walked days (walkedDays) held fewer and the range goes on: the caller reads it keyed.
 */
export async function walkDenseSearch(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TPage,
): Promise<TSearchWalk | null> {
  const countLimit = cappedCountLimit(WORKLIST_SEARCH_COUNT_CAP, page);
  const days = walkedDays(criteria, page.sort_order);
  const walk = days && arrivalWalk(days.part, database, criteria.statuses, { ...page, limit: countLimit });
  if (!days || !walk) return null;
  // OFFSET 0: the array is built once (a flattened subquery's expression is copied to each use).
  const [row] = await hotRows<{ n: number; ids: string[] | null }>(
    database,
    sql`select cardinality(w.ids)::int as n, w.ids[${page.offset + 1}::int:${page.offset + page.limit}::int]::text[] as ids
      from (select array(${walk}) as ids offset 0) w`,
    run,
  );
  const counted = row?.n ?? 0;
  const capped = counted >= countLimit;
  // Fewer matches than the cap in part of the range: the keyed indexes count them all.
  if (!capped && !days.whole) return null;
  return { ids: row?.ids ?? [], total: capped ? countLimit - 1 : counted, capped };
}

/**
 * The tabs' counts of a walked dense search (walksDenseSearch over the counted statuses): the range's
 * first WORKLIST_SEARCH_COUNT_CAP + 1 matches, newest first, counted per status; that many, and each
 * count is a lower bound (capped), as the list's total is. An admin's deleted studies beside them,
 * up to as many, capped apart (countUnlisted): an admin's month of "brain" in 10 facilities had its
 * 24,700 candidates of the facilities' keys read for the exact counts (93-105 ms; walked, 29). Null
 * as walkDenseSearch's.
 */
export async function countDenseSearch(
  database: TDatabase,
  criteria: TWorklistCriteria,
  statuses: readonly TStudyStatus[] = criteria.countedStatuses,
): Promise<TSearchCounts | null> {
  const countLimit = WORKLIST_SEARCH_COUNT_CAP + 1;
  const listed = statuses.filter((status) => LISTED_STATUSES.includes(status));
  const others = statuses.filter((status) => !LISTED_STATUSES.includes(status));
  // Each walked row carries its status (on the index): none read again by id.
  const counting = countingWalk(criteria, database, listed, 'status');
  if (!counting) return null;
  const { days, walk } = counting;
  const rows = await hotRows<{ status: TStudyStatus; n: number }>(
    database,
    sql`select w."status" as status, count(*)::int as n from (${walk}) w group by w."status"`,
    run,
  );
  const counted = rows.reduce((sum, row) => sum + row.n, 0);
  if (counted < countLimit && !days.whole) return null;
  const deleted = others.length > 0 ? await countUnlisted(database, criteria, others) : [];
  return {
    perStatus: new Map([...rows, ...deleted].map((row) => [row.status, row.n])),
    capped: counted >= countLimit,
    deletedCapped: deleted.reduce((sum, row) => sum + row.n, 0) >= countLimit,
  };
}

/**
 * An admin's deleted studies of the whole range holding the text, per status, up to
 * WORKLIST_SEARCH_COUNT_CAP + 1 (not toward the listed statuses' cap, as countSearchByWeeks counts
 * them): read through the facilities' status index (each one's few deleted studies of the range),
 * each row's text tested.
 */
async function countUnlisted(
  database: TDatabase,
  criteria: TWorklistCriteria,
  others: readonly TStudyStatus[],
): Promise<{ status: TStudyStatus; n: number }[]> {
  const tested = { ...criteria, searchInRange: true, searchWeeks: null, searchFacilities: null };
  return hotRows<{ status: TStudyStatus; n: number }>(
    database,
    sql`select status, count(*)::int as n from (select "studies"."status" from studies
      where ${worklistWhere(database.db, tested, others)} limit ${WORKLIST_SEARCH_COUNT_CAP + 1}) d group by status`,
    { prepare: false },
  );
}

/**
 * Whether a walked dense search's matches reach `countLimit` (the cap's, or past a page at the cap:
 * cappedCountLimit; countDenseSearch's `capped`, without its counts per status: the page's total, not
 * the tabs'). Its walk's ids counted as they are read, none read again by id (a radiologist's month
 * of "brain": 1,001 of them, 5 of the count's 15 ms). Null as countDenseSearch's.
 */
export async function capsDenseSearch(
  database: TDatabase,
  criteria: TWorklistCriteria,
  statuses: readonly TStudyStatus[],
  countLimit = WORKLIST_SEARCH_COUNT_CAP + 1,
): Promise<boolean | null> {
  const counting = countingWalk(criteria, database, statuses, null, countLimit);
  if (!counting) return null;
  const { days, walk } = counting;
  const [row] = await hotRows<{ n: number }>(database, sql`select count(*)::int as n from (${walk}) w`, run);
  const capped = (row?.n ?? 0) >= countLimit;
  return capped || days.whole ? capped : null;
}

/**
 * The walk a dense search's count reads: the walked days' matches newest first, up to `countLimit`,
 * each row carrying `carried` where given; null where no walk serves.
 */
function countingWalk(
  criteria: TWorklistCriteria,
  database: TDatabase,
  statuses: readonly TStudyStatus[],
  carried: string | null = null,
  countLimit = WORKLIST_SEARCH_COUNT_CAP + 1,
) {
  const days = walkedDays(criteria, 'desc');
  const limit = { limit: countLimit, sort_order: 'desc' } as const;
  const walk = days && arrivalWalk(days.part, database, statuses, limit, carried);
  return days && walk ? { days, walk } : null;
}
