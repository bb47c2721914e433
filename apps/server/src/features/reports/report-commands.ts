// The report use cases (one transaction each): create, write, save as draft, finalize, addendum.
// Routes call these inside db.transaction and publish the returned facts after commit.
import type { TReportStatus } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import type { TScope } from '../../access/scope.ts';
import type { TTx } from '../../db/client.ts';
import { reports, reportSignatures, reportVersions } from '../../db/schema/index.ts';
import { reportHtmlToText, sanitizeReportHtml } from '../../html/sanitize-report-html.ts';
import { AppError } from '../../http/app-error.ts';
import { applyTransition } from '../studies/commands/study-status.ts';
import { assertReportWritable, writeReportContent, type TWrittenReportContent } from './report-content.ts';
import { authorizeReport, mayReadReport } from './report.policy.ts';
import {
  findVisibleStudyReport,
  requireReadableReport,
  type TReportRow,
  type TVisibleReport,
} from './report.queries.ts';

/** What a command changed, for publishing after commit. */
export type TReportOutcome = {
  report: TReportRow;
  organisationId: string;
  /** The study's status changed (→ worklist-status-update). */
  studyChanged: boolean;
  /** The report's status changed (→ report.status.changed). */
  statusChanged: boolean;
  written: TWrittenReportContent | null;
};

async function reload(tx: TTx, reportId: string): Promise<TReportRow> {
  const [report] = await tx.select().from(reports).where(eq(reports.id, reportId));
  if (!report) throw AppError.notFound('Report');
  return report;
}

async function requireEditable(tx: TTx, scope: TScope, reportId: string): Promise<TVisibleReport> {
  const row = await requireReadableReport(tx, scope, reportId, { lockStudy: true });
  authorizeReport(scope.principal, 'edit', row.study);
  assertReportWritable(row.report.status, row.study.status);
  return row;
}

/**
 * POST /worklist/report: the study's report. One per study: when it exists (someone else opened the
 * study first), that one is returned (created: false). The study row is locked first, so two
 * concurrent creates serialise and the second finds the first's report.
 */
export async function createReport(
  tx: TTx,
  input: { scope: TScope; studyId: string; html: string },
): Promise<{ report: TReportRow; created: boolean }> {
  const { scope } = input;
  const found = await findVisibleStudyReport(tx, scope, input.studyId, { lockStudy: true });
  if (!found || !mayReadReport(scope.principal, found.study)) throw AppError.notFound('Worklist item');
  // A fresh statement after the lock: sees a report committed while this transaction waited.
  const [existing] = await tx.select().from(reports).where(eq(reports.studyId, found.study.id));
  if (existing) return { report: existing, created: false };
  authorizeReport(scope.principal, 'edit', found.study);
  assertReportWritable('CREATED', found.study.status);
  // No report id yet, so no images: a new report has no key images of its own.
  const content = sanitizeReportHtml(input.html);
  const userId = scope.principal.userId;
  const [report] = await tx
    .insert(reports)
    .values({
      studyId: found.study.id,
      organisationId: found.study.organisationId,
      content,
      contentText: reportHtmlToText(content),
      createdBy: userId,
      updatedBy: userId,
    })
    .returning();
  if (!report) throw new Error('report insert returned nothing');
  await tx.insert(reportVersions).values({ reportId: report.id, version: 1, content, createdBy: userId });
  return { report, created: true };
}

/** PUT /worklist/report/{id}: new content on the version the writer started from. */
export async function updateReport(
  tx: TTx,
  input: { scope: TScope; reportId: string; html: string; version: number },
): Promise<TReportOutcome> {
  const { scope } = input;
  // The study row is locked like every other command's: a reassignment or a collaboration toggle
  // committed meanwhile is seen before deciding who may write.
  const row = await requireReadableReport(tx, scope, input.reportId, { lockStudy: true });
  authorizeReport(scope.principal, 'edit', row.study);
  const written = await writeReportContent(tx, {
    reportId: row.report.id,
    html: input.html,
    userId: scope.principal.userId,
    expectedVersion: input.version,
    source: 'rest',
  });
  const report = written.changed ? await reload(tx, row.report.id) : row.report;
  return { report, organisationId: scope.organisationId, studyChanged: false, statusChanged: false, written };
}

/** Report DRAFTED; the study ASSIGNED → DRAFTED (DRAFTED and IN_REVIEW studies keep their status). */
async function markDrafted(tx: TTx, scope: TScope, row: TVisibleReport) {
  let studyChanged = false;
  if (row.study.status === 'ASSIGNED') {
    const moved = await applyTransition(tx, {
      study: row.study,
      event: 'save-report',
      byUserId: scope.principal.userId,
    });
    if (!moved.ok) throw new AppError('CONFLICT', moved.reason);
    studyChanged = true;
  }
  const statusChanged = row.report.status !== 'DRAFTED';
  if (statusChanged) {
    await tx
      .update(reports)
      .set({ status: 'DRAFTED' satisfies TReportStatus })
      .where(eq(reports.id, row.report.id));
  }
  return { studyChanged, statusChanged };
}

