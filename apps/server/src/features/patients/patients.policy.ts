import type { TPatientAbilities } from '@ris/domain';
import type { TPrincipal } from '../../auth/principal.ts';
import { AppError } from '../../http/app-error.ts';
import { canWorklist } from '../studies/study.policy.ts';

/**
 * What may be done to a patient record the caller can already see (records are loaded within the
 * caller's organisation and facilities, so others never reach here: 404).
 * - read: staff of every role; referring physicians see studies they referred, never patient records.
 * - edit: whoever corrects a worklist item's details (the order desk: ADMIN, FACILITY_ADMIN,
 *   TRANSCRIPTIONIST), since the record's fields are copied onto its studies.
 * - merge: ADMIN only — a merge moves studies between records, which a facility desk cannot undo.
 */
export type TPatientAction = 'read' | 'edit' | 'merge';

export function canPatient(principal: TPrincipal, action: TPatientAction): boolean {
  if (principal.role === null || principal.role === 'REFERRING_PHYSICIAN') return false;
  switch (action) {
    case 'read':
      return true;
    case 'edit':
      return canWorklist(principal, 'edit-details');
    case 'merge':
      return principal.role === 'ADMIN';
  }
}

const REFUSALS: Record<TPatientAction, string> = {
  read: 'You may not view patients',
  edit: 'You may not change patient records',
  merge: 'Only an administrator may merge patient records',
};

export function authorizePatient(principal: TPrincipal, action: TPatientAction): void {
  if (!canPatient(principal, action)) throw new AppError('FORBIDDEN', REFUSALS[action]);
}

/** What the caller may do with a record now (sent with it as ZPatient.abilities). */
export function patientAbilities(
  principal: TPrincipal,
  patient: { mergedIntoId: string | null },
): TPatientAbilities {
  const live = patient.mergedIntoId === null;
  return {
    edit: live && canPatient(principal, 'edit'),
    merge: live && canPatient(principal, 'merge'),
  };
}
