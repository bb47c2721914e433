import {
  paginate,
  STATUS_GROUPS,
  statusesOfGroup,
  STUDY_STATUSES,
  type TStudyStatus,
  type TWorklistListQuery,
  type TWorklistSortField,
  type TWorklistStatusCounts,
} from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDatabase } from '../../../db/client.ts';
import type { TWindowEdges } from './worklist-count-cache.ts';
import { oneOf } from '../../../db/one-of.ts';
import { facilitiesOf, worklistFilters, worklistWhere, type TWorklistCriteria } from './worklist-criteria.ts';
import { PATIENT_DOCUMENTS_JSON, WORKLIST_ITEM_JSON_COLUMNS } from '../../studies/study.presenter.ts';
import { rollupStatusCountsSql, rollupTotalSql } from './worklist-rollup.ts';
import { hotRows } from './worklist-sql.ts';
import { listPlanOf, planModeOf } from './worklist-plan-mode.ts';
import { collectsArrivalLike } from './worklist-arrival-day-walk.ts';
import { prefixWalkBudget, prefixWalkSql, walkedPageIdsSql } from './worklist-page-walk.ts';
import { countSearchByWeeks, countsSearchByWeeks, walkSearch, walksSearch } from './worklist-search-walk.ts';
import { walkDenseOrganisation } from './worklist-dense-organisation.ts';
import { countKeylessSearch, countsKeylessSearch, walkKeylessSearch } from './worklist-keyless-search.ts';
import {
  countDenseSearch,
  fromFirstArrival,
  walkDenseSearch,
  walksDenseSearch,
} from './worklist-dense-search.ts';
import { keylessPrefixOf } from './worklist-prefix-budget.ts';
import { walkSortedSearch } from './worklist-sorted-search.ts';
import { collectedByGrams } from './worklist-search-text.ts';

/** The column behind each sort_by value (the whitelist is WORKLIST_SORT_FIELDS), as SQL text. */
const SORT_COLUMNS = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  datetime: 'study_datetime',
  patient_name: 'patient_name',
  patient_id: 'patient_identifier',
  modality: 'modality',
  study: 'study_description',
  status: 'status',
  priority_tag: 'priority_tag',
  series_count: 'series_count',
} satisfies Record<TWorklistSortField, string>;

/** How far past a window's edge the count cache's edges are looked for (see windowEdgesSql). */
const EDGE_HORIZON_MS = 60 * 60 * 1000;

/**
 * The window edges the count cache needs next to a count (worklist-count-cache.ts), as two scalar
 * subqueries under the same filters: the first matching created_at at or after `from`, and the first
 * after `to` (at or after when `to` is exclusive), in epoch milliseconds floored. Each is read from
 * the created_at order of an index, stopping at the first match, and looked for within an hour of
 * the edge only: with none there, the hour's end is the edge (nothing matches before it, which is
 * all the cache needs), so a filter that matches little never walks the rest of the archive.
 */
function windowEdgesSql(database: TDatabase, criteria: TWorklistCriteria, statuses: readonly TStudyStatus[]) {
  const firstAt = (where: SQL, edge: Date, after: '>' | '>=') => {
    const horizon = new Date(edge.getTime() + EDGE_HORIZON_MS).toISOString();
    return sql`coalesce((select floor(extract(epoch from min("studies"."created_at")) * 1000) from studies
      where ${where} and "studies"."created_at" ${sql.raw(after)} ${edge.toISOString()}::timestamptz
      and "studies"."created_at" < ${horizon}::timestamptz), ${new Date(horizon).getTime()})::float8`;
  };
  const where = worklistWhere(database.db, criteria, statuses, { from: false, to: false });
  const firstFrom = criteria.from ? firstAt(where, criteria.from, '>=') : sql`null::float8`;
  const nextTo = criteria.to
    ? firstAt(where, criteria.to.at, criteria.to.inclusive ? '>' : '>=')
    : sql`null::float8`;
  return sql`${firstFrom} as first_from, ${nextTo} as next_to`;
}

