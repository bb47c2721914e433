// The one way report content is written, by REST (PUT /worklist/report/{id}, finalize) and by the
// collaboration server's persistence alike: sanitise, compare, bump the version, keep the version,
// and keep the Yjs state consistent with the HTML.
import { MAX_REPORT_CONTENT_LENGTH, type TStudyStatus } from '@ris/domain';
import { and, desc, eq } from 'drizzle-orm';
import type { TTx } from '../../db/client.ts';
import { facilities, reports, reportVersions, studies, users } from '../../db/schema/index.ts';
import type { DomainEvents } from '../../events/domain-events.ts';
import { reportHtmlToText, sanitizeReportHtml } from '../../html/sanitize-report-html.ts';
import { AppError } from '../../http/app-error.ts';
import { facilityTimeZoneSql } from '../facilities/facility-time-zone.ts';

/** Study statuses in which a report's content may change (DESIGN.md §7). */
export const REPORT_WRITABLE_STUDY_STATUSES: readonly TStudyStatus[] = ['ASSIGNED', 'DRAFTED', 'IN_REVIEW'];

export type TWriteReportContentInput = {
  reportId: string;
  /** Report HTML as received; it is sanitised here. */
  html: string;
  /** Who wrote it (report_versions.created_by, reports.updated_by); null for the system. */
  userId: string | null;
  /** The version the writer started from; a different current version answers 409 naming who changed it. */
  expectedVersion?: number | undefined;
  /** 'rest' clears ydoc_state (the next collaborative load rebuilds from the HTML); 'collaboration' stores ydocState. */
  source: 'rest' | 'collaboration';
  /** The Yjs document state to store with a collaboration write (ignored for 'rest'). */
  ydocState?: Uint8Array | null | undefined;
  /**
   * Collaboration only: the report_versions row of this version, when it is the current one and was
   * written by `userId`, is moved to the new version (content, created_at) instead of a new row being
   * added, so that continuous collaborative typing keeps one row per editor and period, not one per
   * store. The report's version still increases, so REST writers holding the old one get a 409.
   */
  coalesceVersion?: number | undefined;
};

export type TWrittenReportContent = {
  reportId: string;
  studyId: string;
  organisationId: string;
  /** The report's version after the write (unchanged when `changed` is false). */
  version: number;
  /** The stored (sanitised) HTML. */
  content: string;
  /** False when the sanitised HTML equalled the stored one: no version, no report_versions row. */
  changed: boolean;
  source: 'rest' | 'collaboration';
};

/**
 * Writes report content inside the caller's transaction (one transaction per command; call it from
 * `db.transaction`). The report row is locked (FOR UPDATE) until the transaction ends.
 * - The HTML is sanitised (sanitizeReportHtml, keeping this report's own images only);
 *   content_text = reportHtmlToText(content).
 * - Refused with AppError CONFLICT (409) when the report is COMPLETED ("use an addendum"), when the
 *   study is not ASSIGNED, DRAFTED or IN_REVIEW, or when `expectedVersion` is stale (the message
 *   names who changed it and when; details.current_version).
 * - Refused with PAYLOAD_TOO_LARGE (413, field content) above MAX_REPORT_CONTENT_LENGTH characters.
 * - Unchanged HTML is a no-op (changed: false); a collaboration write still stores its ydocState
 *   then, so the Yjs state is never lost.
 * - Changed HTML: version + 1, a report_versions row (kind EDIT), updated_by/at; source 'rest' sets
 *   ydoc_state = NULL, source 'collaboration' sets it to `ydocState`.
 * Does NOT check who may write: callers decide that first (report.policy.ts reportAccessFor).
 * After commit, announce changed writes with publishReportContent.
 */
