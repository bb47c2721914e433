// Who may do what to a report (DESIGN.md §7; the specification leaves it open). One file, used by
// the REST routes and by the collaboration server's authentication alike. Visibility is decided in
// SQL first (visibleStudies): these functions are only asked about studies the caller may see.
import { isReporter, type TReportAbilities, type TReportStatus, type TStudyStatus } from '@ris/domain';
import { deletedStudyHidden, mayReadReportOf } from '../../access/studies-scope.ts';
import type { TScope } from '../../access/scope.ts';
import type { TPrincipal } from '../../auth/principal.ts';
import { AppError } from '../../http/app-error.ts';
import { canWorklist } from '../studies/study.policy.ts';
import { REPORT_WRITABLE_STUDY_STATUSES } from './report-content.ts';

/** The facts of a (visible) study that decide access to its report. */
export type TReportStudyFacts = {
  status: TStudyStatus;
  lastAssignedUserId: string | null;
  collaborationEnabled: boolean;
};

export type TReportAccess = 'edit' | 'read' | 'none';

export type TReportAction =
  /** Write content, key images (while the study is ASSIGNED, DRAFTED or IN_REVIEW). */
  | 'edit'
  /** POST /worklist/report/pdf-generate with status FINAL. */
  | 'finalize'
  /** POST /worklist/report/{id}/addendum (on a COMPLETED report). */
  | 'addendum'
  /** PUT /worklist/{id} status IN_REVIEW (DRAFTED → IN_REVIEW). */
  | 'submit'
  /** PUT /worklist/{id} status DRAFTED from IN_REVIEW, with a comment. */
  | 'return';

const isAssignee = (principal: TPrincipal, study: TReportStudyFacts) =>
  principal.role === 'RADIOLOGIST' && study.lastAssignedUserId === principal.userId;

/**
 * Decisions:
 * - edit: ADMINs; the radiologist the study is assigned to (studies.last_assigned_user_id);
 *   TRANSCRIPTIONISTs of the study's facility while its collaboration_enabled is on.
 * - finalize, addendum, return: ADMINs and the assigned radiologist (a transcriptionist never signs).
 * - submit for review: an editor who is a TRANSCRIPTIONIST or a REPORTER (radiologist of user type
 *   REPORTER); the assigned radiologist is notified (admins, when the reporter is the assignee).
 * - read: every other caller who sees the study (facility staff; referring physicians only FINAL).
 * Deleted studies' reports are read by admins only.
 */
export function canReport(principal: TPrincipal, action: TReportAction, study: TReportStudyFacts): boolean {
  const admin = principal.role === 'ADMIN';
  // Who writes a study's report is the study's rule (its item carries it as write_report).
  const editor = canWorklist(principal, 'write-report', study);
  switch (action) {
    case 'edit':
      return editor;
    case 'finalize':
    case 'addendum':
    case 'return':
      return admin || isAssignee(principal, study);
    case 'submit':
      return (
        editor && (principal.role === 'TRANSCRIPTIONIST' || isReporter(principal.role, principal.userType))
      );
  }
}

/** Whether the caller may read the report of a study they can see. */
export function mayReadReport(principal: TPrincipal, study: TReportStudyFacts): boolean {
  return !deletedStudyHidden(principal, study) && mayReadReportOf(principal, study);
}

/**
 * The caller's access to the report of a study they can see (loaded through visibleStudies):
 * 'edit' when they are an editor and the report may still change (study ASSIGNED, DRAFTED or
 * IN_REVIEW, report not COMPLETED); 'read' when they may read it; 'none' otherwise (→ 404, or a
 * refused collaboration connection).
 */
export function reportAccessFor(
  scope: TScope,
  study: TReportStudyFacts,
  reportStatus?: TReportStatus,
): TReportAccess {
  const { principal } = scope;
  if (!mayReadReport(principal, study)) return 'none';
  const writable = REPORT_WRITABLE_STUDY_STATUSES.includes(study.status) && reportStatus !== 'COMPLETED';
  return writable && canReport(principal, 'edit', study) ? 'edit' : 'read';
}

