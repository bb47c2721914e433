// What the caller may do with a worklist item now (ZWorklistItem.abilities): the worklist policy's
// answer for each action (canWorklist), with the state in which its command would accept it.
import type { TStudyStatus, TWorklistItemAbilities } from '@ris/domain';
import type { TPrincipal } from '../../auth/principal.ts';
import { transition } from './study-transitions.ts';
import { canWorklist, type TWorklistAction } from './study.policy.ts';

/** The facts of a study the abilities depend on. */
export type TStudyAbilityFacts = {
  status: TStudyStatus;
  lastAssignedUserId: string | null;
  collaborationEnabled: boolean;
};

/** Studies that change hands when assigned (TO_READ ones become ASSIGNED), as assignRadiologist does. */
const ASSIGNABLE: readonly TStudyStatus[] = ['TO_READ', 'ASSIGNED', 'DRAFTED', 'IN_REVIEW'];

export function studyAbilities(principal: TPrincipal, study: TStudyAbilityFacts): TWorklistItemAbilities {
  const may = (action: TWorklistAction) => canWorklist(principal, action, study);
  const live = study.status !== 'DELETED';
  const open = live && study.status !== 'FINAL';
  const assignable = ASSIGNABLE.includes(study.status);
  return {
    activate: may('activate') && transition(study.status, 'activate').ok,
    duplicate: may('duplicate') && live,
    edit_details: may('edit-details') && live,
    set_priority: may('set-priority') && open,
    toggle_collaboration: may('toggle-collaboration') && open,
    assign_anyone: may('assign-anyone') && assignable,
    assign_self: may('assign-self') && assignable,
    unassign: may('unassign') && transition(study.status, 'unassign').ok,
    delete: may('delete') && transition(study.status, 'delete').ok,
    // A report is written while its study may still be finalized (ASSIGNED, DRAFTED, IN_REVIEW).
    write_report: may('write-report') && transition(study.status, 'finalize').ok,
    manage_documents: may('manage-documents') && live,
  };
}
