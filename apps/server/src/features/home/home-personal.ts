// The home sections of one person's own work: a radiologist's (or reporter's) queue, drafts, returned
// reports and figures; a transcriptionist's typing queue and submissions; a referring physician's
// recent finals. Every query is scoped by visibleStudies and bounded (HOME_LIST_LIMIT rows).
import {
  HOME_LIST_LIMIT,
  PRIORITY_URGENCY_ORDER,
  type THomeReportList,
  type THomeStudyList,
  type TTurnaroundTargets,
} from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import { visibleStudies } from '../../access/studies-scope.ts';
import type { TScope } from '../../access/scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';
import {
  presentReport,
  presentStudy,
  readList,
  reportColumns,
  STUDY_COLUMNS,
  STUDY_JOINS,
  type TReportRow,
  type TStudyRow,
} from './home-items.ts';

export type THomeContext = {
  db: TDbOrTx;
  scope: TScope;
  targets: TTurnaroundTargets;
  now: Date;
  /** Midnight of today in the caller's time zone. */
  todayStart: Date;
};

/** Urgency rank of the row's priority tag (PRIORITY_URGENCY_ORDER; untagged last). */
const URGENCY_RANK = sql`coalesce(array_position(${`{${PRIORITY_URGENCY_ORDER.join(',')}}`}::text[],
  "studies"."priority_tag"::text), ${PRIORITY_URGENCY_ORDER.length})`;

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

function studyList(context: THomeContext, query: SQL): Promise<THomeStudyList> {
  return readList<TStudyRow, THomeStudyList['items'][number]>(context.db, query, (row) =>
    presentStudy(row, context.targets, context.now),
  );
}

function reportList(context: THomeContext, query: SQL): Promise<THomeReportList> {
  return readList<TReportRow, THomeReportList['items'][number]>(context.db, query, (row) =>
    presentReport(row, context.targets, context.now),
  );
}

/** Studies assigned to me, not FINAL: most urgent priority first, then oldest. */
export function myQueue(context: THomeContext): Promise<THomeStudyList> {
  const me = context.scope.principal.userId;
  return studyList(
    context,
    sql`select ${STUDY_COLUMNS} from studies ${STUDY_JOINS}
      where "studies"."last_assigned_user_id" = ${me}::uuid
        and "studies"."status" not in ('FINAL', 'DELETED') and ${visibleStudies(context.scope)}
      order by ${URGENCY_RANK}, "studies"."created_at", "studies"."id" limit ${HOME_LIST_LIMIT}`,
  );
}

/** Reports I am drafting: DRAFTED studies assigned to me, oldest change first. */
export function myDrafts(context: THomeContext): Promise<THomeReportList> {
  const me = context.scope.principal.userId;
  return reportList(
    context,
    sql`select ${reportColumns(sql`null::text`)} from studies ${STUDY_JOINS}
      join reports r on r.study_id = "studies"."id"
      where "studies"."last_assigned_user_id" = ${me}::uuid and "studies"."status" = 'DRAFTED'
        and ${visibleStudies(context.scope)}
      order by r."updated_at", "studies"."id" limit ${HOME_LIST_LIMIT}`,
  );
}

/**
 * Reports returned to me: DRAFTED studies assigned to me whose latest status change was a return
 * from review (IN_REVIEW → DRAFTED) by someone else, with its comment; newest return first.
 */
export function returnedToMe(context: THomeContext): Promise<THomeReportList> {
  const me = context.scope.principal.userId;
  return reportList(
    context,
    sql`select ${reportColumns(sql`h."comment"`)} from studies ${STUDY_JOINS}
      join reports r on r.study_id = "studies"."id"
      join lateral (select from_status, changed_by, "comment", created_at from study_status_history
        where study_id = "studies"."id" order by created_at desc, id desc limit 1) h on true
      where "studies"."last_assigned_user_id" = ${me}::uuid and "studies"."status" = 'DRAFTED'
        and ${visibleStudies(context.scope)}
        and h.from_status = 'IN_REVIEW' and h.changed_by is distinct from ${me}::uuid
      order by h.created_at desc, "studies"."id" limit ${HOME_LIST_LIMIT}`,
  );
}

/** My finals today and the median minutes created_at → FINAL of my finals of the last 7 days. */
export async function myFigures(
  context: THomeContext,
): Promise<{ finalsToday: number; medianWeekMinutes: number | null }> {
  const me = context.scope.principal.userId;
  const weekStart = new Date(context.now.getTime() - 7 * 24 * 60 * 60_000);
  const [row] = await queryRows<{ finals_today: number | string; median: number | string | null }>(
    context.db,
    sql`select count(*) filter (where r.finalized_at >= ${at(context.todayStart)}) as finals_today,
        percentile_cont(0.5) within group (
          order by extract(epoch from r.finalized_at - "studies"."created_at") / 60) as median
      from reports r join studies on "studies"."id" = r.study_id
      where r.finalized_by = ${me}::uuid and r.finalized_at is not null
        and r.finalized_at >= ${at(weekStart)} and r.finalized_at <= ${at(context.now)}
        and "studies"."status" = 'FINAL' and ${visibleStudies(context.scope)}`,
  );
  return {
    finalsToday: Number(row?.finals_today ?? 0),
    medianWeekMinutes: row?.median === null || row?.median === undefined ? null : Number(row.median),
  };
}

/**
 * A transcriptionist's typing queue: studies of my facilities open for typing (collaboration on, a
 * radiologist assigned, report not submitted: ASSIGNED or DRAFTED), oldest first.
 */
export function typingQueue(context: THomeContext): Promise<THomeStudyList> {
  return studyList(
    context,
    sql`select ${STUDY_COLUMNS} from studies ${STUDY_JOINS}
      where "studies"."status" in ('ASSIGNED', 'DRAFTED') and "studies"."collaboration_enabled"
        and ${visibleStudies(context.scope)}
      order by "studies"."created_at", "studies"."id" limit ${HOME_LIST_LIMIT}`,
  );
}

/** Reports I submitted for review (the latest IN_REVIEW entry is mine) still IN_REVIEW, newest first. */
export function submittedForReview(context: THomeContext): Promise<THomeReportList> {
  const me = context.scope.principal.userId;
  return reportList(
    context,
    sql`select ${reportColumns(sql`h."comment"`)} from studies ${STUDY_JOINS}
      join reports r on r.study_id = "studies"."id"
      join lateral (select changed_by, "comment", created_at from study_status_history
        where study_id = "studies"."id" and to_status = 'IN_REVIEW'
        order by created_at desc, id desc limit 1) h on true
      where "studies"."status" = 'IN_REVIEW' and ${visibleStudies(context.scope)}
        and h.changed_by = ${me}::uuid
      order by h.created_at desc, "studies"."id" limit ${HOME_LIST_LIMIT}`,
  );
}

/** A referring physician's patients' final reports (visibleStudies: the studies they referred), newest first. */
export function recentFinals(context: THomeContext): Promise<THomeReportList> {
  return reportList(
    context,
    sql`select ${reportColumns(sql`null::text`)} from studies ${STUDY_JOINS}
      join reports r on r.study_id = "studies"."id"
      where "studies"."status" = 'FINAL' and r.finalized_at is not null
        and ${visibleStudies(context.scope)}
      order by r.finalized_at desc, "studies"."id" limit ${HOME_LIST_LIMIT}`,
  );
}
