// Who may share a report and read its deliveries, and who reads the outbox. Visibility of the study
// is decided in SQL first (visibleStudies through findVisibleStudyReport); these rules come after.
import type { TPrincipal } from '../../auth/principal.ts';
import type { TScope } from '../../access/scope.ts';
import { AppError } from '../../http/app-error.ts';
import { isShareableReport, reportAccessFor } from '../reports/report.policy.ts';
import type { TReportRow, TStudyRow } from '../reports/report.queries.ts';

export type TCommAction =
  /** POST /comm/{email,whatsapp}/send-report-pdf and GET /comm/messages. */
  | 'share'
  /** GET /comm/outbox: every message of the organisation, with its content. */
  | 'read-outbox';

/**
 * Decisions:
 * - share: the report policy's rule (reports/report.policy.ts, sent with the report as
 *   abilities.share): whoever may read the report may share it — ADMINs; FACILITY_ADMINs,
 *   RADIOLOGISTs (any user type) and TRANSCRIPTIONISTs of the study's facility; a
 *   REFERRING_PHYSICIAN only the studies they referred (visibleStudies) and only once FINAL
 *   (mayReadReport). Only a final report (isShareableReport: study FINAL, report COMPLETED) is ever
 *   shared; anything else answers 409.
 * - deliveries of a study: the same people; a referring physician sees only the messages they sent.
 * - read-outbox: ADMINs only (the outbox holds every message's text and every recipient).
 */
export function mayReadStudyReport(scope: TScope, study: TStudyRow, report: TReportRow | null): boolean {
  if (!report) return reportAccessFor(scope, study) !== 'none';
  return reportAccessFor(scope, study, report.status) !== 'none';
}

export function isFinalReport(study: TStudyRow, report: TReportRow | null): report is TReportRow {
  return report !== null && isShareableReport(study, report.status);
}

/** A referring physician's view of a study's deliveries is limited to what they sent themselves. */
export function deliveriesSenderFilter(principal: TPrincipal): string | undefined {
  return principal.role === 'REFERRING_PHYSICIAN' ? principal.userId : undefined;
}

export function authorizeOutbox(principal: TPrincipal): void {
  if (principal.role !== 'ADMIN') {
    throw new AppError('FORBIDDEN', 'Only an administrator may read the outbox');
  }
}