/** Studies whose report may be submitted for review (an ASSIGNED one is saved as draft on the way). */
const SUBMITTABLE_STUDY_STATUSES: readonly TStudyStatus[] = ['ASSIGNED', 'DRAFTED'];

/**
 * Renderings and deliveries of a report (report-output.policy.ts and comm.policy.ts ask these, and
 * reportAbilities sends their answers with the report), given the caller's access (reportAccessFor):
 * - preview (unsaved HTML laid out as the report): only who may edit the report now; unsaved text is
 *   a draft of its editors, and a reader could otherwise lay any text out as the report.
 * - choose-signers (by-rad PDF/DOCX): ADMINs, FACILITY_ADMINs of the study's facility, and who may
 *   edit the report now: putting a radiologist's name and signature under a report is an
 *   administrative act.
 * - share (e-mail, WhatsApp): whoever may read the report (referring physicians: the studies they
 *   referred, FINAL only), and only a final report (isShareableReport).
 */
export function mayPreviewReport(access: TReportAccess): boolean {
  return access === 'edit';
}

export function mayChooseSigners(
  scope: TScope,
  study: { facilityId: string },
  access: TReportAccess,
): boolean {
  if (access === 'edit') return true;
  if (access === 'none') return false;
  const { role } = scope.principal;
  return role === 'ADMIN' || (role === 'FACILITY_ADMIN' && scope.facilityIds.includes(study.facilityId));
}

/** Only a final report is ever shared: study FINAL, report COMPLETED. */
export function isShareableReport(study: { status: TStudyStatus }, reportStatus: TReportStatus): boolean {
  return study.status === 'FINAL' && reportStatus === 'COMPLETED';
}

/**
 * What the caller may do with the report of a study they can see, now: canReport's answer for each
 * action, and the state in which the command would accept it (writable study and open report for
 * edit and finalize; ASSIGNED or DRAFTED for submit; IN_REVIEW for return; a COMPLETED report for an
 * addendum); and the renderings and deliveries above. Sent with the report (ZReport.abilities) so the
 * web offers only these.
 */
export function reportAbilities(
  scope: TScope,
  study: TReportStudyFacts & { facilityId: string },
  reportStatus: TReportStatus,
): TReportAbilities {
  const { principal } = scope;
  const access = reportAccessFor(scope, study, reportStatus);
  const readable = access !== 'none';
  const may = (action: TReportAction) => readable && canReport(principal, action, study);
  const completed = reportStatus === 'COMPLETED';
  const open = REPORT_WRITABLE_STUDY_STATUSES.includes(study.status) && !completed;
  return {
    edit: open && may('edit'),
    submit: !completed && SUBMITTABLE_STUDY_STATUSES.includes(study.status) && may('submit'),
    return: !completed && study.status === 'IN_REVIEW' && may('return'),
    finalize: open && may('finalize'),
    addendum: completed && study.status === 'FINAL' && may('addendum'),
    share: readable && isShareableReport(study, reportStatus),
    preview: mayPreviewReport(access),
    choose_signers: mayChooseSigners(scope, study, access),
  };
}

const REFUSALS: Record<TReportAction, string> = {
  edit: 'You may read this report but not change it',
  finalize: 'Only the assigned radiologist or an administrator may finalize this report',
  addendum: 'Only the assigned radiologist or an administrator may add an addendum to this report',
  submit: 'Only a transcriptionist or a reporter working on this report may submit it for review',
  return: 'Only the assigned radiologist or an administrator may return this report to draft',
};

/** 403 with a message naming the action unless canReport allows it. */
export function authorizeReport(
  principal: TPrincipal,
  action: TReportAction,
  study: TReportStudyFacts,
): void {
  if (!canReport(principal, action, study)) throw new AppError('FORBIDDEN', REFUSALS[action]);
}
