// How a keyless search (worklist-keyless-search.ts, countsKeylessSearch) reads its matches, decided
// from one plan of its conditions without execution: whether its matches are few enough to be read
// once (FEW_KEYLESS_MATCHES), and whether the pair index alone finds them more cheaply than ANDed
// with the range's arrival entries (PAIR_ALONE_RATIO).
import { sql, type SQL } from 'drizzle-orm';
import type { TDatabase, TDbOrTx } from '../../../db/client.ts';
import type { TStudyStatus } from '@ris/domain';
import { oneOf } from '../../../db/one-of.ts';
import {
  dateRangeOn,
  facilitiesOf,
  worklistFilters,
  worklistWhere,
  type TWorklistCriteria,
} from './worklist-criteria.ts';
import { estimateRows, keyStatsOf } from './worklist-search-stats.ts';
import { hotRows } from './worklist-sql.ts';

/**
 * A text whose every pair of characters at least this share of studies hold (the pair index's
 * statistics: "ab", one study in five) is met every few rows of the range: its matches are read by
 * testing each row's text alone. With the pairs' condition PostgreSQL computed each tested row's
 * pairs (27 µs a row: an admin's month of "ab" counted in 53 ms, 5 ms without), or ANDed the pair's
 * 200,000 index entries with the deleted studies' (46 ms for the deleted count).
 */
const COMMON_PAIR_SHARE = 0.05;

/**
 * Whether a keyless text's keys in the pair-keyed index (criteria.searchPairKeys: its pairs, else its
 * single characters, "a") are common (COMMON_PAIR_SHARE); false without keys or statistics.
 */
export async function holdsCommonPairs(db: TDbOrTx, pairs: readonly string[]): Promise<boolean> {
  if (pairs.length === 0) return false;
  const stats = await keyStatsOf(db, 'studies_search_pair_idx');
  return stats !== null && stats.rows > 0 && estimateRows(stats, pairs) >= COMMON_PAIR_SHARE * stats.rows;
}

/**
 * A keyless search with a pair of characters (its matches found by the pair index, whose statistics
 * give each pair's frequency) that PostgreSQL expects at most this many matches of is read once:
 * every match, sorted for the page, the total capped as the tabs' ("sm" over a month: estimated 1,501,
 * 3,934 in fact). Counted up to the cap first, such a text was read again for a page sorted by another
 * column (its matches lie together in that order, past the prefix): each read ANDed the pairs with the
 * range's arrival entries, 22 ms over an admin's month. A common text ("an": 50,202 estimated) keeps
 * the capped count. Estimates run about 2.5-3 times low: 5,000 reads at most some 15,000 rows ("sm"
 * over an admin's all dates: estimated 4,318, 12,134 in fact, read in 25 ms, where the count, the
 * first 2,000 names that held none of them and the matches collected again took 40 ms).
 */
const FEW_KEYLESS_MATCHES = 5_000;

/**
 * PostgreSQL ANDs the pair index's entries with the range's arrival entries when both narrow the
 * search, though reading the pair's rows and testing their arrival costs less once the range holds
 * many more entries: "sm" (12,385 entries) over an admin's month (333,249 arrival entries, 22 ms of
 * bitmap) counted up to the cap in 39 ms ANDed, 19 ms alone; over a week (77,000) in 8.5 ms ANDed,
 * 16-23 ms alone. A row read from the heap costs some 20 arrival entries: the pair is read alone when
 * the range's entries outnumber its own by this much or more.
 */
const PAIR_ALONE_RATIO = 20;

type TPlanNode = {
  'Node Type'?: string;
  'Index Name'?: string;
  'Plan Rows'?: number;
  Plans?: TPlanNode[];
};

function isNode(value: unknown): value is TPlanNode {
  return typeof value === 'object' && value !== null;
}

/** The root of an EXPLAIN (FORMAT JSON) result (a string on PGlite, parsed JSON on PostgreSQL). */
function rootOf(plan: unknown): TPlanNode | null {
  const parsed: unknown = typeof plan === 'string' ? JSON.parse(plan) : plan;
  if (!Array.isArray(parsed)) return null;
  const [first]: unknown[] = parsed;
  if (!isNode(first) || !('Plan' in first)) return null;
  const root: unknown = first.Plan;
  return isNode(root) ? root : null;
}

/** Whether the plan ANDs the pair index with entries PAIR_ALONE_RATIO times its own or more. */
function andsPairWithMany(node: TPlanNode): boolean {
  const children = node.Plans ?? [];
  if (node['Node Type'] === 'BitmapAnd') {
    const pair = children.find((child) => child['Index Name'] === 'studies_search_pair_idx');
    const others = children.filter((child) => child !== pair).map((child) => child['Plan Rows'] ?? 0);
    if (pair && others.length > 0 && (pair['Plan Rows'] ?? 0) * PAIR_ALONE_RATIO <= Math.max(...others)) {
      return true;
    }
  }
  return children.some(andsPairWithMany);
}

/** Whether a keyless search's plan (EXPLAIN FORMAT JSON) is better off reading the pair alone. */
export function readsPairAlone(plan: unknown): boolean {
  const root = rootOf(plan);
  return root !== null && andsPairWithMany(root);
}

