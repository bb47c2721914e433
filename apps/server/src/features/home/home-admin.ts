// The home sections of an ADMIN (every facility of the organisation) and a FACILITY_ADMIN (their
// facility): counts over the open studies (the partial index studies_open_organisation_created_idx),
// turnaround over the finals of the last 7 days (reports_organisation_finalized_idx, which holds the
// reports' copies of their study's arrival, priority and facility: no study is joined), breaches.
import {
  HOME_LIST_LIMIT,
  turnaroundTargetMinutes,
  type THomePriorityCount,
  type THomeStudyList,
  type THomeTurnaround,
  type THomeTurnaroundRow,
  type THomeWaitingCount,
  type THomeWorkload,
  type TPriorityTag,
} from '@ris/domain';
import { sql } from 'drizzle-orm';
import { facilityScopeOn, visibleStudies } from '../../access/studies-scope.ts';
import { oneOf } from '../../db/one-of.ts';
import { queryRows } from '../../db/rows.ts';
import { presentStudy, readList, STUDY_COLUMNS, STUDY_JOINS, type TStudyRow } from './home-items.ts';
import type { THomeContext } from './home-personal.ts';
import { dueAtSql, overdueSql } from './turnaround-targets.ts';

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** Open studies within the caller's scope, said so the partial open-studies index serves it. */
function openStudies(context: THomeContext) {
  const { scope } = context;
  // Admins' scope is the organisation; naming its facilities too lets the facility indexes serve.
  const facilities =
    scope.facilityIds.length > 0 ? scope.facilityIds : ['00000000-0000-0000-0000-000000000000'];
  return sql`"studies"."organisation_id" = ${scope.organisationId}::uuid
    and "studies"."status" not in ('FINAL', 'DELETED') and ${visibleStudies(scope)}
    and ${oneOf('"studies"."facility_id"', facilities, 'uuid')}`;
}

