// A search for a text many studies hold, sorted by a column header other than arrival (patient name,
// study date, patient id…). Its matches were every one collected and sorted: an admin's "MRN0" over
// all dates sorted by study date sorted 980,000 of them (750 ms), "brain" by patient name 245,000
// (500 ms); a radiologist's month of "brain" by name 4,300 (44 ms). Such a text is counted up to the
// cap as the list sorted by arrival counts it, and its page is the first entries of the column's sort
// index that hold it (prefixWalkSql): a text most studies hold is met every few entries there too.
// How many of those entries' rows are read follows the page's end and the text's density: "lumbar
// spine" (15 studies in 100) on an admin's page at offset 500 by patient id needs some 3,500 rows,
// where the first 2,000 held 300 matches and its 150,000 were collected and sorted (490 ms).
import {
  cappedCountLimit,
  WORKLIST_SEARCH_COUNT_CAP,
  type TModality,
  type TWorklistListQuery,
} from '@ris/domain';
import { sql } from 'drizzle-orm';
import type { TDatabase } from '../../../db/client.ts';
import { findsFewByKeys, type TWorklistCriteria } from './worklist-criteria.ts';
import {
  groupsWalkedFor,
  keyedMatchesOf,
  prefixSizeOf,
  rangeStudiesOf,
  retriedPrefixOf,
} from './worklist-prefix-budget.ts';
import { firstArrivalHeld } from './worklist-held-figures.ts';
import { listedKeyedShareOf } from './worklist-search-modality.ts';
import { capsDenseSearch, collectWalkedRange, DENSE_ONE_IN, probeDensity } from './worklist-dense-search.ts';
import { PREFIX_SEARCH_ENTRIES, prefixWalkSql } from './worklist-page-walk.ts';
import { countSearchByWeeks, countsSearchByWeeks, type TSearchWalk } from './worklist-search-walk.ts';
import { testedDayWalkSql } from './worklist-keyless-search.ts';
import { sortsRangeOf, walkSortedRange } from './worklist-sorted-range.ts';
import { hotRows } from './worklist-sql.ts';

type TPage = Pick<TWorklistListQuery, 'limit' | 'offset' | 'sort_by' | 'sort_order'>;
const DAY_MS = 86_400_000;

/**
 * A text at least one in this many of the range's newest studies hold (probeDensity) is walked in
 * the column's order when counted by weeks (an admin's organisation): its page's rows lie within the
 * first PREFIX_SEARCH_ROWS_AT_MOST of the sort index for pages near the start, where collecting its
 * matches reads thousands (3 in 100 of an admin's 1,000,000 studies: 30,000). A staff member's count
 * walks their range (capsDenseSearch), which costs more than collecting their facilities' matches
 * for a text sparser than DENSE_ONE_IN.
 */
const SORTED_DENSE_ONE_IN = 32;
/**
 * … and a sparser text the probe meets, one in SPARSE_ONE_IN or more, whose range holds
 * SPARSE_WALKED_MATCHES or more (keyedMatchesOf, from the keyed index's statistics): collecting and
 * sorting them reads each from the heap (6-8 µs), more than the walk reads for a page near the start
 * (at one in 128, 4,800 rows for 25). "soren" over an admin's all dates (one study in 42, 23,911
 * matches) by study date, status, last update or description took 145-200 ms collected, 23-45
 * walked; "smith" and "chen" (one in 80: 12,000 over all dates, 1,000-4,000 over a week or a month)
 * collect in 10-40 ms, less than their walks. Over a range with a start, from
 * SPARSE_WALKED_MATCHES_IN_RANGE: its matches are collected through the week keys, whose candidates
 * of every week cost more a match ("maria" since October 31st, 10,000 matches, one in 64 of the
 * newest: 100-107 ms collected by priority, study date or last update; 17-34 walked). Never sorted by
 * name: a name's studies lie in one block of the name index, past the walk, which reads its rows for
 * nothing, then collects (180 → 200 ms; "maria" above, whose 10,000 studies are two patients' names,
 * 109 → 177).
 */
const SPARSE_ONE_IN = 128;
const SPARSE_WALKED_MATCHES = 16_000;
const SPARSE_WALKED_MATCHES_IN_RANGE = 8_000;

