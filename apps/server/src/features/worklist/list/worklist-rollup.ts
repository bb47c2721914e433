// Exact worklist counts from the day rollups (migration 0014: study_facility_day_counts,
// study_organisation_day_counts, plus study_count_deltas, which triggers append to in the
// transaction of every study change and worklist-rollup-compaction.ts folds in). A
// range's whole UTC days are summed from the rollup (a few rows a day, whatever the archive holds);
// the partial days at its edges are counted from `studies` under the same filters. One statement,
// one snapshot: the sum and the edges agree with each other and with count(*).
import type { TStudyStatus } from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { oneOf } from '../../../db/one-of.ts';
import { worklistWhere, type TWorklistCriteria } from './worklist-criteria.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC date (YYYY-MM-DD) of an instant on a day boundary. */
const dateOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * Whether the rollup can count under `criteria`: it knows facility, day, status, modality group and
 * priority only. A search, an assignee filter (a reporter's own list) or a referring physician's
 * scope (the studies they referred) are counted from `studies`, whose indexes serve them.
 */
export function rollupCounts(criteria: TWorklistCriteria): boolean {
  return (
    criteria.searchText === null &&
    criteria.byUserIds.length === 0 &&
    criteria.scope.principal.role !== 'REFERRING_PHYSICIAN'
  );
}

type TSplit = {
  /** Whole days: day ≥ first (null: from the beginning) and day < end (null: to the end). */
  first: string | null;
  end: string | null;
  /** The partial days before the first and after the last whole day, when they hold any instant. */
  edges: Pick<TWorklistCriteria, 'from' | 'to'>[];
};

/** The range cut at UTC midnights, or null when it holds no whole day (count it from `studies`). */
export function splitAtDays({ from, to }: Pick<TWorklistCriteria, 'from' | 'to'>): TSplit | null {
  const firstMs = from ? Math.ceil(from.getTime() / DAY_MS) * DAY_MS : null;
  const endMs = to ? Math.floor(to.at.getTime() / DAY_MS) * DAY_MS : null;
  if (firstMs !== null && endMs !== null && firstMs >= endMs) return null;
  const edges: TSplit['edges'] = [];
  if (from && firstMs !== null && from.getTime() < firstMs) {
    edges.push({ from, to: { at: new Date(firstMs), inclusive: false } });
  }
  if (to && endMs !== null && (to.inclusive || to.at.getTime() > endMs)) {
    edges.push({ from: new Date(endMs), to });
  }
  return {
    first: firstMs === null ? null : dateOf(firstMs),
    end: endMs === null ? null : dateOf(endMs),
    edges,
  };
}

/** The rollup rows (status, n) under the criteria's scope and filters, over the whole days. */
function rollupRows(criteria: TWorklistCriteria, statuses: readonly TStudyStatus[], split: TSplit): SQL {
  const { scope } = criteria;
  // Staff see their facilities; a facility_ids filter is within them (checked), so it is the set.
  const facilityIds =
    criteria.facilityIds.length > 0 ? criteria.facilityIds : scope.allFacilities ? null : scope.facilityIds;
  const conditions: SQL[] = [
    facilityIds === null
      ? sql`r.organisation_id = ${scope.organisationId}::uuid`
      : sql`r.organisation_id = ${scope.organisationId}::uuid and ${oneOf('r.facility_id', facilityIds, 'uuid')}`,
    oneOf('r.status', statuses, 'study_status'),
  ];
  if (criteria.modalities.length > 0) {
    conditions.push(oneOf('r.modality_group', criteria.modalities, 'modality_group'));
  }
  if (criteria.priorityTags.length > 0) {
    conditions.push(oneOf('r.priority_tag', criteria.priorityTags, 'priority_tag'));
  }
  if (split.first !== null) conditions.push(sql`r.day >= ${split.first}::date`);
  if (split.end !== null) conditions.push(sql`r.day < ${split.end}::date`);
  const where = sql.join(conditions, sql.raw(' and '));
  const table = sql.raw(facilityIds === null ? 'study_organisation_day_counts' : 'study_facility_day_counts');
  // The deltas not yet folded in (worklist-rollup-compaction.ts) have every key column of both.
  return sql`select r.status, r.study_count::bigint as n from ${table} r where ${where}
    union all select r.status, r.study_count::bigint as n from study_count_deltas r where ${where}`;
}

/**
 * (status, n) rows whose sums per status are the counts under `criteria` over `statuses`, or null
 * when the rollup does not apply (rollupCounts) or the range holds no whole day.
 */
function countedRows(
  db: TDbOrTx,
  criteria: TWorklistCriteria,
  statuses: readonly TStudyStatus[],
): SQL | null {
  if (!rollupCounts(criteria)) return null;
  const split = splitAtDays(criteria);
  if (!split) return null;
  const parts = [rollupRows(criteria, statuses, split)];
  for (const edge of split.edges) {
    const where = worklistWhere(db, { ...criteria, ...edge, searchWeeks: null }, statuses);
    parts.push(
      sql`select "studies"."status", count(*) as n from studies where ${where} group by "studies"."status"`,
    );
  }
  return sql.join(
    parts.map((part) => sql`(${part})`),
    sql.raw(' union all '),
  );
}

/** `select status, count` per status from the rollup, or null (count from `studies`). */
export function rollupStatusCountsSql(
  db: TDbOrTx,
  criteria: TWorklistCriteria,
  statuses: readonly TStudyStatus[],
): SQL | null {
  const rows = countedRows(db, criteria, statuses);
  return rows && sql`select c.status, sum(c.n)::int as count from (${rows}) c group by c.status`;
}

/** The total as a scalar subquery from the rollup, or null (count from `studies`). */
export function rollupTotalSql(
  db: TDbOrTx,
  criteria: TWorklistCriteria,
  statuses: readonly TStudyStatus[],
): SQL | null {
  const rows = countedRows(db, criteria, statuses);
  return rows && sql`(select coalesce(sum(c.n), 0)::int from (${rows}) c)`;
}