type TEdgeColumns = { first_from: number | null; next_to: number | null };
const edgesOf = (row: TEdgeColumns): TWindowEdges => ({ firstFrom: row.first_from, nextTo: row.next_to });

export type TWorklistListResult = {
  /** The response body (TWorklistListResponse as JSON text). */
  body: string;
  total: number;
  /** The window edges of `total`, when asked for and the page had a row to carry them. */
  edges: TWindowEdges | null;
};

/**
 * The matches' ids and sort keys, to collect. An assignee filter within a staff member's facilities
 * reads the assignees' index first and checks the facilities after (OFFSET 0 keeps the check out of
 * the scan): PostgreSQL otherwise ANDed a facility index's 100,000 entries with the assignee's 1,900
 * (a reporter's week sorted by modality: 30 ms of the 35).
 */
function matchesOf(database: TDatabase, criteria: TWorklistCriteria, where: SQL, column: string): SQL {
  const key = sql.raw(`"studies"."${column}"`);
  const facilities = facilitiesOf(criteria);
  if (
    criteria.byUserIds.length === 0 ||
    criteria.searchText !== null ||
    facilities === null ||
    facilities.length === 0
  ) {
    return sql`select "studies"."id", ${key} as sort_key from studies where ${where}`;
  }
  const filters = worklistFilters(database.db, criteria, criteria.statuses);
  return sql`select s.id, s.sort_key from (select "studies"."id", ${key} as sort_key, "studies"."facility_id"
      from studies where "studies"."organisation_id" = ${criteria.scope.organisationId}::uuid and ${filters}
      offset 0) s
    where ${oneOf('s.facility_id', facilities, 'uuid')}`;
}

/**
 * Up to this many matches, a page is read by collecting every match (id and sort key) and sorting
 * them: the cost follows the matches. With more, by walking an index in the sort order until the
 * page is full: the cost follows the page, as matches are then common enough to be met soon. The
 * total, exact and read first, decides; the planner's estimate of how rare a filter is does not
 * (a facility without a single URGENT study made it walk all 1,000,000 studies of the organisation).
 */
const COLLECT_AT_MOST = 2_000;

/**
 * One page of the worklist and the total as the response's JSON text. The page (WHERE, ORDER BY,
 * LIMIT on studies) is joined to its facility, assignee and documents and each item is built as JSON
 * by PostgreSQL, so Node neither maps rows nor validates them again (the shape is TWorklistItem's:
 * WORKLIST_ITEM_JSON_COLUMNS in studies/study.presenter.ts, beside presentWorklistItem). Ties (and
 * nulls: first when descending, last when ascending, PostgreSQL's default) are broken by id in the
 * same direction, so pages never overlap.
 *
 * Without a search, one prepared statement (the shapes are few) reads the exact total
 * (`options.total` from the count cache, else the day rollup where it applies, worklist-rollup.ts,
 * else a count over `studies`; `options.edges` adds the window edges the cache keeps with it) and the
 * page in the form that total calls for (COLLECT_AT_MOST); nothing is read for an empty page. With a
 * search, one statement collects the matches and reads the total and the page from them (a search's
 * plan depends on its text; it is not prepared).
 */