/**
 * Whether a text sparser than SORTED_DENSE_ONE_IN is walked for its `density` and range's `matches`,
 * sorted by `column`, over a range with a start or not (`ranged`).
 */
export function walksSparseText(density: number, matches: number, column: string, ranged: boolean): boolean {
  const least = ranged ? SPARSE_WALKED_MATCHES_IN_RANGE : SPARSE_WALKED_MATCHES;
  return column !== 'patient_name' && density * SPARSE_ONE_IN >= 1 && matches >= least;
}

/**
 * The page and the capped total of a search sorted by `column` (not arrival) whose text has trigram
 * keys and is dense among the range's newest studies (SORTED_DENSE_ONE_IN), over more studies than are
 * read whole (searchInRange) nor its modality filter made rare (searchModalities): counted up to the
 * cap by weeks (an admin's organisation) or by walking the caller's range (worklist-dense-search.ts),
 * then, past the cap, the first matches in the column's sort index (prefixRowsFor of their rows). A
 * page that ends at the cap or past it is counted one past its end (cappedCountLimit, as the walks by
 * arrival count), so the page after it shows: collected for an exact total, an admin's "chest"
 * over all dates by name at offset 975 took 520 ms (48-75 walked). Where any step says otherwise
 * (fewer matches than the cap, no prefix walk, or a prefix that does not hold the page), a staff
 * member's range the arrival walk covers has its matches collected by that walk
 * (collectWalkedRange); else null: the matches are collected and sorted through the search's keys, as
 * before. An admin's page by study date or last update into its range's far end, whose sort index
 * begins outside the range, is walked a day of arrival at a time where that reads less than
 * collecting (walkDays).
 */
export async function walkSortedSearch(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TPage,
  column: string,
): Promise<TSearchWalk | null> {
  const { searchText, statuses } = criteria;
  if (
    searchText === null ||
    !criteria.searchKeyed ||
    criteria.searchInRange ||
    findsFewByKeys(criteria) ||
    page.sort_by === 'created_at'
  ) {
    return null;
  }
  const byWeeks = countsSearchByWeeks(criteria);
  // Counted up to the cap, or past a page at it (the page after it then shows: cappedCountLimit).
  const countLimit = cappedCountLimit(WORKLIST_SEARCH_COUNT_CAP, page);
  const oneIn = byWeeks ? SORTED_DENSE_ONE_IN : DENSE_ONE_IN;
  const density = await probeDensity(database, criteria, statuses, 'desc');
  if (!density) return null;
  // Walked by days, or null where the range holds fewer matches than the count goes to (collected).
  const byDays = byWeeks ? await walkDays(database, criteria, page, density.share, countLimit) : undefined;
  if (byDays !== undefined) return byDays;
  const dense = density.few || density.share * oneIn >= 1;
  // Estimated from statistics only where the probe met the text: every key of "mrn0000" is common,
  // together they are rare (4,920 studies, estimated 500,000).
  const keyed =
    dense || !byWeeks || density.share === 0 ? null : await keyedMatchesOf(database, criteria, page);
  const sparse =
    keyed !== null && walksSparseText(keyed.share, keyed.matches, column, criteria.from !== null);
  // Not met among the newest studies: an admin's text may still be dense where the page lies, in the
  // column's first entries (an accession block weeks back, sorted by status or name).
  const unmet = byWeeks && !dense && !sparse && density.share * SPARSE_ONE_IN < 1;
  // The groups a walk of a group-led index reads, read once for the probe and the walk.
  let walking: Promise<TModality[] | null> | null = null;
  const walkedGroups = () => (walking ??= groupsWalkedFor(database, criteria, column));
  const atPrefix = unmet ? await sortPrefixDensity(database, criteria, page, column, walkedGroups) : null;
  if (!dense && !sparse && atPrefix === null) return null;
  // Whether the matches pass the cap, read once: before a facility-scoped range is sorted, then for
  // the prefix walk.
  let capping: Promise<boolean | null> | null = null;
  const capped = () =>
    (capping ??= byWeeks
      ? countSearchByWeeks(database, criteria, statuses, countLimit).then((counts) => counts.capped)
      : capsDenseSearch(database, criteria, statuses, countLimit));
  // A page the sort index does not hold, of a staff member or an admin's facility filter: the range
  // sorted from the facilities' index where that reads less (sortsRange), past the cap; else its
  // matches collected by walking it.
  let collecting: Promise<TSearchWalk | null> | null = null;
  const collected = () =>
    byWeeks
      ? null
      : (collecting ??= collectFacilitiesRange(
          database,
          criteria,
          page,
          column,
          density.share,
          capped,
          countLimit,
        ));
  const groups = await walkedGroups();
  const share = atPrefix ?? (keyed && sparse ? keyed.share : density.share);
  const oneInCounted = sparse ? SPARSE_ONE_IN : oneIn;
  const size = await prefixSizeOf(database, criteria, page, column, { share, oneIn: oneInCounted }, groups);
  if (!size) return collected();
  const { rows, budget } = size;
  if (budget !== size.entries) {
    // The page lies past the entries' matches the caller keeps: their range walked whole where it can
    // be, else more entries (budget), else their matches collected.
    const whole = await collected();
    if (whole || budget === null) return whole;
  }
  // A page that ends at the cap or past it is walked first: one the walk holds has that many matches
  // before it, so the count reaches it; one it does not hold is collected without the count (a
  // reporter's "brain" by description at offset 975 read 24 ms counting before a walk that failed).
  const deep = page.offset + page.limit >= WORKLIST_SEARCH_COUNT_CAP;
  if (!deep && !(await capped())) return collected();
  const walk = async (walked: { budget: number; rows: number }) => {
    const entries = sql`${walked.budget}::bigint`;
    const prefix = prefixWalkSql(database.db, criteria, page, column, entries, walked.rows, groups);
    if (!prefix) return null;
    const [row] = await hotRows<{ ids: string[] | null }>(
      database,
      sql`select array(${prefix})::text[] as ids`,
      { prepare: false },
    );
    return row?.ids ?? [];
  };
  let ids = await walk({ budget, rows });
  if (ids === null) return null;
  // A prefix that holds fewer rows than the page did not hold it (or, not yet counted, the matches end
  // within it). Walked once more, further (retriedPrefixOf), before its matches are collected, where it
  // held part of the page: a walk that met none of it is past the matches' block (a name's studies by
  // name).
  const retry = ids.length > 0 && ids.length < page.limit ? retriedPrefixOf({ budget, rows }) : null;
  if (retry) ids = (await walk(retry)) ?? [];
  if (ids.length < page.limit || (deep && !(await capped()))) return collected();
  return { ids, total: countLimit - 1, capped: true };
}

