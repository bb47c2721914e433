import { isReporter, type TStudyStatus } from '@ris/domain';

/** Study statuses in which a report may still change (DESIGN.md §7; the server's list too). */
export const REPORT_WRITABLE_STATUSES: readonly TStudyStatus[] = ['ASSIGNED', 'DRAFTED', 'IN_REVIEW'];

export interface TReportActor {
  id: string;
  role: string | null;
  /** radiologist_details.user_type (RADIOLOGIST or REPORTER). */
  userType: string | null;
}

export interface TReportStudy {
  status: TStudyStatus;
  last_assigned_user_fk: string | null;
  collaboration_enabled: boolean;
}

export interface TReportPermissions {
  /** May write the report (and create it when there is none yet). */
  edit: boolean;
  saveDraft: boolean;
  submitForReview: boolean;
  returnToDraft: boolean;
  finalize: boolean;
  addAddendum: boolean;
  toggleCollaboration: boolean;
}

/**
 * Which reporting actions to offer (the server's report.policy.ts decides; this only hides what it
 * would refuse): ADMINs and the assigned radiologist edit, finalize, return and add addenda;
 * transcriptionists edit while collaboration is on; a transcriptionist or a REPORTER submits a draft
 * for review. Editing is possible while the study is ASSIGNED, DRAFTED or IN_REVIEW.
 */
export function reportPermissions(actor: TReportActor, study: TReportStudy): TReportPermissions {
  const admin = actor.role === 'ADMIN';
  const assignee = actor.role === 'RADIOLOGIST' && study.last_assigned_user_fk === actor.id;
  const signer = admin || assignee;
  const editor = signer || (actor.role === 'TRANSCRIPTIONIST' && study.collaboration_enabled);
  const writable = REPORT_WRITABLE_STATUSES.includes(study.status);
  const edit = editor && writable;
  const handsOver = actor.role === 'TRANSCRIPTIONIST' || isReporter(actor.role, actor.userType);
  return {
    edit,
    saveDraft: edit && study.status !== 'IN_REVIEW',
    submitForReview: edit && handsOver && (study.status === 'DRAFTED' || study.status === 'ASSIGNED'),
    returnToDraft: signer && study.status === 'IN_REVIEW',
    finalize: signer && writable,
    addAddendum: signer && study.status === 'FINAL',
    toggleCollaboration: signer && study.status !== 'FINAL' && study.status !== 'DELETED',
  };
}
