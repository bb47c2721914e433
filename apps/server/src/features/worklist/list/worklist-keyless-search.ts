// A worklist search whose text has no key the trigram indexes know ("a", "sm", "é", "李"): its
// matches read up to WORKLIST_SEARCH_COUNT_CAP in any order, then its page walked past the cap, in
// any sort (the plan of the read: worklist-keyless-plan.ts). A text the week keys know is walked by
// worklist-search-walk.ts.
import { cappedCountLimit, WORKLIST_SEARCH_COUNT_CAP, type TStudyStatus } from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDatabase, TDbOrTx } from '../../../db/client.ts';
import {
  LISTED_STATUSES,
  findsFewByKeys,
  worklistWhere,
  type TWorklistCriteria,
} from './worklist-criteria.ts';
import { holdsCommonPairs, keylessPlan } from './worklist-keyless-plan.ts';
import { arrivalDayWalkSql, collectsArrivalLike } from './worklist-arrival-day-walk.ts';
import { prefixWalkSql } from './worklist-page-walk.ts';
import type { TKeylessPrefix } from './worklist-prefix-budget.ts';
import { hotRows } from './worklist-sql.ts';
import type { TSearchCounts, TSearchPage, TSearchWalk } from './worklist-search-walk.ts';

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
  page: TSearchPage,
  column: string,
  /** How far another column's sort index is walked (keylessPrefixOf); null: not walked. */
  prefix: TKeylessPrefix | null,
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
      prefixWalkSql(
        database.db,
        criteria,
        page,
        column,
        sql`${prefix.budget}::bigint`,
        prefix.rows,
        prefix.groups,
      );
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
export function testedDayWalkSql(db: TDbOrTx, criteria: TWorklistCriteria, page: TSearchPage): SQL | null {
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
