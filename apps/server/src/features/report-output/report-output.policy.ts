// Who may produce which rendering of a report. Visibility of the study is decided in SQL first
// (findVisibleStudyReport); these rules come after, with the caller's access to the report.
import type { TScope } from '../../access/scope.ts';
import { AppError } from '../../http/app-error.ts';
import { mayChooseSigners, mayPreviewReport, type TReportAccess } from '../reports/report.policy.ts';

export type TReportOutputAction =
  /** preview/docx, primary-rad/pdf: the stored report, as it stands. */
  | 'render'
  /** preview/pdf: arbitrary (unsaved) HTML laid out as the report. */
  | 'preview'
  /** by-rad/pdf|docx: the stored report signed by radiologists the caller chooses. */
  | 'choose-signers';

/**
 * Decisions (the rules are the report policy's, reports/report.policy.ts, which also sends them with
 * the report as its abilities):
 * - render: whoever may read the report (referring physicians: FINAL reports only).
 * - preview: mayPreviewReport (who may edit the report now). Always rendered as not final, without
 *   "Electronically signed" notes.
 * - choose-signers: mayChooseSigners (ADMINs, FACILITY_ADMINs of the study's facility, editors).
 * A caller who may not read the report gets 404 (as if it did not exist); a reader refused an
 * action gets 403 naming it.
 */
export function authorizeReportOutput(
  scope: TScope,
  study: { facilityId: string },
  access: TReportAccess,
  action: TReportOutputAction,
): void {
  if (access === 'none') throw AppError.notFound('Report');
  if (action === 'preview' && !mayPreviewReport(access)) {
    throw new AppError(
      'FORBIDDEN',
      'html_content: only who may edit this report may preview unsaved text; download the report instead',
      { field: 'html_content' },
    );
  }
  if (action === 'choose-signers' && !mayChooseSigners(scope, study, access)) {
    throw new AppError(
      'FORBIDDEN',
      'rad_user_ids: only an administrator, a facility administrator or an editor of this report may choose who signs it',
      { field: 'rad_user_ids' },
    );
  }
}
