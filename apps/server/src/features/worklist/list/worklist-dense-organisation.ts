// An admin's search over the whole organisation by arrival (walksSearch) whose text the range's
// newest studies hold densely ("A0009" over its week, "brain", "chest", the digits of recent patient
// ids): the organisation's studies read in arrival order from its index, the filters and the text
// tested on each, up to the count's cap. The search walk by weeks finds a week's candidates by their
// keys, but must read all of them to give the newest in order: "A0009" over a week read its 31,600
// candidates to sort 1,001 (33 ms); walked, 1,001 rows (6-8 ms). The walk reads at most
// DENSE_ONE_IN times the count's limit rows (WALKED_ROWS_AT_MOST at most), whatever the filters
// keep: a text (or filter) rarer after the probed rows than in them spends that budget (3.5 ms of
// PostgreSQL for 8,008 rows) and is walked by weeks after all (worklist-search-walk.ts).
import { cappedCountLimit, WORKLIST_SEARCH_COUNT_CAP } from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDatabase } from '../../../db/client.ts';
import { dateRangeOn, worklistWhere, type TWorklistCriteria } from './worklist-criteria.ts';
import { DENSE_ONE_IN, walkedDays } from './worklist-dense-search.ts';
import { holdsSearchText } from './worklist-search-text.ts';
import { walksSearch, type TSearchPage, type TSearchWalk } from './worklist-search-walk.ts';
import { hotRows, orderBy } from './worklist-sql.ts';

/** How many of the walked days' first studies the probe reads (filtered or not). */
const PROBE_ROWS = 128;

/**
 * The walk reads at most this many rows (about 7 ms). A page so deep that its count's limit is more
 * is walked by weeks: "brain" at offset 100,000 read 31 days of studies (340,000 rows) before it was
 * (264 → 474 ms).
 */
const WALKED_ROWS_AT_MOST = 2 * DENSE_ONE_IN * (WORKLIST_SEARCH_COUNT_CAP + 1);

/** The statements hold the text as a parameter only: planned once per connection. */
const run = { prepare: true, plan: 'generic' } as const;

/**
 * The first `limit` studies of the organisation within `criteria`'s range in the page's order
 * (`columns` of each), as `studies`.
 */
function walkedStudies(criteria: TWorklistCriteria, page: TSearchPage, limit: number, columns: SQL): SQL {
  const within = [
    sql`"studies"."organisation_id" = ${criteria.scope.organisationId}::uuid`,
    ...dateRangeOn('"studies"."created_at"', criteria),
  ];
  return sql`(select ${columns} from studies where ${sql.join(within, sql.raw(' and '))}
    ${orderBy(page, 'created_at')} limit ${limit}::int) studies`;
}

/**
 * The first `limit` studies of the organisation within `criteria`'s range in the page's order, each
 * with `hit`: whether it is a match (the filters and the text, tested on the row), in that order.
 */
function walkedRows(database: TDatabase, criteria: TWorklistCriteria, page: TSearchPage, limit: number): SQL {
  const untested = { ...criteria, searchText: null, searchWeeks: null, searchInRange: false };
  const hit = sql`${worklistWhere(database.db, untested, criteria.statuses)} and ${holdsSearchText(criteria.searchText ?? '')}`;
  return sql`select "studies"."id", (${hit}) as hit from ${walkedStudies(criteria, page, limit, sql`*`)}`;
}

/**
 * Whether an organisation-wide search is walked: by arrival (walksSearch), by a caller whose visible
 * studies are the organisation's facilities (not a referrer's referrals), with one match or more in
 * DENSE_ONE_IN of the walked days' first PROBE_ROWS studies (or fewer studies than that).
 */
async function walksDenseOrganisation(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TSearchPage,
): Promise<boolean> {
  if (!walksSearch(criteria, page) || criteria.scope.principal.role === 'REFERRING_PHYSICIAN') return false;
  const [probe] = await hotRows<{ n: number; hits: number }>(
    database,
    sql`select count(*)::int as n, (count(*) filter (where p.hit))::int as hits
      from (${walkedRows(database, criteria, page, PROBE_ROWS)}) p`,
    run,
  );
  return probe !== undefined && (probe.n < PROBE_ROWS || probe.hits * DENSE_ONE_IN >= probe.n);
}

/**
 * The page's ids and the capped total of an organisation-wide search whose text is dense
 * (walksDenseOrganisation): the walked days (walkedDays) read in the page's order until the count's
 * limit (cappedCountLimit) of matches, DENSE_ONE_IN times that many rows (WALKED_ROWS_AT_MOST at
 * most), or the walked days' end. Null, for the walk by weeks to read, when the text is not dense,
 * the page lies past what the walk may read, the budget is spent first, or the walked days end short
 * of the cap and the range goes on.
 */
export async function walkDenseOrganisation(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TSearchPage,
): Promise<TSearchWalk | null> {
  const countLimit = cappedCountLimit(WORKLIST_SEARCH_COUNT_CAP, page);
  const budget = Math.min(DENSE_ONE_IN * countLimit, WALKED_ROWS_AT_MOST);
  const days = walkedDays(criteria, page.sort_order);
  if (countLimit > budget || !days || !(await walksDenseOrganisation(database, days.part, page))) return null;
  // The matches, in the page's order (a sorted subquery's order is kept), up to the limit: the walk
  // stops at the cap's match, or after the budget's rows. Only the page's ids leave.
  const [row] = await hotRows<{ n: number; ids: string[] | null }>(
    database,
    sql`select cardinality(m.ids)::int as n, m.ids[${page.offset + 1}::int:${page.offset + page.limit}::int]::text[] as ids
      from (select array(select r."id" from (${walkedRows(database, days.part, page, budget)}) r
        where r.hit limit ${countLimit}::int) as ids offset 0) m`,
    run,
  );
  const counted = row?.n ?? 0;
  const capped = counted >= countLimit;
  // Short of the cap: the walk read the whole walked days, or ran out of budget before their end
  // (their first rows counted again, from the index alone).
  if (!capped && (!days.whole || (await readsBudget(database, days.part, page, budget)))) return null;
  return { ids: row?.ids ?? [], total: capped ? countLimit - 1 : counted, capped };
}

/** Whether the range holds `budget` studies or more (so a walk of that many did not read it whole). */
async function readsBudget(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TSearchPage,
  budget: number,
): Promise<boolean> {
  const [row] = await hotRows<{ n: number }>(
    database,
    sql`select count(*)::int as n from ${walkedStudies(criteria, page, budget, sql`1`)}`,
    run,
  );
  return (row?.n ?? 0) >= budget;
}
