// A worklist search by a caller the facility-keyed index does not serve (an admin over the whole
// organisation; anyone over a range of a few weeks), sorted by arrival: its cost follows the page,
// not the archive nor the range. The range (all dates: the organisation's first to last arrival) is
// walked newest first (oldest first for an ascending sort): its first KEYED_WEEKS weeks in one
// statement, a week at a time through the week-keyed trigram index (migration 0005), each week's
// matches sorted by PostgreSQL, until the week that completes the count (runMatchesSql); then the
// rest of the range as one run on the plain trigram index. Weeks do not overlap in time, so their
// rows one after the other are the matches in order. The walk stops once the page is found and the
// matches are counted up to WORKLIST_SEARCH_COUNT_CAP (or past the page): a common name reads a week
// or two, where counting it exactly read every week of the range (12,000 rows over all dates at
// 1,000,000 studies over 90 days, 4,000 over a month; years of studies would be years of rows). Under
// a filter that keeps few of the newest month's studies where the week keys find many times as many
// (searchRunsTested: an admin's Drafted "brain"), runs of 1, 2, 4, 8 and 16 weeks have each of their
// studies tested instead. A text without keys is read by worklist-keyless-search.ts.
import {
  cappedCountLimit,
  WORKLIST_SEARCH_COUNT_CAP,
  type TStudyStatus,
  type TWorklistListQuery,
} from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDatabase } from '../../../db/client.ts';
import {
  facilitiesOf,
  LISTED_STATUSES,
  MAX_SEARCH_WEEKS,
  findsFewByKeys,
  searchWeekOf,
  searchWeekStart,
  worklistWhere,
  type TWorklistCriteria,
} from './worklist-criteria.ts';
import { hotRows } from './worklist-sql.ts';
import { holdsWeekKeys, weekKeysOf } from './worklist-search-text.ts';

/** The page a search reads: its size, offset and sort. */
export type TSearchPage = Pick<TWorklistListQuery, 'limit' | 'offset' | 'sort_by' | 'sort_order'>;

/**
 * Whether a search is walked: sorted by arrival, with a text the week keys know, by a caller who sees
 * the whole organisation (or more facilities than the facility-keyed index serves over all dates).
 */
export function walksSearch(criteria: TWorklistCriteria, page: TSearchPage): boolean {
  return countsSearchByWeeks(criteria) && page.sort_by === 'created_at';
}

/** Whether a search's matches are counted in runs of weeks up to the cap (walksSearch, any sort). */
export function countsSearchByWeeks(criteria: TWorklistCriteria): boolean {
  const { searchText } = criteria;
  // A staff member's search over a few weeks keeps one read of those weeks: their matches are few
  // (their facilities' share of the organisation's), so a walk would read the same rows in more steps.
  // So does a range of few studies (searchInRange): all of them are read once, and counted exactly.
  const staffInWeeks = criteria.searchWeeks !== null && facilitiesOf(criteria) !== null;
  return (
    searchText !== null &&
    criteria.searchFacilities === null &&
    !findsFewByKeys(criteria) &&
    !criteria.searchInRange &&
    !staffInWeeks &&
    criteria.searchKeyed
  );
}

/**
 * A search's counts per status: `capped` when the listed statuses' are lower bounds (counted up to
 * the cap), `deletedCapped` when the deleted count is (the tabs' deleted_capped).
 */
export type TSearchCounts = { perStatus: Map<TStudyStatus, number>; capped: boolean; deletedCapped: boolean };

export type TSearchWalk = {
  /** The page's study ids, in the page's order. */
  ids: string[];
  /** The matches counted: exact, or a lower bound when capped. */
  total: number;
  capped: boolean;
};

/** The weeks of the walk in its order: the range's, within the organisation's first and last arrival. */
async function weeksToWalk(database: TDatabase, criteria: TWorklistCriteria, newestFirst: boolean) {
  // In epoch milliseconds (a number on either engine; the last is rounded up, the first down).
  const [span] = await hotRows<{ first: number | null; last: number | null }>(
    database,
    sql`select floor(extract(epoch from min("created_at")) * 1000)::float8 as first,
        ceil(extract(epoch from max("created_at")) * 1000)::float8 as last
      from studies where "organisation_id" = ${criteria.scope.organisationId}::uuid`,
    { prepare: true, plan: 'generic' },
  );
  if (span?.first == null || span.last == null) return [];
  const from = Math.max(criteria.from?.getTime() ?? span.first, span.first);
  const to = Math.min(criteria.to?.at.getTime() ?? span.last, span.last);
  const weeks: number[] = [];
  for (let week = searchWeekOf(new Date(from)); week <= searchWeekOf(new Date(to)); week++) weeks.push(week);
  return newestFirst ? weeks.reverse() : weeks;
}