/** Open studies per facility and status (pairs with none are left out), by facility name. */
export async function waitingCounts(context: THomeContext): Promise<THomeWaitingCount[]> {
  const rows = await queryRows<Omit<THomeWaitingCount, 'count'> & { count: number | string }>(
    context.db,
    sql`select "studies"."facility_id", f."name" as facility_name, "studies"."status", count(*) as count
      from studies join facilities f on f.id = "studies"."facility_id"
      where ${openStudies(context)}
      group by "studies"."facility_id", f."name", "studies"."status"
      order by f."name", "studies"."facility_id", "studies"."status"`,
  );
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

/** TO_READ studies with nobody assigned, per priority tag (untagged as null). */
export async function unassignedByPriority(context: THomeContext): Promise<THomePriorityCount[]> {
  const rows = await queryRows<{ priority_tag: TPriorityTag | null; count: number | string }>(
    context.db,
    sql`select "studies"."priority_tag", count(*) as count from studies
      where ${openStudies(context)} and "studies"."status" = 'TO_READ'
        and "studies"."last_assigned_user_id" is null
      group by "studies"."priority_tag" order by "studies"."priority_tag" nulls last`,
  );
  return rows.map((row) => ({ priority_tag: row.priority_tag, count: Number(row.count) }));
}

/**
 * Finals (reports with finalized_at: a FINAL study, which is never deleted or reopened) in the
 * caller's scope, from the reports' copies of their study's facility.
 */
function finalsInScope(context: THomeContext, from: Date) {
  const { scope } = context;
  const facilities = facilityScopeOn('r.facility_id', scope);
  return sql`r.organisation_id = ${scope.organisationId}::uuid and r.finalized_at is not null
    and r.finalized_at >= ${at(from)} and r.finalized_at <= ${at(context.now)}
    ${facilities ? sql`and ${facilities}` : sql``}`;
}

/** Per radiologist: ASSIGNED, DRAFTED + IN_REVIEW, and finals since today's midnight, in scope. */
export async function workload(context: THomeContext): Promise<THomeWorkload[]> {
  const rows = await queryRows<{
    user_id: string;
    display_name: string;
    assigned: number | string;
    in_progress: number | string;
    finals_today: number | string;
  }>(
    context.db,
    sql`with open_work as (
        select "studies"."last_assigned_user_id" as user_id,
          count(*) filter (where "studies"."status" = 'ASSIGNED') as assigned,
          count(*) filter (where "studies"."status" in ('DRAFTED', 'IN_REVIEW')) as in_progress
        from studies where ${openStudies(context)} and "studies"."last_assigned_user_id" is not null
        group by 1),
      finals as (
        select r.finalized_by as user_id, count(*) as finals_today from reports r
        where ${finalsInScope(context, context.todayStart)} and r.finalized_by is not null
        group by 1)
      select u.id as user_id, u.display_name, coalesce(o.assigned, 0) as assigned,
        coalesce(o.in_progress, 0) as in_progress, coalesce(fi.finals_today, 0) as finals_today
      from open_work o full join finals fi on fi.user_id = o.user_id
      join users u on u.id = coalesce(o.user_id, fi.user_id)
      where u.role = 'RADIOLOGIST'
      order by u.display_name, u.id`,
  );
  return rows.map((row) => ({
    user_id: row.user_id,
    display_name: row.display_name,
    assigned: Number(row.assigned),
    in_progress: Number(row.in_progress),
    finals_today: Number(row.finals_today),
  }));
}

type TTurnaroundSqlRow = {
  period: 'today' | 'last_7_days';
  priority_tag: TPriorityTag | null;
  count: number | string;
  median: number | string;
  p90: number | string;
};

/**
 * Median and 90th percentile minutes from arrival (created_at) to FINAL (reports.finalized_at) of the
 * studies finalised today and in the last 7 days, per priority tag, in one pass over the week's finals.
 */
export async function turnaround(context: THomeContext): Promise<THomeTurnaround> {
  const weekStart = new Date(context.now.getTime() - 7 * 24 * 60 * 60_000);
  const rows = await queryRows<TTurnaroundSqlRow>(
    context.db,
    sql`with finals as (
        select r.priority_tag, extract(epoch from r.finalized_at - r.study_created_at) / 60 as minutes,
          r.finalized_at >= ${at(context.todayStart)} as today
        from reports r where ${finalsInScope(context, weekStart)})
      select 'last_7_days' as period, priority_tag, count(*) as count,
        percentile_cont(0.5) within group (order by minutes) as median,
        percentile_cont(0.9) within group (order by minutes) as p90
      from finals group by priority_tag
      union all
      select 'today', priority_tag, count(*), percentile_cont(0.5) within group (order by minutes),
        percentile_cont(0.9) within group (order by minutes)
      from finals where today group by priority_tag
      order by 1, 2 nulls last`,
  );
  const present = (row: TTurnaroundSqlRow): THomeTurnaroundRow => ({
    priority_tag: row.priority_tag,
    count: Number(row.count),
    median_minutes: Math.max(0, Number(row.median)),
    p90_minutes: Math.max(0, Number(row.p90)),
    target_minutes: turnaroundTargetMinutes(row.priority_tag, context.targets),
  });
  return {
    today: rows.filter((row) => row.period === 'today').map(present),
    last_7_days: rows.filter((row) => row.period === 'last_7_days').map(present),
  };
}

/** Overdue open studies in scope, most overdue (earliest due) first. */
export function breaches(context: THomeContext): Promise<THomeStudyList> {
  return readList<TStudyRow, THomeStudyList['items'][number]>(
    context.db,
    sql`select ${STUDY_COLUMNS} from studies ${STUDY_JOINS}
      where ${openStudies(context)} and ${overdueSql(context.targets, context.now)}
      order by ${dueAtSql(context.targets)}, "studies"."id" limit ${HOME_LIST_LIMIT}`,
    (row) => presentStudy(row, context.targets, context.now),
  );
}