export async function writeReportContent(
  tx: TTx,
  input: TWriteReportContentInput,
): Promise<TWrittenReportContent> {
  const [row] = await tx
    .select({ report: reports, studyStatus: studies.status, timeZone: facilityTimeZoneSql })
    .from(reports)
    .innerJoin(studies, eq(studies.id, reports.studyId))
    .innerJoin(facilities, eq(facilities.id, studies.facilityId))
    .where(eq(reports.id, input.reportId))
    .for('update', { of: reports });
  if (!row) throw AppError.notFound('Report');
  const { report } = row;
  assertReportWritable(report.status, row.studyStatus);
  if (input.expectedVersion !== undefined && input.expectedVersion !== report.version) {
    throw await staleVersionError(tx, report.id, report.version, row.timeZone);
  }
  if (input.html.length > MAX_REPORT_CONTENT_LENGTH) throw contentTooLarge();
  const content = sanitizeReportHtml(input.html, { reportId: report.id });
  if (content.length > MAX_REPORT_CONTENT_LENGTH) throw contentTooLarge();
  const result = {
    reportId: report.id,
    studyId: report.studyId,
    organisationId: report.organisationId,
    source: input.source,
  };
  const ydocState = input.source === 'rest' ? null : (input.ydocState ?? null);
  if (content === report.content) {
    if (input.source === 'collaboration' && ydocState !== null) {
      await tx.update(reports).set({ ydocState }).where(eq(reports.id, report.id));
    }
    return { ...result, version: report.version, content, changed: false };
  }
  const version = report.version + 1;
  await tx
    .update(reports)
    .set({
      content,
      contentText: reportHtmlToText(content),
      version,
      ydocState,
      updatedBy: input.userId,
      updatedAt: new Date(),
    })
    .where(eq(reports.id, report.id));
  if (!(await coalescedVersion(tx, input, report.version, version, content))) {
    await tx
      .insert(reportVersions)
      .values({ reportId: report.id, version, kind: 'EDIT', content, createdBy: input.userId });
  }
  return { ...result, version, content, changed: true };
}

/** Moves the current version's row to the new version when the input asks for it and it qualifies. */
async function coalescedVersion(
  tx: TTx,
  input: TWriteReportContentInput,
  currentVersion: number,
  version: number,
  content: string,
): Promise<boolean> {
  if (input.source !== 'collaboration' || input.coalesceVersion !== currentVersion || !input.userId) {
    return false;
  }
  const moved = await tx
    .update(reportVersions)
    .set({ version, content, createdAt: new Date() })
    .where(
      and(
        eq(reportVersions.reportId, input.reportId),
        eq(reportVersions.version, currentVersion),
        eq(reportVersions.kind, 'EDIT'),
        eq(reportVersions.createdBy, input.userId),
      ),
    )
    .returning({ id: reportVersions.id });
  return moved.length > 0;
}

/** 409 unless the report may still change: not COMPLETED, study ASSIGNED, DRAFTED or IN_REVIEW. */
export function assertReportWritable(reportStatus: string, studyStatus: TStudyStatus): void {
  if (reportStatus === 'COMPLETED' || studyStatus === 'FINAL') {
    throw new AppError(
      'CONFLICT',
      'This report is final and cannot be edited; use an addendum to add to it',
      {
        reason: 'final',
      },
    );
  }
  if (!REPORT_WRITABLE_STUDY_STATUSES.includes(studyStatus)) {
    throw new AppError(
      'CONFLICT',
      `The study is ${studyStatus.replaceAll('_', ' ').toLowerCase()}; a report can be written only once the study is assigned to a radiologist`,
      { reason: 'study-status', study_status: studyStatus },
    );
  }
}

function contentTooLarge(): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `content: the report is longer than ${MAX_REPORT_CONTENT_LENGTH.toLocaleString('en')} characters`,
    { field: 'content' },
  );
}

/** The 409 of a stale write: who saved the current version and when (in the facility's time zone). */
async function staleVersionError(tx: TTx, reportId: string, currentVersion: number, timeZone: string) {
  const [latest] = await tx
    .select({ createdAt: reportVersions.createdAt, userId: users.id, displayName: users.displayName })
    .from(reportVersions)
    .leftJoin(users, eq(users.id, reportVersions.createdBy))
    .where(and(eq(reportVersions.reportId, reportId), eq(reportVersions.version, currentVersion)))
    .orderBy(desc(reportVersions.createdAt))
    .limit(1);
  const who = latest?.displayName || 'Someone else';
  const when = latest ? ` at ${formatTime(latest.createdAt, timeZone)}` : '';
  return new AppError('CONFLICT', `${who} changed this report${when}; reload to see their changes`, {
    reason: 'stale-version',
    current_version: currentVersion,
    changed_by: latest?.userId ?? null,
    changed_by_display_name: latest?.displayName ?? null,
    changed_at: latest?.createdAt.toISOString() ?? null,
  });
}

function formatTime(at: Date, timeZone: string): string {
  const zone = safeTimeZone(timeZone);
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: zone });
  const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: zone });
  const sameDay = day.format(at) === day.format(new Date());
  return sameDay ? time.format(at) : `${time.format(at)} on ${day.format(at)}`;
}

function safeTimeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

/** Announces a committed write ('report.content.changed'); nothing is emitted for a no-op. */
export function publishReportContent(events: DomainEvents, written: TWrittenReportContent): void {
  if (!written.changed) return;
  events.emit('report.content.changed', {
    organisationId: written.organisationId,
    reportId: written.reportId,
    studyId: written.studyId,
    html: written.content,
    version: written.version,
    source: written.source,
  });
}
