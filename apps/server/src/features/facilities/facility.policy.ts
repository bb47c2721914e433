// Who may do what to a facility (spec §7 /user/facility/*). Visibility is decided first in SQL
// (findVisibleFacility): these rules are only asked about facilities the caller sees.
import type { TUpdateFacilityBody } from '@ris/domain';
import type { TPrincipal } from '../../auth/principal.ts';
import { AppError } from '../../http/app-error.ts';

export type TFacilityAction =
  /** POST /user/facility. */
  | 'create'
  /** PUT /user/facility/{id}: name, code, address, phone, e-mail, time zone. */
  | 'edit'
  /** PUT /user/facility/{id} with status or parent_facility_fk. */
  | 'govern'
  /** POST / DELETE /user/facility/{id}/letterhead. */
  | 'letterhead';

/**
 * Decisions: ADMINs do everything in their organisation. A FACILITY_ADMIN edits their own facility's
 * details and letterhead, but not its status or place in the hierarchy (those shape the whole
 * organisation). Everyone else who sees a facility only reads it.
 */
export function canFacility(principal: TPrincipal, action: TFacilityAction): boolean {
  if (principal.role === 'ADMIN') return true;
  return principal.role === 'FACILITY_ADMIN' && (action === 'edit' || action === 'letterhead');
}

const REFUSALS: Record<TFacilityAction, string> = {
  create: 'Only an administrator may create a facility',
  edit: "Only an administrator or the facility's administrator may change this facility",
  govern: "Only an administrator may change a facility's status or parent facility",
  letterhead: "Only an administrator or the facility's administrator may change its letterhead",
};

/** 403 naming the action unless canFacility allows it. */
export function authorizeFacility(principal: TPrincipal, action: TFacilityAction): void {
  if (!canFacility(principal, action)) throw new AppError('FORBIDDEN', REFUSALS[action]);
}

/** The action a PUT body needs: 'govern' when it touches status or parent_facility_fk. */
export function updateActionOf(body: TUpdateFacilityBody): TFacilityAction {
  return body.status !== undefined || body.parent_facility_fk !== undefined ? 'govern' : 'edit';
}
