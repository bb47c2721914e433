import { ROLES, type TManagedUserAbilities, type TRole } from '@ris/domain';
import type { TPrincipal } from '../../auth/principal.ts';
import type { TScope } from '../../access/scope.ts';
import { AppError } from '../../http/app-error.ts';
import type { TUserRow } from './users.presenter.ts';

/** What may be done to a user record the caller can already see. */
export type TUserAction = 'read' | 'manage';

/**
 * Decides an action on a visible user (visibility itself is decided in the query, see users.queries).
 * Everyone may read what they can see; only an admin of the same organisation manages users in
 * general (user administration asks canManageUser, which also knows facility admins).
 */
export function canUser(principal: TPrincipal, action: TUserAction, target: TUserRow): boolean {
  switch (action) {
    case 'read':
      return true;
    case 'manage':
      return principal.role === 'ADMIN' && principal.organisationId === target.organisationId;
  }
}

/** The roles a facility administrator manages (in their own facilities only). */
export const FACILITY_ADMIN_MANAGED_ROLES: readonly TRole[] = ['TRANSCRIPTIONIST', 'REFERRING_PHYSICIAN'];

/**
 * Who administers users at all (GET /user, GET /user/all, POST /user, reset-password): an ADMIN
 * (everyone of the organisation) or a FACILITY_ADMIN (their facilities' transcriptionists and
 * referring physicians). Everyone else is refused with 403 before any record is read.
 */
export function administersUsers(principal: TPrincipal): boolean {
  return (
    principal.organisationId !== null && (principal.role === 'ADMIN' || principal.role === 'FACILITY_ADMIN')
  );
}

export function authorizeUserAdministration(principal: TPrincipal): void {
  if (!administersUsers(principal)) {
    throw new AppError('FORBIDDEN', 'Only an administrator or a facility administrator may manage users');
  }
}

/** The roles the caller may give (and take away). */
export function assignableRoles(principal: TPrincipal): readonly TRole[] {
  if (principal.role === 'ADMIN') return ROLES;
  if (principal.role === 'FACILITY_ADMIN') return FACILITY_ADMIN_MANAGED_ROLES;
  return [];
}

/** A user as user administration sees them: the row and their facilities in its organisation. */
export type TManagedTarget = { row: TUserRow; facilityIds: readonly string[] };

/**
 * Actions on one user of user administration:
 * - edit: change their fields through POST /user;
 * - disable: set their status (disable, or enable again);
 * - reset-password: start a password reset (POST /user/reset-password);
 * - resend-invitation: send the invitation again (only while no password was ever set).
 */
export type TManagedUserAction = 'edit' | 'disable' | 'reset-password' | 'resend-invitation';

/**
 * Whether the caller manages this user: an ADMIN everyone of the organisation; a FACILITY_ADMIN a
 * transcriptionist or referring physician all of whose facilities are the caller's own (someone who
 * also works elsewhere is the administrator's to change).
 */
function manages(scope: TScope, target: TManagedTarget): boolean {
  const { principal } = scope;
  if (target.row.organisationId !== principal.organisationId) return false;
  if (principal.role === 'ADMIN') return true;
  if (principal.role !== 'FACILITY_ADMIN' || !target.row.role) return false;
  return (
    FACILITY_ADMIN_MANAGED_ROLES.includes(target.row.role) &&
    target.facilityIds.length > 0 &&
    target.facilityIds.every((id) => scope.facilityIds.includes(id))
  );
}

/**
 * The decisions, for a user the caller sees in user administration. Nobody changes their own status
 * (or role: see save-user); everyone may edit their own details (commands/update-own-details). The
 * links (reset, invitation) are for others: one's own password is changed on the profile.
 */
export function canManageUser(scope: TScope, action: TManagedUserAction, target: TManagedTarget): boolean {
  const self = target.row.id === scope.principal.userId;
  // Everyone edits their own details (the profile); what decides access stays with administrators.
  if (self) return action === 'edit';
  if (!manages(scope, target)) return false;
  switch (action) {
    case 'edit':
    case 'disable':
      return true;
    case 'reset-password':
      return target.row.status === 'ACTIVE';
    case 'resend-invitation':
      return target.row.status === 'ACTIVE' && target.row.passwordHash === null;
  }
}

const REFUSALS: Record<TManagedUserAction, string> = {
  edit: 'You may not change this user',
  disable: 'You may not change the status of this user',
  'reset-password': 'You may not reset the password of this user',
  'resend-invitation': 'This user cannot be sent an invitation',
};

/** 403 unless canManageUser allows it; `field` names what the request asked to change. */
export function authorizeManagedUser(
  scope: TScope,
  action: TManagedUserAction,
  target: TManagedTarget,
  field?: string,
): void {
  if (canManageUser(scope, action, target)) return;
  const message = field ? `${field}: ${REFUSALS[action].toLowerCase()}` : REFUSALS[action];
  throw new AppError('FORBIDDEN', message, field ? { field } : undefined);
}

/** The abilities sent with each user (ZManagedUserAbilities). */
export function managedUserAbilities(scope: TScope, target: TManagedTarget): TManagedUserAbilities {
  return {
    edit: canManageUser(scope, 'edit', target),
    disable: canManageUser(scope, 'disable', target),
    reset_password: canManageUser(scope, 'reset-password', target),
    resend_invitation: canManageUser(scope, 'resend-invitation', target),
  };
}
