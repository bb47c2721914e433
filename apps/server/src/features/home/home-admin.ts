// The home sections of an ADMIN (every facility of the organisation) and a FACILITY_ADMIN (their
// facility), each read from a partial index holding only its rows: waiting counts over the open
// studies (studies_open_organisation_facility_status_idx), unassigned over the unassigned TO_READ ones
// (studies_unassigned_organisation_priority_idx), the workload over the assigned open ones
// (studies_open_assigned_organisation_user_idx); turnaround over the finals of the last 7 days
// (reports_organisation_priority_finalized_idx, which holds the reports' copies of their study's
// arrival, priority and facility: no study is joined); breaches (home-breaches.ts).
import {
  PRIORITY_TAGS,
  turnaroundTargetMinutes,
  type THomePriorityCount,
  type THomeSummary,
  type THomeTurnaround,
  type THomeTurnaroundRow,
  type THomeWaitingCount,
  type THomeWorkload,
  type TPriorityTag,
} from '@ris/domain';
import { sql } from 'drizzle-orm';
import { facilityScopeOn, visibleStudies } from '../../access/studies-scope.ts';
import { queryRows } from '../../db/rows.ts';
import { breachItems, notYetDueCount } from './home-breaches.ts';
import type { THomeContext } from './home-personal.ts';

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * Open studies within the caller's scope, said so the partial open-studies index serves it: an
 * admin's is the organisation alone (not its facilities listed, which every row would be checked
 * against), a facility admin's their facilities.
 */
function openStudies(context: THomeContext) {
  return sql`"studies"."status" not in ('FINAL', 'DELETED') and ${visibleStudies(context.scope)}`;
}

/** Open studies per facility and status (pairs with none are left out), by facility name. */
export async function waitingCounts(context: THomeContext): Promise<THomeWaitingCount[]> {
  const rows = await queryRows<Omit<THomeWaitingCount, 'count'> & { count: number | string }>(
    context.db,
    sql`select w.facility_id, f."name" as facility_name, w.status, w.count
      from (select "studies"."facility_id", "studies"."status", count(*) as count from studies
        where ${openStudies(context)} group by 1, 2) w
      join facilities f on f.id = w.facility_id
      order by f."name", w.facility_id, w.status`,
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
  priority_tag: TPriorityTag | null;
  count: number | string;
  median: number | string | null;
  p90: number | string | null;
  today_count: number | string;
  today_median: number | string | null;
  today_p90: number | string | null;
};

/**
 * Median and 90th percentile minutes from arrival (the report's copy, study_created_at) to FINAL
 * (finalized_at) of the studies finalised in the last 7 days and today, per priority tag: one scan a
 * tag of reports_organisation_priority_finalized_idx (no sort into groups), today's figures from the
 * same rows by a filter. Minutes are float8 (date_part), as percentile_cont reads them.
 */
export async function turnaround(context: THomeContext): Promise<THomeTurnaround> {
  const weekStart = new Date(context.now.getTime() - 7 * 24 * 60 * 60_000);
  const minutes = sql`date_part('epoch', r.finalized_at - r.study_created_at) / 60`;
  const today = sql`r.finalized_at >= ${at(context.todayStart)}`;
  const perTag = [...PRIORITY_TAGS, null].map(
    (tag: TPriorityTag | null) =>
      sql`(select ${tag}::priority_tag as priority_tag, count(*) as count,
          percentile_cont(array[0.5, 0.9]) within group (order by ${minutes}) as week,
          count(*) filter (where ${today}) as today_count,
          percentile_cont(array[0.5, 0.9]) within group (order by ${minutes}) filter (where ${today}) as today
        from reports r where ${finalsInScope(context, weekStart)}
          and ${tag === null ? sql`r.priority_tag is null` : sql`r.priority_tag = ${tag}::priority_tag`})`,
  );
  const rows = await queryRows<TTurnaroundSqlRow>(
    context.db,
    sql`select priority_tag, count, week[1] as median, week[2] as p90, today_count,
        today[1] as today_median, today[2] as today_p90
      from (${sql.join(perTag, sql` union all `)}) per_tag
      where count > 0 order by priority_tag nulls last`,
  );
  const present = (
    priorityTag: TPriorityTag | null,
    count: number | string,
    median: number | string | null,
    p90: number | string | null,
  ): THomeTurnaroundRow => ({
    priority_tag: priorityTag,
    count: Number(count),
    median_minutes: Math.max(0, Number(median)),
    p90_minutes: Math.max(0, Number(p90)),
    target_minutes: turnaroundTargetMinutes(priorityTag, context.targets),
  });
  return {
    today: rows
      .filter((row) => Number(row.today_count) > 0)
      .map((row) => present(row.priority_tag, row.today_count, row.today_median, row.today_p90)),
    last_7_days: rows.map((row) => present(row.priority_tag, row.count, row.median, row.p90)),
  };
}

type TAdminSections = Required<
  Pick<THomeSummary, 'waiting' | 'unassigned_by_priority' | 'workload' | 'turnaround' | 'breaches'>
>;

/**
 * The sections of an ADMIN and a FACILITY_ADMIN, read side by side. The breaches' total is the open
 * studies counted for the waiting counts less those not due yet (home-breaches.ts).
 */
export async function adminSections(context: THomeContext): Promise<TAdminSections> {
  const [waiting, unassigned, load, figures, overdue, notYetDue] = await Promise.all([
    waitingCounts(context),
    unassignedByPriority(context),
    workload(context),
    turnaround(context),
    breachItems(context),
    notYetDueCount(context, openStudies(context)),
  ]);
  const open = waiting.reduce((sum, row) => sum + row.count, 0);
  return {
    waiting,
    unassigned_by_priority: unassigned,
    workload: load,
    turnaround: figures,
    breaches: { items: overdue, total: Math.max(overdue.length, open - notYetDue) },
  };
}