/**
 * How many of the column's first entries sortPrefixDensity reads the rows of. A patient's studies lie
 * together in the patient id and name orders: 128 of them held one patient's 7 studies holding
 * "fernandez" (one in 18), where the first 2,000 held 21 (one in 95), and the walk that followed
 * found too few for the page (31 → 54 ms). Over 512, such a patient counts for a quarter as much.
 */
const PREFIX_PROBE_ROWS = 512;

/**
 * The share of the first PREFIX_PROBE_ROWS studies of `column`'s sort index, in the page's order,
 * under the caller's filters (of its first PREFIX_SEARCH_ENTRIES entries), that hold the search text,
 * where one in SORTED_DENSE_ONE_IN or more do; else null. For a text the range's newest studies do not
 * hold but many older ones do: "A0003" over all dates (100,000 studies 54-63 days old) sorted by
 * status or by name had its 100,000 matches collected and sorted (300-600 ms), where the index's first
 * entries hold one in ten. Read only where the keyed index's statistics say one study in
 * SORTED_DENSE_ONE_IN or more holds the text's keys (listedKeyedShareOf), and the newest studies held
 * almost none (fewer than one in SPARSE_ONE_IN): a rare text, or a surname whose keys the statistics do
 * not list, is collected as before, without the probe (it read up to 20,000 entries where the order
 * begins with studies the filters leave out: 5-13 ms more for "smith" or "kim" over a month).
 */
