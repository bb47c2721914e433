// The whole organisation's range of arrival sorted by study date or last update (worklist-page-walk.ts
// walks it): whether such a page is walked at all from the column's sort index, and the walk of
// each day of arrival when it is not.
import type { TWorklistListQuery } from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { facilitiesOf, worklistWhere, type TWorklistCriteria } from './worklist-criteria.ts';
import { orderBy } from './worklist-sql.ts';

type TPage = Pick<TWorklistListQuery, 'limit' | 'offset' | 'sort_by' | 'sort_order'>;
const DAY_MS = 86_400_000;

/**
 * Whether a page sorted by study date or last update is not walked from the first entries of the
 * column's sort index. A study is mostly performed shortly before it arrives, and mostly last updated
 * within days of it, so walking either from the newest meets an arrival range that ends now (or is
 * open) at once. Walked from the oldest into a range with a start, or from the newest into a range
 * that ended a day or more ago, the walk reads every study outside the range first: PostgreSQL,
 * taking the range's studies as spread evenly over study dates, chose that walk for a radiologist's
 * week oldest first (150-200 ms for 3,800 matches that sort in 4 ms). Such a page is collected and
 * sorted whatever the total, or for an admin walked a day of arrival at a time
 * (arrivalDayWalkSql). The clock only picks the form (both give the same page), as splitAtDays' does.
 */
export function collectsArrivalLike(
  criteria: TWorklistCriteria,
  page: Pick<TPage, 'sort_by' | 'sort_order'>,
) {
  if (page.sort_by !== 'datetime' && page.sort_by !== 'updated_at') return false;
  if (page.sort_order === 'asc') return criteria.from !== null;
  return criteria.to !== null && criteria.to.at.getTime() < Date.now() - DAY_MS;
}

/** An arrival range of at most this many days is walked a day at a time (arrivalDayWalkSql). */
const ARRIVAL_DAY_WALK_MAX_DAYS = 62;

/**
 * A page of the whole organisation's range of arrival sorted by study date or last update: each UTC
 * day of the range read in that order from the day's part of
 * studies_organisation_arrival_day_{study_datetime,updated_at}_idx (migrations 0037, 0040) up to
 * offset + limit matches, the days' rows merged and sorted. Every filter is
 * checked on the index (the range's edges on created_at, the day only partitions), so a day reads
 * about a page's worth of entries where matches are common: an admin's month oldest first read 31
 * days × 25 entries, where the study date sort index read from its start met first every study that
 * arrived before the month, and collecting the month read 330,000 rows (150 ms). Not for a priority
 * or assignee filter (each day would read most of its entries for a few matches: their own indexes
 * collect them), staff (their facilities' index holds the study date: collected from it alone), a
 * referrer, a search (but a keyless one past the count's cap, each row's text `tested`:
 * walkKeylessSearch), or a range with both ends longer than ARRIVAL_DAY_WALK_MAX_DAYS. A range open
 * at an end (newest first into a range that ended days ago, oldest first from a start) is walked from
 * or to the organisation's first or last day of arrival: an admin's three statuses before a month ago
 * were 622,000 studies collected and sorted by last update (300 ms), where 60 days read 50 entries
 * each (3.4 ms). A day costs about 0.05 ms: an archive of years costs tens of ms, a small part of
 * collecting it.
 */
export function arrivalDayWalkSql(
  db: TDbOrTx,
  criteria: TWorklistCriteria,
  page: TPage,
  options: { tested: boolean } = { tested: false },
): SQL | null {
  const { from, to } = criteria;
  if (
    (from !== null && to !== null && to.at.getTime() - from.getTime() > ARRIVAL_DAY_WALK_MAX_DAYS * DAY_MS) ||
    facilitiesOf(criteria) !== null ||
    criteria.scope.principal.role === 'REFERRING_PHYSICIAN' ||
    (criteria.searchText !== null && !options.tested) ||
    criteria.priorityTags.length > 0 ||
    criteria.byUserIds.length > 0
  ) {
    return null;
  }
  // A keyless text past the count's cap: each row's text tested, not its keys looked up.
  const tested = { ...criteria, searchInRange: criteria.searchInRange || options.tested };
  const column = page.sort_by === 'datetime' ? 'study_datetime' : 'updated_at';
  const order = (table: string) => orderBy(page, column, table);
  // A range open at an end ends at the organisation's first or last arrival (an index probe).
  const edgeDay = (at: Date | null, edge: 'min' | 'max') =>
    at === null
      ? sql`(select ris_arrival_day(${sql.raw(edge)}("created_at")) from studies where "organisation_id" = ${criteria.scope.organisationId}::uuid)`
      : sql`ris_arrival_day(${at.toISOString()}::timestamptz)`;
  return sql`select w."id" from generate_series(${edgeDay(from, 'min')}, ${edgeDay(to?.at ?? null, 'max')}) d(day)
    cross join lateral (select "studies"."id", "studies"."${sql.raw(column)}" from studies
      where ris_arrival_day("studies"."created_at") = d.day and ${worklistWhere(db, tested, criteria.statuses)}
      ${order('"studies"')} limit ${page.offset + page.limit}) w
    ${order('w')} limit ${page.limit} offset ${page.offset}`;
}
