import type { TStudyStatus } from '@ris/domain';
import type { TPrincipal } from '../../auth/principal.ts';
import { AppError } from '../../http/app-error.ts';

/** What may be done to a worklist item the caller can already see (visibility is decided in SQL). */
export type TWorklistAction =
  | 'read'
  | 'create-order'
  | 'activate'
  | 'duplicate'
  | 'edit-details'
  | 'set-priority'
  | 'toggle-collaboration'
  | 'assign-anyone'
  | 'assign-self'
  | 'unassign'
  | 'delete'
  | 'write-report'
  | 'manage-documents';

type TStudyFacts = {
  status: TStudyStatus;
  lastAssignedUserId: string | null;
  collaborationEnabled?: boolean;
};

/** Roles that run the front desk of a facility: create, activate, duplicate and correct orders. */
const ORDER_DESK = ['ADMIN', 'FACILITY_ADMIN', 'TRANSCRIPTIONIST'] as const;
/** Roles that hand work out to radiologists. */
const DISPATCHERS = ['ADMIN', 'FACILITY_ADMIN'] as const;

const isOneOf = (role: TPrincipal['role'], roles: readonly string[]) => role !== null && roles.includes(role);

/**
 * Decisions (the specification leaves per-role permissions open, §6):
 * - create-order / activate / duplicate / edit-details: ADMIN, FACILITY_ADMIN and TRANSCRIPTIONIST
 *   (of the item's facility — the scoped load guarantees that). Radiologists and referring
 *   physicians may not. Details of a FINAL study only an ADMIN corrects.
 * - set-priority: the order desk, and the radiologist the study is assigned to.
 * - toggle-collaboration: ADMIN and the assigned radiologist (the transcriptionist is told by toast).
 * - assign-anyone: ADMIN and FACILITY_ADMIN; assign-self: a RADIOLOGIST claiming an unassigned study.
 * - unassign: ADMIN, FACILITY_ADMIN and the assigned radiologist (handing work back).
 * - delete: ADMIN only (soft delete to DELETED).
 * - write-report: ADMIN, the RADIOLOGIST the study is assigned to, and TRANSCRIPTIONISTs while the
 *   study's collaboration is on (reports/report.policy.ts asks this for its 'edit').
 * - manage-documents (patient documents): whoever corrects its details (edit-details), and the
 *   RADIOLOGIST it is assigned to until it is FINAL.
 * Referring physicians only read what they referred.
 */
export function canWorklist(principal: TPrincipal, action: TWorklistAction, study?: TStudyFacts): boolean {
  const { role } = principal;
  const isAssignee = !!study && study.lastAssignedUserId === principal.userId;
  switch (action) {
    case 'read':
      return true;
    case 'create-order':
    case 'activate':
    case 'duplicate':
      return isOneOf(role, ORDER_DESK);
    case 'edit-details':
      return study?.status === 'FINAL' ? role === 'ADMIN' : isOneOf(role, ORDER_DESK);
    case 'set-priority':
      return isOneOf(role, ORDER_DESK) || (role === 'RADIOLOGIST' && isAssignee);
    case 'toggle-collaboration':
      return role === 'ADMIN' || (role === 'RADIOLOGIST' && isAssignee);
    case 'assign-anyone':
      return isOneOf(role, DISPATCHERS);
    case 'assign-self':
      return role === 'RADIOLOGIST' && (!study || study.lastAssignedUserId === null);
    case 'unassign':
      return isOneOf(role, DISPATCHERS) || (role === 'RADIOLOGIST' && isAssignee);
    case 'delete':
      return role === 'ADMIN';
    case 'write-report':
      return (
        role === 'ADMIN' ||
        (role === 'RADIOLOGIST' && isAssignee) ||
        (role === 'TRANSCRIPTIONIST' && study?.collaborationEnabled === true)
      );
    case 'manage-documents':
      return (
        canWorklist(principal, 'edit-details', study) ||
        (role === 'RADIOLOGIST' && isAssignee && study?.status !== 'FINAL')
      );
  }
}

export function authorizeWorklist(
  principal: TPrincipal,
  action: TWorklistAction,
  study?: TStudyFacts,
  message = 'You may not do this to this worklist item',
): void {
  if (!canWorklist(principal, action, study)) throw new AppError('FORBIDDEN', message);
}