/**
 * Up to this many weeks are read by their keys (1 + 2 + 4 + 8 + 16, as runs of weeks tested were);
 * what is left of the range after them is one more run on the plain trigram index, so a rare text
 * over years of studies (or a single study back-dated by decades) costs two statements, not a scan
 * per week.
 */
const KEYED_WEEKS = 31;

/** Up to this many runs of weeks tested (searchRunsTested): 1, 2, 4, 8 and 16 weeks. */
const TESTED_RUNS = 5;

type TRun = { weeks: number[]; keyed: boolean };

/**
 * The walk's runs of weeks, in its order: the first KEYED_WEEKS by their keys, read a week at a time
 * in one statement (runMatchesSql), then the rest. Weeks whose studies are each tested
 * (searchRunsTested) have no keys to find a week's studies by: they are read a run at a time, of 1,
 * 2, 4, 8 and 16 weeks.
 */
function runsOf(weeks: readonly number[], tested: boolean): TRun[] {
  const runs: TRun[] = [];
  let next = 0;
  if (!tested && weeks.length > 0) {
    runs.push({ weeks: weeks.slice(0, KEYED_WEEKS), keyed: true });
    next = KEYED_WEEKS;
  }
  for (
    let size = 1;
    tested && next < weeks.length && runs.length < TESTED_RUNS;
    size = Math.min(size * 2, MAX_SEARCH_WEEKS)
  ) {
    runs.push({ weeks: weeks.slice(next, next + size), keyed: true });
    next += size;
  }
  if (next < weeks.length) runs.push({ weeks: weeks.slice(next), keyed: false });
  return runs;
}

/**
 * The criteria of one run: its weeks' instants within the range, read by week keys when keyed, or
 * each of its studies tested where the criteria say so (searchRunsTested: few under the filter).
 */
function runCriteria(criteria: TWorklistCriteria, run: TRun): TWorklistCriteria {
  const start = searchWeekStart(Math.min(...run.weeks));
  const end = searchWeekStart(Math.max(...run.weeks) + 1);
  const tested = run.keyed && criteria.searchRunsTested;
  return {
    ...criteria,
    from: criteria.from && criteria.from > start ? criteria.from : start,
    to: criteria.to && criteria.to.at < end ? criteria.to : { at: end, inclusive: false },
    searchWeeks: run.keyed && !tested ? run.weeks : null,
    searchInRange: tested,
  };
}

/**
 * The `columns` of a run's matches of `statuses`, and `at`: the place of each one's week in the run
 * (0 for a run read as one). `perWeek` (an ORDER BY and LIMIT) applies to each week of a keyed run,
 * read one after the other in the run's order; `before`, where given, keeps the weeks before that
 * place. Such a run is a lateral join over its weeks: each week's studies holding the text's keys
 * are found by the week-keyed index, its keys made from the text's once (weekKeysOf), so the
 * statement is planned once whatever its weeks (one scan per week, ORed, planned each: 2.4 ms for
 * seven), and a LIMIT above it stops at the week that reaches it. The week's candidates are read
 * alone, behind OFFSET 0 (not by walking an arrival index, which computes each row's week keys, nor
 * ANDed with one, whose range the planner cannot know), and the other filters and the substring
 * test applied to them. A run whose studies are each tested (searchRunsTested), and the unkeyed rest
 * of the range, are read as one.
 */
function runMatchesSql(
  database: TDatabase,
  criteria: TWorklistCriteria,
  run: TRun,
  statuses: readonly TStudyStatus[],
  read: { columns: SQL; perWeek?: SQL; before?: SQL },
): SQL {
  const { columns, perWeek = sql``, before } = read;
  const within = runCriteria(criteria, run);
  if (within.searchWeeks === null || criteria.searchText === null) {
    return sql`select ${columns}, 0 as at
      from (select * from studies where ${worklistWhere(database.db, within, statuses)} offset 0) studies
      ${before ? sql`where 0 < ${before}` : sql``} ${perWeek}`;
  }
  const weeks = sql.join(
    run.weeks.map((week, at) => sql`(${at}::int, ${week}::int)`),
    sql.raw(', '),
  );
  const tested = { ...within, searchWeeks: null, searchInRange: true };
  return sql`select ${columns}, w.at from (values ${weeks}) w(at, week)
    cross join lateral (select ${columns}
      from (select * from studies where ${holdsWeekKeys(weekKeysOf(criteria.searchText, sql`w.week`))} offset 0) studies
      where ${worklistWhere(database.db, tested, statuses)} ${perWeek}) studies
    ${before ? sql`where w.at < ${before}` : sql``}`;
}

