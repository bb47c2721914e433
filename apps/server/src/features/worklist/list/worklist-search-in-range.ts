// Whether a search tests the text of each study its other filters keep (searchInRange), rather than
// reading the candidates a keyed index finds for the text: where those studies are few, or where the
// keys find many times more and no walk of the range's newest days would stop at the count's cap;
// or whether an organisation's walk in runs of weeks tests each study of its runs (searchRunsTested),
// where the newest days hold the cap's matches among few studies that the week keys find many times.
import { WORKLIST_SEARCH_COUNT_CAP } from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { queryRows } from '../../../db/rows.ts';
import type { TWorklistCriteria } from './worklist-criteria.ts';
import { WALK_DAYS_AT_MOST } from './worklist-search-open.ts';

/**
 * A search whose range holds at most this many studies under its other filters tests each one's
 * text instead of asking a trigram index for candidates. The keys of a text most studies share find
 * every study that holds them: a reporter's last 3 days of "MRN01" (one patient id in ten starts so,
 * every one with "MRN0") read 49,000 of their facilities' studies of all dates, each for its arrival
 * and assignee, for 272 (125 ms), where the range's own 300 rows read in a few ms. Testing 2,000
 * rows' texts costs a few ms at most.
 */
export const SEARCH_IN_RANGE_AT_MOST = 2_000;

/**
 * … and up to this many where the text's keys find more than KEYED_ROWS_PER_RANGE_ROW times as many
 * studies of all dates (keyedRowsOf: a keyed read over all dates or a range of more weeks than the
 * week keys serve) and the range's newest WALK_DAYS_AT_MOST days hold too few studies for a walk of
 * them to reach the count's cap (worklist-dense-search.ts, which then leaves the range to the keys).
 * A radiologist's nuclear medicine studies of all dates searched for "MRN01" are 2,600 in their 5
 * facilities, their last month's 900: the walk of that month counted 450 matches, then their
 * facilities' keys found 25,000 studies of every modality to test (95-240 ms; PostgreSQL estimated the
 * keyed index's rows at 1), where testing the 2,600 takes 10.
 */
export const SEARCH_IN_RANGE_WIDENED_AT_MOST = 10_000;
/**
 * … and up to this many in a range within the walked days, the keys finding three times as many:
 * testing them costs 25 ms at most (2 µs a row), where the week keys' read of a common text under a
 * narrow filter reads tens of thousands (an admin's month of Drafted "brain", 5,300 studies: 130-200
 * ms, 13 ms tested; of Follow-up and Routine "brain" by study date, 8,200 studies: 120 ms, 21
 * tested). It costs where the week keys' walk stops early at the count's cap: an admin's month of To
 * read "brain" (9,900 studies) 11 ms walked, 16 tested. 7,000 before.
 */
export const SEARCH_IN_RANGE_SHORT_AT_MOST = 12_000;
const KEYED_ROWS_PER_RANGE_ROW = 3;
const DAY_MS = 86_400_000;

/** A count of the studies `where` keeps, up to `limit` and one more, as SQL. */
const countUpTo = (where: SQL, limit: number) =>
  sql`(select count(*)::int from (select 1 from studies where ${where} limit ${limit + 1}) kept)`;

/** Whether `where` keeps at most `limit` studies (counted up to one more). */
export async function rangeHoldsAtMost(db: TDbOrTx, where: SQL, limit: number): Promise<boolean> {
  const [row] = await queryRows<{ n: number }>(db, sql`select ${countUpTo(where, limit)} as n`);
  return row !== undefined && row.n <= limit;
}

/**
 * How a search finds its matches (rangeTestOf): `range`, each study of the range its other filters
 * keep is tested (searchInRange); `runs`, the walk's runs of weeks test each of theirs
 * (searchRunsTested, worklist-search-walk.ts); `keys`, a keyed index finds the candidates.
 */
export type TRangeTest = 'range' | 'runs' | 'keys';

/**
 * How a search finds its matches (TRangeTest). `range` where the studies of the range but for its
 * search are few (`whereFrom`: the range's other filters, from an instant; counts capped past the
 * limit): SEARCH_IN_RANGE_AT_MOST, or as SEARCH_IN_RANGE_WIDENED_AT_MOST says (`keyedRows`, the keys'
 * estimate from statistics in memory for a range longer than the walked days or not, null where it
 * does not apply). A range longer than the walked days has its newest days counted with the first
 * count, and the range again up to the widened limit only when they hold fewer than the cap: a range
 * of many studies stops both counts early. A range within the walked days is counted once, up to
 * SEARCH_IN_RANGE_SHORT_AT_MOST where the keys find three times as many (an admin's month of "ct
 * brain" tagged urgent or oncology: 3,700 studies, where the week keys read 100,000 holding "brain":
 * 120-330 ms, 13 ms tested).
 * A range named by an assignee filter for someone besides the caller is counted up to the widened
 * limit even where its walked days hold more than the cap (namesOthers).
 * `runs` where a longer range's walked days hold more than the cap but at most
 * SEARCH_IN_RANGE_SHORT_AT_MOST, and the week keys find three times as many there (`walkedKeyedRows`,
 * null where the walk does not apply): an admin's Drafted "brain" over all dates, 12,000 studies of
 * which the newest month's 5,500 hold the cap's matches, where the runs' week keys read the 120,000
 * studies of seven weeks holding "brain" (110-130 ms).
 */
