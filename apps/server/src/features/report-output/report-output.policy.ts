// Who may produce which rendering of a report. Visibility of the study is decided in SQL first
// (findVisibleStudyReport); these rules come after, with the caller's access to the report.
import type { TScope } from '../../access/scope.ts';
import { AppError } from '../../http/app-error.ts';
import type { TReportAccess } from '../reports/report.policy.ts';

export type TReportOutputAction =
  /** preview/docx, primary-rad/pdf: the stored report, as it stands. */
  | 'render'
  /** preview/pdf: arbitrary (unsaved) HTML laid out as the report. */
  | 'preview'
  /** by-rad/pdf|docx: the stored report signed by radiologists the caller chooses. */
  | 'choose-signers';

/**
 * Decisions:
 * - render: whoever may read the report (referring physicians: FINAL reports only).
 * - preview: only who may edit the report now (reportAccessFor 'edit'): unsaved text is a draft of
 *   its editors; a reader could otherwise lay any text out as the report. Always rendered as not
 *   final, without "Electronically signed" notes.
 * - choose-signers: ADMINs, FACILITY_ADMINs of the study's facility, and who may edit the report:
 *   putting a radiologist's name and signature under a report is an administrative act.
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
  if (action === 'render' || access === 'edit') return;
  const { role } = scope.principal;
  if (action === 'preview') {
    throw new AppError(
      'FORBIDDEN',
      'html_content: only who may edit this report may preview unsaved text; download the report instead',
      { field: 'html_content' },
    );
  }
  const facilityAdmin = role === 'FACILITY_ADMIN' && scope.facilityIds.includes(study.facilityId);
  if (role === 'ADMIN' || facilityAdmin) return;
  throw new AppError(
    'FORBIDDEN',
    'rad_user_ids: only an administrator, a facility administrator or an editor of this report may choose who signs it',
    { field: 'rad_user_ids' },
  );
}
