import type { TReferringPhysicianAbilities, TReferringPhysicianSignIn } from '@ris/domain';
import type { TScope } from '../../access/scope.ts';
import { AppError } from '../../http/app-error.ts';
import { canWorklist } from '../studies/study.policy.ts';

/**
 * What may be done with referring physicians (those loaded are already within the caller's
 * organisation and facilities: visibility is decided in SQL, referring-physicians.queries.ts).
 * - list: staff of every role (the order dialog's picker); referring physicians themselves may not.
 * - create: the order desk (ADMIN, FACILITY_ADMIN, TRANSCRIPTIONIST), which meets new ones on orders.
 * - edit: ADMIN; a FACILITY_ADMIN those who refer only to their own facility.
 * - invite to sign in: whoever may edit them, once they have an e-mail and no account that signs in.
 */
export type TReferringPhysicianAction = 'list' | 'create' | 'edit' | 'invite';

/** The facts of a physician the decisions depend on. */
export type TPhysicianFacts = {
  facilityIds: readonly string[];
  email: string | null;
  status: 'ACTIVE' | 'INACTIVE';
  signIn: TReferringPhysicianSignIn;
};

export function canReferringPhysician(
  scope: TScope,
  action: TReferringPhysicianAction,
  physician?: TPhysicianFacts,
): boolean {
  const { role } = scope.principal;
  if (role === null || role === 'REFERRING_PHYSICIAN') return false;
  switch (action) {
    case 'list':
      return true;
    case 'create':
      return canWorklist(scope.principal, 'create-order');
    case 'edit':
      if (role === 'ADMIN') return true;
      return (
        role === 'FACILITY_ADMIN' &&
        !!physician &&
        physician.facilityIds.length > 0 &&
        physician.facilityIds.every((id) => scope.facilityIds.includes(id))
      );
    case 'invite':
      return (
        !!physician &&
        canReferringPhysician(scope, 'edit', physician) &&
        invitationRefusal(physician) === null
      );
  }
}

/**
 * Why a physician the caller may edit cannot be invited now (an error naming the field), or null:
 * an invitation needs an active record with an e-mail, and is sent again only while the account has
 * not set its password.
 */
export function invitationRefusal(physician: TPhysicianFacts): AppError | null {
  if (physician.status !== 'ACTIVE') {
    return new AppError('CONFLICT', 'status: an inactive referring physician cannot be invited', {
      field: 'status',
    });
  }
  if (physician.email === null) {
    return new AppError('UNPROCESSABLE', 'email: add an e-mail address before inviting', { field: 'email' });
  }
  if (physician.signIn === 'ACTIVE') {
    return new AppError('CONFLICT', 'This referring physician already signs in', { field: 'user_fk' });
  }
  if (physician.signIn === 'DISABLED') {
    return new AppError(
      'CONFLICT',
      'The account of this referring physician is disabled; enable it under Users',
      {
        field: 'user_fk',
      },
    );
  }
  return null;
}

const REFUSALS: Record<TReferringPhysicianAction, string> = {
  list: 'You may not list referring physicians',
  create: 'You may not create referring physicians',
  edit: 'You may not change this referring physician',
  invite: 'You may not invite this referring physician',
};

export function authorizeReferringPhysician(
  scope: TScope,
  action: TReferringPhysicianAction,
  physician?: TPhysicianFacts,
): void {
  if (!canReferringPhysician(scope, action, physician)) throw new AppError('FORBIDDEN', REFUSALS[action]);
}

/** What the caller may do with a physician now (sent with it as ZReferringPhysician.abilities). */
export function referringPhysicianAbilities(
  scope: TScope,
  physician: TPhysicianFacts,
): TReferringPhysicianAbilities {
  return {
    edit: canReferringPhysician(scope, 'edit', physician),
    invite: canReferringPhysician(scope, 'invite', physician),
  };
}
