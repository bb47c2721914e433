// The review hand-off of DESIGN.md §7, reached through PUT /worklist/{id} (ZReviewTransition):
// a transcriptionist or a reporter submits a draft (DRAFTED → IN_REVIEW) and the assigned radiologist
// is notified; the radiologist (or an admin) returns it (IN_REVIEW → DRAFTED) with a comment and the
// submitter is notified. Finalizing from IN_REVIEW is POST /worklist/report/pdf-generate.
import type { TReviewTransition } from '@ris/domain';
import { and, desc, eq } from 'drizzle-orm';
import type { TScope } from '../../access/scope.ts';
import type { TTx } from '../../db/client.ts';
import type { studies } from '../../db/schema/index.ts';
import { reports, studyStatusHistory, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { applyTransition } from '../studies/commands/study-status.ts';
import { insertNotifications, type TCreatedNotification } from '../notifications/create-notifications.ts';
import { authorizeReport, mayReadReport } from './report.policy.ts';

type TStudy = typeof studies.$inferSelect;

export type TReviewOutcome = {
  notifications: TCreatedNotification[];
  /** The report whose status changed (DRAFTED on an implicit save), for report.status.changed. */
  reportId: string | null;
};

const describe = (study: TStudy) => [study.patientName, study.studyDescription].filter(Boolean).join(' — ');

/**
 * Applies a review transition to a study the caller has loaded and locked (loadStudyForChange).
 * 403 when the caller may not make it, 409 when the study is not in the state it starts from.
 */
export async function applyReviewTransition(
  tx: TTx,
  input: { scope: TScope; study: TStudy; transition: TReviewTransition },
): Promise<TReviewOutcome> {
  const { scope, study } = input;
  if (!mayReadReport(scope.principal, study)) throw AppError.notFound('Worklist item');
  return input.transition.status === 'IN_REVIEW'
    ? submitForReview(tx, scope, study, input.transition.comment)
    : returnToDraft(tx, scope, study, input.transition.comment);
}

async function submitForReview(
  tx: TTx,
  scope: TScope,
  study: TStudy,
  comment: string | undefined,
): Promise<TReviewOutcome> {
  const userId = scope.principal.userId;
  authorizeReport(scope.principal, 'submit', study);
  const [report] = await tx.select().from(reports).where(eq(reports.studyId, study.id)).for('update');
  if (!report || (report.contentText === '' && !report.content.includes('<img'))) {
    throw new AppError('CONFLICT', 'Write the report before submitting it for review');
  }
  let status = study.status;
  let reportId: string | null = null;
  // An assigned study whose report was never saved as draft is saved on the way (two history entries).
  if (status === 'ASSIGNED') {
    const saved = await applyTransition(tx, { study, event: 'save-report', byUserId: userId });
    if (!saved.ok) throw new AppError('CONFLICT', saved.reason);
    status = saved.to;
  }
  if (report.status !== 'DRAFTED' && report.status !== 'COMPLETED') {
    await tx.update(reports).set({ status: 'DRAFTED' }).where(eq(reports.id, report.id));
    reportId = report.id;
  }
  const moved = await applyTransition(tx, {
    study: { id: study.id, status },
    event: 'submit',
    byUserId: userId,
    comment,
  });
  if (!moved.ok) throw new AppError('CONFLICT', moved.reason);
  // The assigned radiologist reviews; when the reporter is the assignee, the organisation's admins do.
  const reviewers =
    study.lastAssignedUserId && study.lastAssignedUserId !== userId
      ? [study.lastAssignedUserId]
      : await organisationAdmins(tx, scope.organisationId, userId);
  const notifications = await insertNotifications(tx, {
    organisationId: scope.organisationId,
    userIds: reviewers,
    type: 'report-review-requested',
    title: 'A report was submitted for your review',
    body: [describe(study), comment].filter(Boolean).join(' — ') || null,
    data: {
      worklist_id: study.id,
      facility_fk: study.facilityId,
      report_id: report.id,
      comment: comment ?? null,
    },
  });
  return { notifications, reportId };
}

async function returnToDraft(
  tx: TTx,
  scope: TScope,
  study: TStudy,
  comment: string | undefined,
): Promise<TReviewOutcome> {
  const userId = scope.principal.userId;
  authorizeReport(scope.principal, 'return', study);
  const submitter = await lastSubmitter(tx, study.id);
  const moved = await applyTransition(tx, { study, event: 'return-to-draft', byUserId: userId, comment });
  if (!moved.ok) throw new AppError('CONFLICT', moved.reason);
  const [report] = await tx.select({ id: reports.id }).from(reports).where(eq(reports.studyId, study.id));
  const notifications = await insertNotifications(tx, {
    organisationId: scope.organisationId,
    userIds: submitter && submitter !== userId ? [submitter] : [],
    type: 'report-returned',
    title: 'A report you submitted was returned to draft',
    body: [describe(study), comment].filter(Boolean).join(' — ') || null,
    data: {
      worklist_id: study.id,
      facility_fk: study.facilityId,
      report_id: report?.id ?? null,
      comment: comment ?? null,
    },
  });
  return { notifications, reportId: null };
}

/** Who moved the study to IN_REVIEW most recently. */
async function lastSubmitter(tx: TTx, studyId: string): Promise<string | null> {
  const [row] = await tx
    .select({ by: studyStatusHistory.changedBy })
    .from(studyStatusHistory)
    .where(and(eq(studyStatusHistory.studyId, studyId), eq(studyStatusHistory.toStatus, 'IN_REVIEW')))
    .orderBy(desc(studyStatusHistory.createdAt), desc(studyStatusHistory.id))
    .limit(1);
  return row?.by ?? null;
}

async function organisationAdmins(tx: TTx, organisationId: string, exceptUserId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(eq(users.organisationId, organisationId), eq(users.role, 'ADMIN'), eq(users.status, 'ACTIVE')),
    );
  return rows.map((row) => row.id).filter((id) => id !== exceptUserId);
}
