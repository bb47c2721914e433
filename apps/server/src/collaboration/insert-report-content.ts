// Content inserted at the caret of a report's open editors (the dictation feature sends what was
// recognised this way). Delivered over socket.io, not through the Yjs document: each editor inserts
// it where its own caret is, and the insertion then reaches everyone as an ordinary edit.
import { eq } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client.ts';
import { reports } from '../db/schema/index.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { AppError } from '../http/app-error.ts';

/**
 * Announces content for the editors of a report (after the caller has checked that its user may edit
 * it, and after any commit): 'report.insert-content', which the realtime server sanitises and sends
 * as 'insert-report-content' { report_id, content } to the sockets on the topic 'worklist-{studyId}'
 * whose user may edit the report. 404 when the report does not exist.
 */
export async function insertReportContent(
  db: TDbOrTx,
  events: DomainEvents,
  input: { reportId: string; content: string },
): Promise<void> {
  const [report] = await db
    .select({ studyId: reports.studyId, organisationId: reports.organisationId })
    .from(reports)
    .where(eq(reports.id, input.reportId));
  if (!report) throw AppError.notFound('Report');
  events.emit('report.insert-content', {
    organisationId: report.organisationId,
    reportId: input.reportId,
    studyId: report.studyId,
    content: input.content,
  });
}