async function sortPrefixDensity(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TPage,
  column: string,
  walkedGroups: () => Promise<TModality[] | null>,
): Promise<number | null> {
  const { searchText } = criteria;
  const keyedShare = searchText === null ? null : await listedKeyedShareOf(database.db, searchText);
  if (keyedShare === null || keyedShare * SORTED_DENSE_ONE_IN < 1) return null;
  const probePage = { ...page, offset: 0, limit: PREFIX_PROBE_ROWS };
  const groups = await walkedGroups();
  const entries = sql`${PREFIX_SEARCH_ENTRIES}::bigint`;
  const probe = prefixWalkSql(database.db, criteria, probePage, column, entries, PREFIX_PROBE_ROWS, groups);
  if (!probe) return null;
  const [row] = await hotRows<{ hits: number }>(
    database,
    sql`select cardinality(array(${probe}))::int as hits`,
    { prepare: false },
  );
  const share = (row?.hits ?? 0) / PREFIX_PROBE_ROWS;
  return share * SORTED_DENSE_ONE_IN >= 1 ? share : null;
}

/**
 * A range of a few facilities (a staff member's, an admin's facility filter) whose page the column's
 * sort index does not hold: sorted whole from the facilities' index, its rows tested in the column's order (walkSortedRange), where sortsRange says
 * that reads less and the text's matches pass the cap (`capped`: the total is the cap's); else its
 * matches collected by walking it (collectWalkedRange, the exact total), or null.
 */
async function collectFacilitiesRange(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TPage,
  column: string,
  density: number,
  capped: () => Promise<boolean | null>,
  countLimit: number,
): Promise<TSearchWalk | null> {
  if ((await sortsRangeOf(database, criteria, page, density)) && (await capped())) {
    const ids = await walkSortedRange(database, criteria, page, column);
    return { ids, total: countLimit - 1, capped: true };
  }
  return collectWalkedRange(database, criteria, page, column);
}

/**
 * A row a day walk tests for the text costs about a third of a match the keys collect (0.8-1.2 µs
 * against 2-4: each match is read from its own heap page, then sorted). An admin's month of "mri" by
 * study date from its start: 49,000 matches collected in 175-190 ms; 26,000 rows walked for a page at
 * offset 100 in 45, 108,000 at offset 500 in 90. A month of "smith" (3,900 matches, 15 ms) read
 * 62,000 rows walked (47).
 */
const DAY_ROW_COST = 1 / 3;

/**
 * Whether an admin's range is walked a day of arrival at a time for a text of this `density` (the
 * share of the range's newest studies holding it): where each of the range's `days` reads the page's
 * end over the density (at most the day's studies) and that is fewer rows than the range's matches,
 * which are otherwise collected.
 */
export function walksDays(density: number, end: number, days: number, rangeStudies: number): boolean {
  if (density <= 0 || days <= 0) return false;
  const rowsPerDay = Math.min(end / density, rangeStudies / days);
  return days * rowsPerDay * DAY_ROW_COST <= density * rangeStudies;
}

/**
 * The page and the capped total of an admin's search sorted by study date or last update into its
 * range's far end: oldest first from the range's start, or newest first into a range that ended days
 * ago (collectsArrivalLike). The column's sort index begins outside the range there, so its prefix
 * holds none of the page, and the matches were collected and sorted: a month of "mri" (one study in
 * seven) by study date, oldest first, 49,000 of them (150-185 ms), a week 11,000 (37). Walked a day of
 * arrival at a time instead (testedDayWalkSql), each row's text tested, where walksDays says it reads
 * fewer rows, and counted by weeks up to `countLimit` (cappedCountLimit). Null where the range holds
 * fewer matches (collected: nothing else is tried, the count is not read again); undefined where the
 * days are not walked.
 */
async function walkDays(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TPage,
  density: number,
  countLimit: number,
): Promise<TSearchWalk | null | undefined> {
  const days = testedDayWalkSql(database.db, criteria, page);
  if (!days) return undefined;
  const first =
    criteria.from?.getTime() ?? (await firstArrivalHeld(database.db, criteria.scope.organisationId));
  const last = criteria.to?.at.getTime() ?? criteria.now.getTime();
  const dayCount = first === null ? 0 : Math.floor(last / DAY_MS) - Math.floor(first / DAY_MS) + 1;
  const end = page.offset + page.limit;
  if (!walksDays(density, end, dayCount, await rangeStudiesOf(database, criteria, page))) return undefined;
  const counted = await countSearchByWeeks(database, criteria, criteria.statuses, countLimit);
  if (!counted.capped) return null;
  const [row] = await hotRows<{ ids: string[] | null }>(database, sql`select array(${days})::text[] as ids`, {
    prepare: false,
  });
  return { ids: row?.ids ?? [], total: countLimit - 1, capped: true };
}
