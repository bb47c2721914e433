// After a report command commits: the worklist item (status) through the worklist's publish path,
// the report's content and status as domain events (realtime and the collaboration server listen).
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { reports } from '../../db/schema/index.ts';
import { publishStudies } from '../studies/commands/publish.ts';
import type { TReportOutcome } from './report-commands.ts';
import { publishReportContent } from './report-content.ts';
import type { TReportRow } from './report.queries.ts';

function emitStatus(app: FastifyInstance, report: TReportRow): void {
  app.events.emit('report.status.changed', {
    organisationId: report.organisationId,
    reportId: report.id,
    studyId: report.studyId,
    status: report.status,
    version: report.version,
  });
}

/** Announces what a report command changed. */
export async function publishReportOutcome(app: FastifyInstance, outcome: TReportOutcome): Promise<void> {
  if (outcome.written) publishReportContent(app.events, outcome.written);
  if (outcome.statusChanged) emitStatus(app, outcome.report);
  if (outcome.studyChanged) {
    await publishStudies(app, outcome.organisationId, [outcome.report.studyId]);
  }
}

/** report.status.changed for a report a committed command changed (review transitions). */
export async function publishReportStatus(app: FastifyInstance, reportId: string): Promise<void> {
  const [report] = await app.deps.database.db.select().from(reports).where(eq(reports.id, reportId));
  if (report) emitStatus(app, report);
}
