// A worklist search by a caller the facility-keyed index does not serve (an admin over the whole
// organisation; anyone over a range of a few weeks), sorted by arrival: its cost follows the page,
// not the archive nor the range. The range (all dates: the organisation's first to last arrival) is
// walked in runs of weeks, newest first (oldest first for an ascending sort), each run read through
// the week-keyed trigram index (migration 0005) and sorted by PostgreSQL; runs do not overlap in time,
// so the runs' rows one after the other are the matches in order. The walk stops once the page is
// found and the matches are counted up to WORKLIST_SEARCH_COUNT_CAP (or past the page): a common name
// reads a week or two, where counting it exactly read every week of the range (12,000 rows over all
// dates at 1,000,000 studies over 90 days, 4,000 over a month; years of studies would be years of
// rows). Runs double (1, 2, 4, 8, 16 weeks), then the rest of the range is one run on the plain
// trigram index (KEYED_RUNS), so a rare text still reads the range in a few statements. Under a filter
// that keeps few of the newest month's studies where the week keys find many times as many
// (searchRunsTested: an admin's Drafted "brain"), the keyed runs test each of their studies instead.
// A text without keys (countsKeylessSearch, at the end) is read up to the cap in any order, then its
// page walked past it, in any sort.
import {
  cappedCountLimit,
  WORKLIST_SEARCH_COUNT_CAP,
  type TStudyStatus,
  type TWorklistListQuery,
} from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDatabase, TDbOrTx } from '../../../db/client.ts';
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
import { holdsCommonPairs, keylessPlan } from './worklist-keyless-plan.ts';
import { arrivalDayWalkSql, collectsArrivalLike } from './worklist-arrival-day-walk.ts';
import { prefixWalkSql } from './worklist-page-walk.ts';
import { hotRows } from './worklist-sql.ts';

type TPage = Pick<TWorklistListQuery, 'limit' | 'offset' | 'sort_by' | 'sort_order'>;

/**
 * Whether a search is walked: sorted by arrival, with a text the week keys know, by a caller who sees
 * the whole organisation (or more facilities than the facility-keyed index serves over all dates).
 */
