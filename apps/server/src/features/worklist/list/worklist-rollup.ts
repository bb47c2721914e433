// Exact worklist counts from the day rollups (migration 0014: study_facility_day_counts,
// study_organisation_day_counts, plus study_count_deltas, which triggers append to in the
// transaction of every change; migration 0029: study_assignee_day_counts and its own
// study_assignee_count_deltas, for an assignee filter; worklist-rollup-compaction.ts folds them in).
// A range's whole UTC days are summed from a rollup (a few rows a day, whatever the archive holds);
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
 * Whether the rollups can count under `criteria`: they know facility, assignee, day, status, modality
 * group and priority only. A search or a referring physician's scope (the studies they referred) is
 * counted from `studies`, whose indexes serve them.
 */
export function rollupCounts(criteria: TWorklistCriteria): boolean {
  return criteria.searchText === null && criteria.scope.principal.role !== 'REFERRING_PHYSICIAN';
}

/** An arrival range counted from `studies` and added to (sign 1) or taken from (-1) the rollup's sum. */
type TEdge = {
  /** created_at > at (strict) or ≥ at. */
  lower: { at: number; strict: boolean };
  /** created_at ≤ at (inclusive) or < at. */
  upper: { at: number; inclusive: boolean };
  sign: 1 | -1;
};

type TSplit = {
  /** Whole days: day ≥ first (null: from the beginning) and day < end (null: to the end). */
  first: string | null;
  end: string | null;
  edges: TEdge[];
};

/** The studies an edge is expected to read: its span up to `now` (none arrive later). */
const span = (from: number, to: number, now: number) => Math.max(0, Math.min(to, now) - from);

/**
 * The range cut at UTC midnights, or null when counting it from `studies` alone reads least (a range
 * within one day, mostly). A partial day at an edge is either counted (the part in range, added) or
 * summed whole from the rollup less the part out of range, whichever spans less time up to `now`:
 * today's part up to now is most of today, the part after now holds no study (a list up to now, the
 * default, then counts nothing from `studies`). Either way the sum is exact: `now` only picks.
 */
export function splitAtDays(
  { from, to }: Pick<TWorklistCriteria, 'from' | 'to'>,
  now = Date.now(),
): TSplit | null {
  const fromMs = from?.getTime() ?? null;
  const fromDay = fromMs === null ? null : Math.floor(fromMs / DAY_MS) * DAY_MS;
  const toDay = to ? Math.floor(to.at.getTime() / DAY_MS) * DAY_MS : null;
  if (fromMs !== null && fromDay !== null && to && toDay !== null && fromDay >= toDay) {
    // Within one day: counted, or the day less its parts before and after the range.
    const at = to.at.getTime();
    const outside = span(fromDay, fromMs, now) + span(at, fromDay + DAY_MS, now);
    if (outside >= span(fromMs, at, now) || (at === toDay && !to.inclusive)) return null;
    const edges: TEdge[] = [
      { lower: { at: fromDay, strict: false }, upper: { at: fromMs, inclusive: false }, sign: -1 },
      { lower: { at, strict: to.inclusive }, upper: { at: fromDay + DAY_MS, inclusive: false }, sign: -1 },
    ];
    return { first: dateOf(fromDay), end: dateOf(fromDay + DAY_MS), edges };
  }
  const edges: TEdge[] = [];
  let first: number | null = null;
  if (fromMs !== null && fromDay !== null) {
    first = fromDay;
    if (fromMs > fromDay) {
      const next = fromDay + DAY_MS;
      if (span(fromMs, next, now) <= span(fromDay, fromMs, now)) {
        first = next;
        edges.push({ lower: { at: fromMs, strict: false }, upper: { at: next, inclusive: false }, sign: 1 });
      } else {
        edges.push({
          lower: { at: fromDay, strict: false },
          upper: { at: fromMs, inclusive: false },
          sign: -1,
        });
      }
    }
  }
  let end: number | null = null;
  if (to && toDay !== null) {
    const at = to.at.getTime();
    end = toDay;
    if (at > toDay || to.inclusive) {
      const next = toDay + DAY_MS;
      if (span(toDay, at, now) <= span(at, next, now)) {
        edges.push({ lower: { at: toDay, strict: false }, upper: { at, inclusive: to.inclusive }, sign: 1 });
      } else {
        end = next;
        edges.push({ lower: { at, strict: to.inclusive }, upper: { at: next, inclusive: false }, sign: -1 });
      }
    }
  }
  return {
    first: first === null ? null : dateOf(first),
    end: end === null ? null : dateOf(end),
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
  if (criteria.byUserIds.length > 0) {
    // A reporter's own list (effectiveByUserIds), a by_user_ids filter: the assignees' rows, within
    // the facilities above (the table carries them whatever the caller sees).
    conditions.push(oneOf('r.last_assigned_user_id', criteria.byUserIds, 'uuid'));
  }
  const where = sql.join(conditions, sql.raw(' and '));
  const [table, deltas] =
    criteria.byUserIds.length > 0
      ? ['study_assignee_day_counts', 'study_assignee_count_deltas']
      : [
          facilityIds === null ? 'study_organisation_day_counts' : 'study_facility_day_counts',
          'study_count_deltas',
        ];
  // The deltas not yet folded in (worklist-rollup-compaction.ts) have every key column of their rollup.
  return sql`select r.status, r.study_count::bigint as n from ${sql.raw(table)} r where ${where}
    union all select r.status, r.study_count::bigint as n from ${sql.raw(deltas)} r where ${where}`;
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
  for (const { lower, upper, sign } of split.edges) {
    const where = worklistWhere(db, { ...criteria, from: null, to: null, searchWeeks: null }, statuses);
    const after = new Date(lower.at).toISOString();
    const before = new Date(upper.at).toISOString();
    const range = sql`"studies"."created_at" ${sql.raw(lower.strict ? '>' : '>=')} ${after}::timestamptz
      and "studies"."created_at" ${sql.raw(upper.inclusive ? '<=' : '<')} ${before}::timestamptz`;
    parts.push(
      sql`select "studies"."status", ${sql.raw(sign === 1 ? '' : '-')}count(*) as n from studies
        where ${where} and ${range} group by "studies"."status"`,
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
