// A staff member's search (or an admin's under a facility filter) sorted by a column header (not
// arrival) whose page the column's sort index does not hold: oldest first from a range's start (the
// index begins with every study before it), or deep into a text's matches. Their range's matches
// were every one collected by walking it (collectWalkedRange: each of its rows read from the heap
// and tested, 1.5-2 µs), then sorted: a radiologist's month of "brain" by study date, oldest first,
// tested 16,800 rows for 4,250 matches (30 ms of the request's 45-52). The facilities' index holds
// every sort key (studies_facility_created_idx): the range's ids and keys are read from it alone
// (0.3 µs an entry), sorted (0.2-0.9 µs), and the rows tested in that order up to the page's end: 94
// of them for that first page (9 ms).
import { WORKLIST_SEARCH_COUNT_CAP, type TWorklistListQuery } from '@ris/domain';
import { sql } from 'drizzle-orm';
import type { TDatabase } from '../../../db/client.ts';
import { facilitiesOf, worklistWhere, type TWorklistCriteria } from './worklist-criteria.ts';
import { walksRangeWhole } from './worklist-dense-search.ts';
import { holdsSearchText } from './worklist-search-text.ts';
import { rollupTotalSql } from './worklist-rollup.ts';
import { hotRows, orderBy } from './worklist-sql.ts';

type TPage = Pick<TWorklistListQuery, 'limit' | 'offset' | 'sort_by' | 'sort_order'>;

/**
 * A range sorted whole from the facilities' index holds at most this many studies (counted from the
 * rollups): its sort stays within work_mem (4 MB: 16,800 ids and study dates took 1.8).
 */
const SORTED_RANGE_AT_MOST = 30_000;
/**
 * A row tested in the column's order is read from its own heap page (5-8 µs): it costs as much as
 * this many of the range's entries read and sorted, beside each tested in arrival order. The
 * radiologist's "brain" at offset 475 tested 1,900 rows in the column's order (22-25 ms warm), its
 * 16,800 rows in arrival order took 30.
 */
const TESTED_ROW_ENTRIES = 8;

/**
 * The range's matches at the text's density are at least this many times the count's cap: counting
 * up to the cap (which the sorted page's total needs) then reads at most two thirds of the range. A
 * radiologist's week of "brain", 1,050 matches of 3,900 studies, was counted over nearly all of them,
 * then sorted (21 → 27 ms, where collecting it read them once).
 */
const RANGE_MATCHES_OF_CAP = 1.5;

/**
 * Whether a range of `rangeStudies` is sorted whole for a text `density` of its studies hold: where
 * the rows tested for the page's `end` (end / density), each TESTED_ROW_ENTRIES entries, cost no more
 * than the range's own, its matches are RANGE_MATCHES_OF_CAP times the cap, and the range is at most
 * SORTED_RANGE_AT_MOST.
 */
export function sortsRange(density: number, end: number, rangeStudies: number): boolean {
  if (density <= 0 || rangeStudies > SORTED_RANGE_AT_MOST) return false;
  return (
    (end / density) * TESTED_ROW_ENTRIES <= rangeStudies &&
    density * rangeStudies >= RANGE_MATCHES_OF_CAP * WORKLIST_SEARCH_COUNT_CAP
  );
}

/**
 * Whether the caller's range under `criteria` is sorted whole from their facilities' index for the
 * page (sortsRange), the text `density` among its newest studies (probeDensity): a facility index
 * serves them (not an admin's whole organisation, nor a referrer, whose visibility is checked on the
 * row), and their range's studies, every text, counted exactly from the rollups (a few hundred rows:
 * an estimate from the organisation's arrivals took a radiologist's 3,000 of an archive whose older
 * days belong to other facilities for 800).
 */
export async function sortsRangeOf(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TPage,
  density: number,
): Promise<boolean> {
  const end = page.offset + page.limit;
  // Not counted where no range up to SORTED_RANGE_AT_MOST would be sorted for the page.
  if (!sortsRange(density, end, SORTED_RANGE_AT_MOST)) return false;
  // A range the arrival walk covers whole (its rollup rows few: all dates' summed for 5 facilities
  // cost a radiologist's "lumbar spine" at offset 500 5-15 ms, for a range too large to sort).
  if (
    !walksRangeWhole(criteria) ||
    facilitiesOf(criteria) === null ||
    criteria.scope.principal.role === 'REFERRING_PHYSICIAN'
  ) {
    return false;
  }
  const total = rollupTotalSql(database.db, { ...criteria, searchText: null }, criteria.statuses);
  if (!total) return false;
  // The rollup's rows and at most two partial days, whatever the parameters: planned once, as the
  // list's counts from it are.
  const [row] = await hotRows<{ n: number }>(database, sql`select ${total} as n`, {
    prepare: true,
    plan: 'generic',
  });
  return sortsRange(density, end, row?.n ?? 0);
}

/**
 * The page's ids of a search under `criteria` sorted by `column`, read in the column's order from
 * the caller's facilities' index (every filter but the text checked on it), each row's text tested
 * by its primary key until the page's end (sortsRangeOf says where). Exact for any range: the total
 * is the caller's, counted up to the cap.
 */
export async function walkSortedRange(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TPage,
  column: string,
): Promise<string[]> {
  const { searchText } = criteria;
  if (searchText === null) return [];
  const unsearched = { ...criteria, searchText: null, searchWeeks: null, searchFacilities: null };
  const where = worklistWhere(database.db, unsearched, criteria.statuses);
  // OFFSET 0 in the lateral test: a parameterized probe of the primary key per row, in the sorted
  // order, stopping at the page's end (flattened, PostgreSQL may join every row of the range).
  const [row] = await hotRows<{ ids: string[] | null }>(
    database,
    sql`select array(select c."id" from (select "studies"."id", "studies"."${sql.raw(column)}" from studies
        where ${where} ${orderBy(page, column)} offset 0) c
      cross join lateral (select 1 from studies where "studies"."id" = c."id" and ${holdsSearchText(searchText)} offset 0) m
      ${orderBy(page, column, 'c')} limit ${page.limit} offset ${page.offset})::text[] as ids`,
    // Planned once per connection: whatever the range, the facilities' index read whole and sorted
    // (the join keeps the page's limit out of the subquery, so no sort index is walked in order).
    { prepare: true, plan: 'generic' },
  );
  return row?.ids ?? [];
}