export function walksSearch(criteria: TWorklistCriteria, page: TPage): boolean {
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
 * Up to this many runs read the week keys (1 + 2 + 4 + 8 + 16 = 31 weeks); what is left of the range
 * after them is one more run on the plain trigram index, so a rare text over years of studies (or a
 * single study back-dated by decades) costs a few statements, not one per 16 weeks.
 */
const KEYED_RUNS = 5;

type TRun = { weeks: number[]; keyed: boolean };

/** The walk's runs of weeks, in its order: 1, 2, 4, 8 and 16 weeks by week keys, then the rest. */
function runsOf(weeks: readonly number[]): TRun[] {
  const runs: TRun[] = [];
  let next = 0;
  for (
    let size = 1;
    next < weeks.length && runs.length < KEYED_RUNS;
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
 * The page's ids and the capped total of a walked search (walksSearch): runs of weeks are read in
 * the sort's direction until the page is found and the count reaches cappedCountLimit, or the weeks
 * run out (then the total is exact).
 */
export async function walkSearch(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TPage,
): Promise<TSearchWalk> {
  const newestFirst = page.sort_order !== 'asc';
  const direction = newestFirst ? 'desc' : 'asc';
  const weeks = await weeksToWalk(database, criteria, newestFirst);
  const countLimit = cappedCountLimit(WORKLIST_SEARCH_COUNT_CAP, page);
  const ids: string[] = [];
  let counted = 0;
  for (const run of runsOf(weeks)) {
    const where = worklistWhere(database.db, runCriteria(criteria, run), criteria.statuses);
    // The page's part of this run: its rows from the page's first (offset) on, as many as it lacks.
    const skip = Math.max(0, page.offset - counted);
    const wanted = Math.max(0, page.limit - ids.length);
    const order = sql.raw(`order by created_at ${direction}, id ${direction}`);
    const statement =
      wanted > 0
        ? sql`with m as materialized (select "studies"."id", "studies"."created_at" from studies where ${where})
            select (select count(*) from m)::int as n,
              array(select id from m ${order} offset ${skip} limit ${wanted})::text[] as ids`
        : // The page is found: this run is only counted, and only as far as the count still goes.
          sql`select count(*)::int as n, '{}'::text[] as ids
            from (select 1 from studies where ${where} limit ${countLimit - counted}) c`;
    // A search's plan depends on its text: planned each time, not prepared.
    const [row] = await hotRows<{ n: number; ids: string[] }>(database, statement, { prepare: false });
    counted += row?.n ?? 0;
    ids.push(...(row?.ids ?? []));
    if (counted >= countLimit) return { ids, total: countLimit - 1, capped: true };
  }
  return { ids, total: counted, capped: false };
}

/**
 * The tabs' counts of a search counted by weeks (countsSearchByWeeks): per status, over runs of
 * weeks newest first until the listed statuses (the All tab) count WORKLIST_SEARCH_COUNT_CAP + 1
 * matches (then each count is a lower bound: capped) or the weeks run out (exact). Deleted studies
 * (counted for admins) are counted over the same weeks, without counting toward the cap.
 */
export async function countSearchByWeeks(
  database: TDatabase,
  criteria: TWorklistCriteria,
  statuses: readonly TStudyStatus[],
): Promise<TSearchCounts> {
  const weeks = await weeksToWalk(database, criteria, true);
  const countLimit = WORKLIST_SEARCH_COUNT_CAP + 1;
  const listed = statuses.filter((status) => LISTED_STATUSES.includes(status));
  const others = statuses.filter((status) => !LISTED_STATUSES.includes(status));
  const perStatus = new Map<TStudyStatus, number>();
  let counted = 0;
  for (const run of runsOf(weeks)) {
    const within = runCriteria(criteria, run);
    const where = worklistWhere(database.db, within, listed);
    const unlimited =
      others.length > 0
        ? sql` union all select status, count(*)::int as n from studies
            where ${worklistWhere(database.db, within, others)} group by status`
        : sql``;
    const rows = await hotRows<{ status: TStudyStatus; n: number }>(
      database,
      sql`select status, count(*)::int as n
        from (select "studies"."status" from studies where ${where} limit ${countLimit - counted}) c
        group by status${unlimited}`,
      { prepare: false },
    );
    for (const row of rows) {
      perStatus.set(row.status, (perStatus.get(row.status) ?? 0) + row.n);
      if (LISTED_STATUSES.includes(row.status)) counted += row.n;
    }
    if (counted >= countLimit) return { perStatus, capped: true, deletedCapped: false };
  }
  return { perStatus, capped: false, deletedCapped: false };
}

/**
 * Whether a search's text has no key the trigram indexes know (no three ASCII letters or digits in a
 * row: "a", "sm", "é", "李"): its matches are counted up to the cap, in any sort. Collecting and
 * sorting every match of the range took 0.2-0.6 s over all dates at 1,000,000 studies for a common
 * text, at each pause while someone types. A rare text has every match read once (found by its pairs
 * of characters, worklistWhere) and sorted; a common one stops at the cap, then its page is walked:
 * in arrival order, which meets a match in most rows, or the first entries of another column's sort
 * index (prefixWalkSql). A text a modality filter makes rare (searchModalities) is read whole by its
 * modality-keyed pairs instead, as a keyed one.
 */
export function countsKeylessSearch(criteria: TWorklistCriteria): boolean {
  return criteria.searchText !== null && !criteria.searchKeyed && !findsFewByKeys(criteria);
}

/**
 * The page's ids and the capped total of a keyless search (countsKeylessSearch), sorted by `column`.
 * Up to cappedCountLimit matches are read in any order: fewer, and they are every match (the total
 * is exact, the page sorted from them); as many, and the total is capped and the page walked in
 * order: arrival by its indexes; another column from the first entries of its sort index, as many as
 * `prefix` says for the text's density (keylessPrefixOf; an admin's 60 days of "ri" at offset 900 by
 * patient id: 2,000 rows walked held 449 of its 910, then 156,000 matches were collected, 340 ms),
 * when they hold the page ("a" by name: 600 ms collected, a few entries walked), else collected and
 * sorted ("sm" by name, whose matches lie together: read twice, once up to the cap).
 * Walking the prefix before counting saved that second read but cost a rare text ("xu", "李明"), the
 * common search, 2,000 entries read for nothing: the count comes first. A text PostgreSQL expects few
 * matches of (keylessPlan) has them all read once instead, and the page sorted from them.
 */
export async function walkKeylessSearch(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TPage,
  column: string,
  /** How far another column's sort index is walked (keylessPrefixOf); null: not walked. */
  prefix: { budget: number; rows: number } | null,
): Promise<TSearchWalk> {
  const countLimit = cappedCountLimit(WORKLIST_SEARCH_COUNT_CAP, page);
  // The matches read by the plan's conditions; the page walked in order by the range's index.
  const plan = await keylessPlan(database, criteria, criteria.statuses, page.sort_by !== 'created_at');
  const direction = page.sort_order === 'asc' ? 'asc' : 'desc';
  const order = (table: string) =>
    sql.raw(`order by ${table}."${column}" ${direction}, ${table}."id" ${direction}`);
  const limits = sql`limit ${page.limit} offset ${page.offset}`;
  const key = sql.raw(`"studies"."${column}"`);
  const [row] = await hotRows<{ n: number; ids: string[] }>(
    database,
    plan.once
      ? sql`with m as materialized (select "studies"."id", ${key} from studies where ${plan.where})
          select (select count(*) from m)::int as n, array(select m."id" from m ${order('m')} ${limits})::text[] as ids`
      : sql`with m as materialized (select "studies"."id", ${key} from studies where ${plan.where}
            ${plan.capped} limit ${countLimit})
          select (select count(*) from m)::int as n,
            (case when (select count(*) from m) < ${countLimit}
              then array(select m."id" from m ${order('m')} ${limits})
              else ${walkedPastCap()}
            end)::text[] as ids`,
    { prepare: false },
  );

  /** The page of a count that reached the cap: walked in arrival order, from a prefix, or collected. */
  function walkedPastCap() {
    if (page.sort_by === 'created_at') {
      // Each row's text tested, without the pairs: PostgreSQL otherwise read every row of the range
      // by a bitmap and computed each one's pairs (a reporter's "ct" over all dates: 23,000 rows,
      // 630 ms), where walking the range's index newest first meets a match every few rows (6 ms).
      const tested = worklistWhere(database.db, { ...criteria, searchInRange: true }, criteria.statuses);
      return sql`array(select "studies"."id" from studies where ${tested} ${order('"studies"')} ${limits})`;
    }
    // A text its keys find (not tested on each row) is collected from them: a day would read many
    // rows for each match.
    const days = plan.tested ? testedDayWalkSql(database.db, criteria, page) : null;
    if (days) return sql`array(${days})`;
    // Collected: every match, sorted (OFFSET 0 keeps PostgreSQL from walking an index in the hope of
    // meeting matches soon, which for names holding "sm" read every name before them: 2.2 s).
    const collected = sql`array(select c."id" from (select "studies"."id", ${key} from studies where ${plan.where} offset 0) c
      ${order('c')} ${limits})`;
    const walked =
      prefix &&
      prefixWalkSql(database.db, criteria, page, column, sql`${prefix.budget}::bigint`, prefix.rows);
    if (!walked) return collected;
    return sql`coalesce((select case when cardinality(p.ids) >= ${page.limit} then p.ids end
      from (select array(${walked}) as ids offset 0) p), ${collected})`;
  }
  const counted = row?.n ?? 0;
  const capped = counted >= countLimit;
  return { ids: row?.ids ?? [], total: capped ? countLimit - 1 : counted, capped };
}

/**
 * A search's page past the cap sorted by study date or last update into a range's far end
 * (collectsArrivalLike), its text tested on each row: an admin's range a day of arrival at a time
 * (arrivalDayWalkSql). For a keyless text (keylessPlan's `tested`): an admin's week of "é" by study
 * date, oldest first, walked 51,000 study dates before the week's first, then collected its 68,000
 * matches (45-58 ms; 10-15 ms by days); a month of "a" collected 250,000 (210-350 ms; 17). For a
 * keyed text many studies hold (worklist-sorted-search.ts, walkDays). Past the cap, the range
 * holds 1,000 matches and more: a day reads about a page's rows. Not by last update oldest first,
 * whose sort index is walked from the range's start (prefixStartOf); null where the days are not
 * walked.
 */
export function testedDayWalkSql(db: TDbOrTx, criteria: TWorklistCriteria, page: TPage): SQL | null {
  const fromStart = page.sort_by === 'updated_at' && page.sort_order === 'asc';
  if (!collectsArrivalLike(criteria, page) || fromStart) return null;
  return arrivalDayWalkSql(db, criteria, page, { tested: true });
}

/**
 * The tabs' counts of a keyless search (countsKeylessSearch): the matches of the listed statuses read
 * in any order up to WORKLIST_SEARCH_COUNT_CAP + 1 (that many, and each count is a lower bound:
 * capped), so the All tab says what the list says ("1,000+"); deleted studies (counted for admins)
 * beside them, up to as many, not toward the cap (counted in the same read, they made the All tab
 * "995+" beside a list of "1,000+"), and capped apart (deletedCapped): many deleted matches made the
 * tabs' exact counts "at least".
 */
export async function countKeylessSearch(
  database: TDatabase,
  criteria: TWorklistCriteria,
  statuses: readonly TStudyStatus[],
): Promise<TSearchCounts> {
  const countLimit = WORKLIST_SEARCH_COUNT_CAP + 1;
  const counted = ({ where, capped }: { where: SQL; capped: SQL }) =>
    sql`select status, count(*)::int as n
      from (select "studies"."status" from studies where ${where} ${capped} limit ${countLimit}) c group by status`;
  const listed = statuses.filter((status) => LISTED_STATUSES.includes(status));
  const others = statuses.filter((status) => !LISTED_STATUSES.includes(status));
  // The listed statuses, the most matches, by the plan's conditions; deleted studies as worklistWhere
  // (each row's text tested alone for common pairs, as the plan does).
  const common =
    criteria.searchText !== null && (await holdsCommonPairs(database.db, criteria.searchPairKeys));
  const parts = [
    ...(listed.length > 0 ? [await keylessPlan(database, criteria, listed, false)] : []),
    ...(others.length > 0
      ? [
          {
            where: worklistWhere(
              database.db,
              { ...criteria, searchInRange: criteria.searchInRange || common },
              others,
            ),
            capped: sql``,
          },
        ]
      : []),
  ].map(counted);
  const rows = await hotRows<{ status: TStudyStatus; n: number }>(
    database,
    sql.join(parts, sql.raw(' union all ')),
    { prepare: false },
  );
  const reached = (part: readonly TStudyStatus[]) =>
    rows.filter((row) => part.includes(row.status)).reduce((sum, row) => sum + row.n, 0) >= countLimit;
  return {
    perStatus: new Map(rows.map((row) => [row.status, row.n])),
    capped: reached(listed),
    deletedCapped: others.length > 0 && reached(others),
  };
}
