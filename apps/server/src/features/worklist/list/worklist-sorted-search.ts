// A search for a text many studies hold, sorted by a column header other than arrival (patient name,
// study date, patient id…). Its matches were every one collected and sorted: an admin's "MRN0" over
// all dates sorted by study date sorted 980,000 of them (750 ms), "brain" by patient name 245,000
// (500 ms); a radiologist's month of "brain" by name 4,300 (44 ms). Such a text is counted up to the
// cap as the list sorted by arrival counts it, and its page is the first entries of the column's sort
// index that hold it (prefixWalkSql): a text most studies hold is met every few entries there too.
import { WORKLIST_SEARCH_COUNT_CAP, type TWorklistListQuery } from '@ris/domain';
import { sql } from 'drizzle-orm';
import type { TDatabase } from '../../../db/client.ts';
import type { TWorklistCriteria } from './worklist-criteria.ts';
import { hasSearchKeys } from './worklist-search-text.ts';
import { countDenseSearch, holdsDensely } from './worklist-dense-search.ts';
import { PREFIX_SEARCH_ENTRIES, prefixWalkSql } from './worklist-page-walk.ts';
import { countSearchByWeeks, countsSearchByWeeks, type TSearchWalk } from './worklist-search-walk.ts';
import { hotRows } from './worklist-sql.ts';

type TPage = Pick<TWorklistListQuery, 'limit' | 'offset' | 'sort_by' | 'sort_order'>;

/**
 * The page and the capped total of a search sorted by `column` (not arrival) whose text has trigram
 * keys and is dense among the range's newest studies (holdsDensely), over more studies than are read
 * whole (searchInRange) nor its modality filter made rare (searchModalities), on a page before the cap: counted up to the cap by weeks (an admin's
 * organisation) or by walking the caller's range (worklist-dense-search.ts), then, past the cap, the
 * first matches in the column's sort index. Null where any step says otherwise (fewer matches than
 * the cap, no prefix walk, or a prefix that does not hold the page): the matches are collected and
 * sorted, as before.
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
    !hasSearchKeys(searchText) ||
    criteria.searchInRange ||
    criteria.searchOpen ||
    criteria.searchModalities !== null ||
    page.sort_by === 'created_at' ||
    page.offset + page.limit >= WORKLIST_SEARCH_COUNT_CAP ||
    !(await holdsDensely(database, criteria, statuses, 'desc'))
  ) {
    return null;
  }
  const counted = countsSearchByWeeks(criteria)
    ? await countSearchByWeeks(database, criteria, statuses)
    : await countDenseSearch(database, criteria, statuses);
  if (!counted?.capped) return null;
  const prefix = prefixWalkSql(database.db, criteria, page, column, sql`${PREFIX_SEARCH_ENTRIES}::bigint`);
  if (!prefix) return null;
  const [row] = await hotRows<{ ids: string[] | null }>(
    database,
    sql`select array(${prefix})::text[] as ids`,
    { prepare: false },
  );
  const ids = row?.ids ?? [];
  // More matches than the page's end: a prefix that holds fewer rows than the page did not hold it.
  if (ids.length < page.limit) return null;
  return { ids, total: WORKLIST_SEARCH_COUNT_CAP, capped: true };
}