export async function listWorklistJson(
  database: TDatabase,
  criteria: TWorklistCriteria,
  query: Pick<TWorklistListQuery, 'limit' | 'offset' | 'sort_by' | 'sort_order'>,
  options: { total?: number | undefined; edges?: boolean } = {},
): Promise<TWorklistListResult> {
  const where = worklistWhere(database.db, criteria, criteria.statuses);
  const searching = criteria.searchText !== null;
  // Filters whose matches are dense in an index are walked whatever the total (worklist-page-walk.ts);
  // such a statement has one sensible plan (ordered scans of the facilities' or the assignee's index
  // for the page; a day rollup, the assignee's for an assignee filter, and partial days for the
  // total): generic. Otherwise the page's form depends on the total and planModeOf decides.
  const column = SORT_COLUMNS[query.sort_by];
  const walked = searching ? null : walkedPageIdsSql(database.db, criteria, query);
  const collects = collectsArrivalLike(criteria, query);
  // A page sorted by another column, past COLLECT_AT_MOST: the sort index's first entries, the page
  // taken if all of its rows are among them, else collected (prefixWalkSql).
  const prefixWalk =
    searching || walked || collects
      ? null
      : prefixWalkSql(database.db, criteria, query, column, prefixWalkBudget(criteria, query, sql`t.total`));
  const plan = listPlanOf(criteria, { walked: walked !== null, prefixWalk: prefixWalk !== null });
  const run = { prepare: !searching, plan };
  const direction = query.sort_order === 'asc' ? 'asc' : 'desc';
  const limits = sql`limit ${query.limit} offset ${query.offset}`;
  // The matches (id and sort key only), collected once; the page is sorted from them.
  const matchesSql = matchesOf(database, criteria, where, column);
  const matchOrder = sql.raw(`order by sort_key ${direction}, id ${direction}`);
  const matches = sql`with matches as materialized (${matchesSql}) `;
  const collectedPage = sql`select studies.* from (select id, sort_key from matches ${matchOrder} ${limits}) p join studies on studies.id = p.id`;
  const itemsSql = (pageSql: SQL, extra: SQL) =>
    // The items in order: the subquery keeps its ORDER BY (a sorted subquery is not flattened, and
    // the outer query neither joins nor sorts).
    sql`select row_to_json(i)::text as item${extra}
      from (select ${WORKLIST_ITEM_JSON_COLUMNS}
        from (${pageSql}) s
        join facilities f on f.id = s.facility_id
        left join users u on u.id = s.last_assigned_user_id
        left join lateral (${PATIENT_DOCUMENTS_JSON}) d on true
        ${sql.raw(`order by s.${column} ${direction}, s.id ${direction}`)}) i`;
  const respond = (items: readonly string[], total: number, edges: TWindowEdges | null, capped = false) => {
    const page = JSON.stringify({ ...paginate(total, query.limit, query.offset), total_capped: capped });
    return { body: `{"items":[${items.join(',')}],${page.slice(1)}`, total, edges };
  };
  const pageOf = (ids: readonly string[]) =>
    itemsSql(sql`select * from studies where studies.id = any(${`{${ids.join(',')}}`}::uuid[])`, sql``);

  const walksByWeeks = searching && walksSearch(criteria, query);
  const searched = [database, criteria, query, column] as const;
  // A text many of a staff member's studies hold, by arrival: their range walked, each text tested
  // (a text without trigram keys too: "ct" is as dense as "brain").
  // An admin's (walksByWeeks) too, before their weeks: worklist-dense-organisation.ts.
  const oldestFirst =
    searching && query.sort_by === 'created_at' && query.sort_order === 'asc'
      ? await fromFirstArrival(database, criteria)
      : criteria;
  const dense = walksByWeeks
    ? await walkDenseOrganisation(database, oldestFirst, query)
    : searching &&
        query.sort_by === 'created_at' &&
        (await walksDenseSearch(database, oldestFirst, criteria.statuses, query.sort_order))
      ? await walkDenseSearch(database, oldestFirst, query)
      : null;
  const keyless = searching && dense === null && countsKeylessSearch(criteria);
  // The same by another column: counted up to the cap, the page from the column's sort index.
  const sorted =
    searching && !keyless && query.sort_by !== 'created_at' ? await walkSortedSearch(...searched) : null;
  if (walksByWeeks || keyless || dense || sorted) {
    // An organisation-wide search by arrival (walksSearch): walked in runs of weeks, counted up to a
    // cap; a text no index knows (countsKeylessSearch), any sort: counted up to the cap, the page
    // walked when the matches are that many (worklist-search-walk.ts); a dense text
    // (worklist-dense-search.ts): walked in the range, counted up to the cap. The page's rows are
    // then read by id.
    const walk =
      dense ??
      sorted ??
      (walksByWeeks
        ? await walkSearch(database, criteria, query)
        : await walkKeylessSearch(...searched, await keylessPrefixOf(...searched)));
    const rows =
      walk.ids.length === 0 ? [] : await hotRows<{ item: string }>(database, pageOf(walk.ids), run);
    return respond(
      rows.map((row) => row.item),
      walk.total,
      null,
      walk.capped,
    );
  }

  if (searching) {
    // The trigram index finds the matches but cannot give them in order, and PostgreSQL estimates
    // them as many (it then walked created_at backwards filtering on search_text: 70–90 ms for a rare
    // full name). The total's row is joined to the page, so a page past the end still carries it
    // (one row, no item) and the matches are not collected twice. A nested loop keeps the sorted
    // page's order (the only plan for a left join on true, the total's one row outside).
    // An identifier its digit grams cover is found by them (collectedByGrams).
    const collected = await collectedByGrams(database.db, criteria);
    const found =
      collected === criteria
        ? matches
        : sql`with matches as materialized (${matchesOf(database, collected, worklistWhere(database.db, collected, criteria.statuses), column)}) `;
    const rows = await hotRows<{ item: string | null; total: number }>(
      database,
      sql`${found}select p.item, t.total from (select count(*)::int as total from matches) t
        left join (${itemsSql(collectedPage, sql``)}) p on true`,
      run,
    );
    return respond(
      rows.flatMap((row) => (row.item === null ? [] : [row.item])),
      rows[0]?.total ?? 0,
      null,
    );
  }

  // One statement: the exact total (given, from the rollup, or counted) and the page in the form
  // that total calls for. PostgreSQL evaluates only the CASE branch taken, so an empty page reads
  // nothing and a small one never walks an index in the hope of meeting its rare matches.
  const known = options.total;
  const totalSql =
    known !== undefined
      ? sql`${known}`
      : (rollupTotalSql(database.db, criteria, criteria.statuses) ??
        sql`(select count(*) from studies where ${where})`);
  const edgesSql =
    known === undefined && options.edges
      ? windowEdgesSql(database, criteria, criteria.statuses)
      : sql`null::float8 as first_from, null::float8 as next_to`;
  const order = sql.raw(`order by studies.${column} ${direction}, studies.id ${direction}`);
  const collected = sql`array(with m as materialized (${matchesSql}) select id from m ${matchOrder} ${limits})`;
  const ids = sql`case
      when t.total = 0 or ${query.offset} >= t.total then '{}'::uuid[]
      ${
        walked
          ? sql`else array(${walked})`
          : collects
            ? // Sorted from every match: OFFSET 0 keeps the subquery from being planned in the sort order.
              sql`else array(select m.id from (${matchesSql} offset 0) m ${matchOrder} ${limits})`
            : prefixWalk
              ? // Walked past COLLECT_AT_MOST if the prefix holds the page, else collected (one copy
                // of the collecting subquery: each is planned).
                sql`else (select case when cardinality(w.ids) >= least(${query.limit}, t.total - ${query.offset}) then w.ids else ${collected} end
        from (select case when t.total > ${sql.raw(String(COLLECT_AT_MOST))} then array(${prefixWalk}) else '{}'::uuid[] end as ids offset 0) w)`
              : sql`when t.total <= ${sql.raw(String(COLLECT_AT_MOST))} then ${collected}
      else array(select "studies"."id" from studies where ${where} ${order} ${limits})`
      }
    end`;
  // The page's ids first, then their rows by primary key: where an index holds every filtered column,
  // the walk reads the ids from it alone (filters checked on the index). An array, not a join: a
  // generic plan does not know the limit and would plan a join for a tenth of the table.
  const rows = await hotRows<{ item: string | null; total: number } & TEdgeColumns>(
    database,
    // t is materialized: inlined, each mention of t.total would count again.
    sql`with t as materialized (select ${totalSql}::int as total, ${edgesSql})
      select i.item, t.total, t.first_from, t.next_to
      from t left join lateral (${itemsSql(sql`select * from studies where studies.id = any(${ids})`, sql``)}) i on true`,
    run,
  );
  const [first] = rows;
  const total = first?.total ?? 0;
  const edges =
    known === undefined && options.edges && first
      ? edgesOf({ first_from: first.first_from, next_to: first.next_to })
      : null;
  return respond(
    rows.flatMap((row) => (row.item === null ? [] : [row.item])),
    total,
    edges,
  );
}