/**
 * POST /worklist/report/save, and pdf-generate with status DRAFTED: save as draft (html, when given,
 * becomes the content first, checked against `version` when that is given).
 */
export async function saveDraft(
  tx: TTx,
  input: { scope: TScope; reportId: string; html?: string | undefined; version?: number | undefined },
): Promise<TReportOutcome> {
  const { scope } = input;
  const row = await requireEditable(tx, scope, input.reportId);
  const written =
    input.html === undefined
      ? null
      : await writeReportContent(tx, {
          reportId: row.report.id,
          html: input.html,
          userId: scope.principal.userId,
          expectedVersion: input.version,
          source: 'rest',
        });
  const changes = await markDrafted(tx, scope, row);
  return {
    report: await reload(tx, row.report.id),
    organisationId: scope.organisationId,
    written,
    ...changes,
  };
}

/**
 * POST /worklist/report/pdf-generate with status FINAL: the assigned radiologist or an admin signs
 * the report. `html` (when given) becomes the final content; `version` (when given) must be current.
 * Report COMPLETED with finalized_by/at and the finalizer's signature; study FINAL with its history.
 */
export async function finalizeReport(
  tx: TTx,
  input: { scope: TScope; reportId: string; html?: string | undefined; version?: number | undefined },
): Promise<TReportOutcome> {
  const { scope } = input;
  const userId = scope.principal.userId;
  const row = await requireReadableReport(tx, scope, input.reportId, { lockStudy: true });
  authorizeReport(scope.principal, 'finalize', row.study);
  assertReportWritable(row.report.status, row.study.status);
  // Content (or only the version check, when no content is sent) goes through the one write path.
  const written = await writeReportContent(tx, {
    reportId: row.report.id,
    html: input.html ?? row.report.content,
    userId,
    expectedVersion: input.version,
    source: 'rest',
  });
  if (reportHtmlToText(written.content) === '' && !written.content.includes('<img')) {
    throw new AppError('UNPROCESSABLE', 'html_content: an empty report cannot be finalized', {
      field: 'html_content',
    });
  }
  const moved = await applyTransition(tx, { study: row.study, event: 'finalize', byUserId: userId });
  if (!moved.ok) throw new AppError('CONFLICT', moved.reason);
  const now = new Date();
  await tx
    .update(reports)
    .set({ status: 'COMPLETED', finalizedBy: userId, finalizedAt: now, updatedAt: now })
    .where(eq(reports.id, row.report.id));
  await tx
    .insert(reportSignatures)
    .values({ reportId: row.report.id, userId, signedAt: now })
    .onConflictDoUpdate({
      target: [reportSignatures.reportId, reportSignatures.userId],
      set: { signedAt: now },
    });
  return {
    report: await reload(tx, row.report.id),
    organisationId: scope.organisationId,
    studyChanged: true,
    statusChanged: true,
    written,
  };
}

/**
 * POST /worklist/report/{id}/addendum: a FINAL report changes only by addenda, each a new version
 * (kind ADDENDUM) below the unchanged original; the report finder's text includes them.
 */
export async function addAddendum(
  tx: TTx,
  input: { scope: TScope; reportId: string; html: string },
): Promise<TReportRow> {
  const { scope } = input;
  const row = await requireReadableReport(tx, scope, input.reportId, { lockStudy: true });
  authorizeReport(scope.principal, 'addendum', row.study);
  if (row.report.status !== 'COMPLETED') {
    throw new AppError('CONFLICT', 'An addendum can be added only to a final report; edit the draft instead');
  }
  const content = sanitizeReportHtml(input.html, { reportId: row.report.id });
  const text = reportHtmlToText(content);
  if (text === '' && !content.includes('<img')) {
    throw new AppError('VALIDATION_FAILED', 'content: the addendum is empty', { field: 'content' });
  }
  const [locked] = await tx
    .select({ version: reports.version, contentText: reports.contentText })
    .from(reports)
    .where(and(eq(reports.id, row.report.id), eq(reports.status, 'COMPLETED')))
    .for('update');
  if (!locked) throw AppError.notFound('Report');
  const version = locked.version + 1;
  const userId = scope.principal.userId;
  await tx.insert(reportVersions).values({
    reportId: row.report.id,
    version,
    kind: 'ADDENDUM',
    content,
    createdBy: userId,
  });
  await tx
    .update(reports)
    .set({
      version,
      contentText: [locked.contentText, text].filter(Boolean).join('\n\n'),
      updatedBy: userId,
      updatedAt: new Date(),
    })
    .where(eq(reports.id, row.report.id));
  return reload(tx, row.report.id);
}