/**
 * The page's ids and the capped total of a walked search (walksSearch): runs of weeks are read in
 * the sort's direction until the page is found and the count reaches cappedCountLimit, or the weeks
 * run out (then the total is exact).
 */
export async function walkSearch(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TSearchPage,
): Promise<TSearchWalk> {
  const newestFirst = page.sort_order !== 'asc';
  const direction = newestFirst ? 'desc' : 'asc';
  const weeks = await weeksToWalk(database, criteria, newestFirst);
  const countLimit = cappedCountLimit(WORKLIST_SEARCH_COUNT_CAP, page);
  const ids: string[] = [];
  let counted = 0;
  const order = sql.raw(`order by created_at ${direction}, id ${direction}`);
  const columns = sql`"studies"."id", "studies"."created_at"`;
  for (const run of runsOf(weeks, criteria.searchRunsTested)) {
    // The page's part of this run: its rows from the page's first (offset) on, as many as it lacks.
    const skip = Math.max(0, page.offset - counted);
    const wanted = Math.max(0, page.limit - ids.length);
    const left = countLimit - counted;
    const statement =
      wanted > 0
        ? sql`with m as materialized (select * from (${runMatchesSql(database, criteria, run, criteria.statuses, { columns, perWeek: sql`${order} limit ${left}` })}) r
              limit ${left})
            select (select count(*) from m)::int as n,
              array(select id from m ${order} offset ${skip} limit ${wanted})::text[] as ids`
        : // The page is found: this run is only counted, and only as far as the count still goes.
          sql`select count(*)::int as n, '{}'::text[] as ids
            from (${runMatchesSql(database, criteria, run, criteria.statuses, { columns: sql`1` })} limit ${left}) c`;
    // A search's plan depends on its text: planned each time, not prepared.
    const [row] = await hotRows<{ n: number; ids: string[] }>(database, statement, { prepare: false });
    counted += row?.n ?? 0;
    ids.push(...(row?.ids ?? []));
    if (counted >= countLimit) return { ids, total: countLimit - 1, capped: true };
  }
  return { ids, total: counted, capped: false };
}

/**
 * The tabs' counts of a search counted by weeks (countsSearchByWeeks): per status, newest first, a
 * week at a time, until the listed statuses (the All tab) count `countLimit` matches (the cap's, or
 * past a page at the cap: cappedCountLimit; then each count is a lower bound: capped) or the weeks
 * run out (exact). Deleted studies (counted
 * for admins) are counted beside them, not toward the cap, over the weeks read before the one the cap
 * was reached in: a lower bound then (deletedCapped), which reads no more than the listed count read.
 * Counted over the whole run of weeks that reached the cap, an admin's "A0003" over all dates read
 * the 100,000 studies of eight weeks for its few deleted ones (66-71 ms at 1,000,000 studies), where
 * its first week with any reached the cap, and were said to be exact.
 */
export async function countSearchByWeeks(
  database: TDatabase,
  criteria: TWorklistCriteria,
  statuses: readonly TStudyStatus[],
  countLimit = WORKLIST_SEARCH_COUNT_CAP + 1,
): Promise<TSearchCounts> {
  const weeks = await weeksToWalk(database, criteria, true);
  const listed = statuses.filter((status) => LISTED_STATUSES.includes(status));
  const others = statuses.filter((status) => !LISTED_STATUSES.includes(status));
  const perStatus = new Map<TStudyStatus, number>();
  let counted = 0;
  for (const run of runsOf(weeks, criteria.searchRunsTested)) {
    // The listed matches a week at a time, up to the count left (the join over the weeks stops
    // there); r: the place of the week it stopped in, else past the last.
    const left = countLimit - counted;
    const status = { columns: sql`"studies"."status"` };
    // Deleted ones of the weeks before it (a filter on the weeks, or a one-time filter).
    const deleted =
      others.length > 0
        ? sql` union all select status, count(*)::int as n
            from (${runMatchesSql(database, criteria, run, others, { ...status, before: sql`(select at from r)` })}) d
            group by status`
        : sql``;
    const rows = await hotRows<{ status: TStudyStatus; n: number }>(
      database,
      sql`with l as materialized (select * from (${runMatchesSql(database, criteria, run, listed, status)}) p
            limit ${left}),
          r as (select (case when count(*) < ${left} then ${run.weeks.length} else max(at) end)::int as at from l)
        select status, count(*)::int as n from l group by status${deleted}`,
      { prepare: false },
    );
    for (const row of rows) {
      perStatus.set(row.status, (perStatus.get(row.status) ?? 0) + row.n);
      if (LISTED_STATUSES.includes(row.status)) counted += row.n;
    }
    if (counted >= countLimit) return { perStatus, capped: true, deletedCapped: others.length > 0 };
  }
  return { perStatus, capped: false, deletedCapped: false };
}