export async function rangeTestOf(
  db: TDbOrTx,
  criteria: Pick<TWorklistCriteria, 'from' | 'to' | 'now' | 'byUserIds' | 'scope'>,
  whereFrom: (from: Date | null) => SQL,
  keyedRows: (longer: boolean) => Promise<number | null>,
  walkedKeyedRows: () => Promise<number | null>,
): Promise<TRangeTest> {
  const end = criteria.to?.at ?? criteria.now;
  const walkedFrom = new Date(end.getTime() - WALK_DAYS_AT_MOST * DAY_MS);
  const longer = criteria.from === null || criteria.from < walkedFrom;
  const keyed = await keyedRows(longer);
  const widened = Math.min(
    longer ? SEARCH_IN_RANGE_WIDENED_AT_MOST : SEARCH_IN_RANGE_SHORT_AT_MOST,
    Math.floor((keyed ?? 0) / KEYED_ROWS_PER_RANGE_ROW),
  );
  const runs = longer
    ? Math.min(
        SEARCH_IN_RANGE_SHORT_AT_MOST,
        Math.floor(((await walkedKeyedRows()) ?? 0) / KEYED_ROWS_PER_RANGE_ROW),
      )
    : 0;
  const first = longer ? SEARCH_IN_RANGE_AT_MOST : Math.max(SEARCH_IN_RANGE_AT_MOST, widened);
  const walked =
    longer && (widened > SEARCH_IN_RANGE_AT_MOST || runs > WORKLIST_SEARCH_COUNT_CAP)
      ? countUpTo(whereFrom(walkedFrom), Math.max(WORKLIST_SEARCH_COUNT_CAP, runs))
      : sql`null`;
  const [row] = await queryRows<{ n: number; walked: number | null }>(
    db,
    sql`select ${countUpTo(whereFrom(criteria.from), first)} as n, ${walked} as walked`,
  );
  if (!row) return 'keys';
  if (row.n <= first) return 'range';
  if (row.walked === null) return 'keys';
  if (row.walked > WORKLIST_SEARCH_COUNT_CAP && (row.walked <= runs || !namesOthers(criteria))) {
    return row.walked <= runs ? 'runs' : 'keys';
  }
  if (widened <= SEARCH_IN_RANGE_AT_MOST) return 'keys';
  return (await rangeHoldsAtMost(db, whereFrom(criteria.from), widened)) ? 'range' : 'keys';
}

/**
 * Whether an assignee filter names someone besides the caller: their studies under the caller's
 * filters are few where their own list is their working set. A range of up to
 * SEARCH_IN_RANGE_WIDENED_AT_MOST such studies is tested even where its newest month holds more than
 * the cap: no walk stops there for a text they seldom hold, and the keys read the whole archive's
 * (an admin's one radiologist's MRI holding "ana" over all dates: 3,500 studies tested, where the week
 * keys read every week's "ana", 370-450 ms → 28). A caller's own list is walked newest first, which
 * stops at the cap for a text they often hold (a reporter's ultrasound holding "abdomen": 13 ms walked,
 * 47 with its 4,700 studies tested).
 */
function namesOthers(criteria: Pick<TWorklistCriteria, 'byUserIds' | 'scope'>): boolean {
  return criteria.byUserIds.some((userId) => userId !== criteria.scope.principal.userId);
}

/**
 * Whether a search whose range holds few studies (searchInRange) finds them first by the assignee
 * index alone (its entries hold the facility, status and the other filters), then tests only theirs
 * (searchKeptFirst, worklistWhere): under a facility scope (`facilities`, facilitiesOf), with an
 * assignee filter naming someone besides the caller, whose studies may lie in other facilities.
 * PostgreSQL otherwise read the row of every study of the assignees (or of the facilities) to check
 * the facility, which an index scan checks only after reading its row: a radiologist naming two
 * colleagues who read for other hospitals read 48,000 rows for none (150-340 ms; 14 by the index).
 * Not for a text tested past the count's cap (keylessPlan's), whose read stops at the cap: the
 * index's every entry would be read first.
 */
export function keptFirst(
  criteria: Pick<TWorklistCriteria, 'byUserIds' | 'scope'>,
  facilities: readonly string[] | null,
): boolean {
  return namesOthers(criteria) && facilities !== null;
}