/**
 * worklistWhere's conditions for the caller's own studies within their facilities (a reporter's list:
 * the assignee filter names only them), with the facilities tested on each row: `is true` makes the
 * test no index's condition. PostgreSQL otherwise read the facilities' index for the assignee's
 * entries (all 23,500 of a reporter's all dates at 1,000,000 studies) and tested every row for the
 * text: their ultrasound and X-ray, Final and Ordered, holding "ri" counted in 125 ms; from the
 * assignee's index, 24 ms. Not for another assignee, whose studies may lie mostly outside the
 * caller's facilities (a radiologist's by_user_ids naming a reporter: 13 ms through the facilities,
 * 130 ms through the reporter's every study), nor for a referring physician (whose studies are theirs
 * by referral): null.
 */
function assigneeLedWhere(db: TDbOrTx, criteria: TWorklistCriteria, statuses: readonly TStudyStatus[]) {
  const facilities = facilitiesOf(criteria);
  const { principal } = criteria.scope;
  if (
    criteria.byUserIds.length !== 1 ||
    criteria.byUserIds[0] !== principal.userId ||
    principal.role === 'REFERRING_PHYSICIAN' ||
    facilities === null ||
    facilities.length === 0
  ) {
    return null;
  }
  return sql`"studies"."organisation_id" = ${criteria.scope.organisationId}::uuid
    and (${oneOf('"studies"."facility_id"', facilities, 'uuid')}) is true
    and ${worklistFilters(db, criteria, statuses)}`;
}

export type TKeylessPlan = {
  /** The conditions the search reads its matches by: worklistWhere's, or with the range unindexed. */
  where: SQL;
  /** Whether every match is read once, the page sorted from them (FEW_KEYLESS_MATCHES). */
  once: boolean;
  /** The order a read of its first matches up to the cap takes (cappedReadOrder), or none. */
  capped: SQL;
  /** Whether each study of the range is tested for the text (its keys are common), not found by them. */
  tested: boolean;
};

/**
 * The order of a capped read (its first matches, up to the count's cap) of a text whose rows are each
 * tested, in any order PostgreSQL read by a scan of the whole table. Over an organisation-wide range
 * with a start, newest first on the arrival index: the range's matches lie together at the table's
 * end, in arrival order, and a scan starts where the last one stopped (synchronised scans), so an
 * admin's week of "ab" counted up to the cap in 3 ms when the scan began in the week, and in 220-490
 * ms, reading 890,000 rows, once every 16 requests or so; newest first it reads some 5,000 rows of the
 * week, 7-8 ms each time. Over all dates for some facilities, one facility after another on their
 * index: a radiologist's 5 facilities of 100 holding "ab" met one match in 60 rows of the table
 * (58-103 ms), where the first facility's rows hold the cap's in a few thousand (6-12 ms). Not over
 * the whole organisation's all dates (every row is in range; the table's scan costs less than the
 * index's, 374 against 480 ms for a text no study holds), nor for assignees (their own indexes).
 */
function cappedReadOrder(criteria: TWorklistCriteria, assigneeLed: boolean): SQL {
  if (criteria.byUserIds.length > 0 || assigneeLed) return sql``;
  const facilities = facilitiesOf(criteria);
  if (facilities === null) {
    return criteria.from !== null ? sql.raw('order by "studies"."created_at" desc') : sql``;
  }
  return criteria.from === null && facilities.length > 0
    ? sql.raw('order by "studies"."facility_id"')
    : sql``;
}

/**
 * How a keyless search over `statuses` reads its matches: worklistWhere's conditions, planned once
 * without execution when the text has a pair and the search has a range (pairAlone) or may be read
 * once (`askOnce`); with the range's arrival tested on the pair's rows when PAIR_ALONE_RATIO says so.
 */
export async function keylessPlan(
  database: TDatabase,
  criteria: TWorklistCriteria,
  statuses: TWorklistCriteria['statuses'],
  askOnce: boolean,
): Promise<TKeylessPlan> {
  // A keyless text with no pair either (two digits: "12") has each row tested whatever the plan.
  const unkeyed = !criteria.searchKeyed && criteria.searchPairKeys.length === 0;
  if (
    criteria.searchText !== null &&
    (unkeyed || (await holdsCommonPairs(database.db, criteria.searchPairKeys)))
  ) {
    const tested = { ...criteria, searchInRange: true };
    const assigneeLed = assigneeLedWhere(database.db, tested, statuses);
    return {
      where: assigneeLed ?? worklistWhere(database.db, tested, statuses),
      once: false,
      capped: cappedReadOrder(criteria, assigneeLed !== null),
      tested: true,
    };
  }
  const where = worklistWhere(database.db, criteria, statuses);
  const ranged = criteria.from !== null || criteria.to !== null;
  if (criteria.searchText === null || criteria.searchPairKeys.length === 0 || !(ranged || askOnce)) {
    return { where, once: false, capped: sql``, tested: false };
  }
  const [row] = await hotRows<{ 'QUERY PLAN': unknown }>(
    database,
    sql`explain (format json) select 1 from studies where ${where}`,
    { prepare: false },
  );
  const root = rootOf(row?.['QUERY PLAN']);
  const rows = root?.['Plan Rows'];
  const once = askOnce && rows !== undefined && rows <= FEW_KEYLESS_MATCHES;
  if (!ranged || !root || !andsPairWithMany(root)) return { where, once, capped: sql``, tested: false };
  // The range as a test of each row's arrival: `+ interval '0 s'` is an expression no index holds.
  const unindexed = dateRangeOn('"studies"."created_at"', criteria, { from: true, to: true }, true);
  const filtered = worklistWhere(database.db, criteria, statuses, { from: false, to: false });
  return {
    where: sql.join([filtered, ...unindexed], sql.raw(' and ')),
    once,
    capped: sql``,
    tested: false,
  };
}