/**
 * Counts per status and per display group under every filter except `statuses` (the tabs show how
 * many items each would list with the other filters as they are). ALL is the sum of the three tabs;
 * DELETED is in no tab and is counted for admins only (0 for everyone else). `options.edges` adds
 * the window edges the count cache keeps with them (one row carries them even when nothing matches).
 */
export async function countWorklistStatuses(
  database: TDatabase,
  criteria: TWorklistCriteria,
  options: { edges?: boolean } = {},
): Promise<{ counts: TWorklistStatusCounts; edges: TWindowEdges | null }> {
  const byWeeks = countsSearchByWeeks(criteria);
  const dense =
    !byWeeks && (await walksDenseSearch(database, criteria, criteria.countedStatuses))
      ? await countDenseSearch(database, criteria)
      : null;
  const keyless = dense === null && countsKeylessSearch(criteria);
  if (byWeeks || keyless || dense) {
    // An organisation-wide search (countsSearchByWeeks), a text no index knows (countsKeylessSearch),
    // or a dense text (worklist-dense-search.ts): counted up to the cap, as the list is.
    const { perStatus, capped, deletedCapped } =
      dense ??
      (byWeeks
        ? await countSearchByWeeks(database, criteria, criteria.countedStatuses)
        : await countKeylessSearch(database, criteria, criteria.countedStatuses));
    const counts = statusCountsOf((status) => perStatus.get(status) ?? 0, { capped, deletedCapped });
    return { counts, edges: null };
  }
  const where = worklistWhere(database.db, criteria, criteria.countedStatuses);
  const rolled = rollupStatusCountsSql(database.db, criteria, criteria.countedStatuses);
  const grouped =
    rolled ?? sql`select status, count(*)::int as count from studies where ${where} group by status`;
  const rows = await hotRows<{ status: TStudyStatus | null; count: number | null } & Partial<TEdgeColumns>>(
    database,
    options.edges
      ? sql`select c.status, c.count, e.first_from, e.next_to
          from (select ${windowEdgesSql(database, criteria, criteria.countedStatuses)}) e
          left join (${grouped}) c on true`
      : grouped,
    // From the rollup, the counts read its rows and at most two partial days whatever the parameters:
    // one sensible plan, planned once (a radiologist's counts spent 0.4-0.7 ms planning each time).
    { prepare: criteria.searchText === null, plan: rolled ? 'generic' : planModeOf(criteria) },
  );
  const counted = new Map<TStudyStatus, number>();
  for (const row of rows) if (row.status !== null) counted.set(row.status, row.count ?? 0);
  const first = rows[0];
  const edges =
    options.edges && first
      ? edgesOf({ first_from: first.first_from ?? null, next_to: first.next_to ?? null })
      : null;
  const exact = { capped: false, deletedCapped: false };
  return { counts: statusCountsOf((status) => counted.get(status) ?? 0, exact), edges };
}

/** The tabs' counts from each status's: ALL is the sum of the three tabs (DELETED is in none). */
function statusCountsOf(
  countOf: (status: TStudyStatus) => number,
  { capped, deletedCapped }: { capped: boolean; deletedCapped: boolean },
): TWorklistStatusCounts {
  const perStatus = Object.fromEntries(STUDY_STATUSES.map((status) => [status, countOf(status)])) as Record<
    TStudyStatus,
    number
  >;
  const sumOf = (statuses: readonly TStudyStatus[]) =>
    statuses.reduce((sum, status) => sum + perStatus[status], 0);
  const groups = Object.fromEntries(
    STATUS_GROUPS.map((group) => [group, sumOf(statusesOfGroup(group))]),
  ) as TWorklistStatusCounts['groups'];
  return { statuses: perStatus, groups, capped, deleted_capped: deletedCapped };
}
