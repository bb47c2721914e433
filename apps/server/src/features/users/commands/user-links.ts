// One-time links an administrator starts for a user they manage: a password reset (mailed, or
// handed back to give in person) and the invitation sent again. Each retires the user's earlier
// links; the audit trail says who started it and how the link travels.
import type { TScope } from '../../../access/scope.ts';
import type { TRequestOrigin } from '../../../auth/audit.ts';
import {
  INVITATION_TTL_MINUTES,
  issueSetPasswordLink,
  type TSetPasswordLink,
} from '../../../auth/invitations.ts';
import type { TTx } from '../../../db/client.ts';
import { AppError } from '../../../http/app-error.ts';
import { recordUserAdminEvent } from '../user-audit.ts';
import { authorizeManagedUser, canManageUser } from '../users.policy.ts';
import { findAdministeredUser } from '../users.queries.ts';
import { assertCallerStillAdministers, lockOrganisation } from './user-admin-guards.ts';

export type TLinkInput = { scope: TScope; origin: TRequestOrigin; publicUrl: string };

export type TIssuedLink = {
  userId: string;
  to: string;
  /** The caller's name (for the mail). */
  by: string;
  organisationName: string;
  link: TSetPasswordLink;
};

/**
 * POST /user/reset-password: the user with this e-mail (case-insensitively) among those the caller
 * administers, else 404 — the same answer for an address nobody has and one of someone the caller
 * does not see, so nothing is revealed. A user seen but not managed (a facility admin's radiologist)
 * is 403.
 */
export async function startPasswordReset(
  tx: TTx,
  input: TLinkInput & { email: string; sendEmail: boolean; ttlMinutes: number },
): Promise<TIssuedLink> {
  const { scope } = input;
  const organisation = await lockOrganisation(tx, scope);
  const caller = await assertCallerStillAdministers(tx, scope);
  const target = await findAdministeredUser(tx, scope, { email: input.email.trim() });
  if (!target) throw AppError.notFound('User');
  authorizeManagedUser(scope, 'reset-password', target, 'email');
  const link = await issueSetPasswordLink(tx, {
    publicUrl: input.publicUrl,
    userId: target.row.id,
    ttlMinutes: input.ttlMinutes,
    ip: input.origin.ip,
  });
  await recordUserAdminEvent(tx, {
    action: 'user.password_reset_started',
    actorUserId: scope.principal.userId,
    organisationId: scope.organisationId,
    subjectUserId: target.row.id,
    origin: input.origin,
    data: { delivery: input.sendEmail ? 'email' : 'handed_to_admin' },
  });
  return {
    userId: target.row.id,
    to: target.row.email,
    by: caller.name,
    organisationName: organisation.name,
    link,
  };
}

/**
 * POST /user/{id}/invitation: a new invitation link for a user who has never set a password (409
 * for one who has, or who is disabled: a reset is what they need).
 */
export async function resendInvitation(
  tx: TTx,
  input: TLinkInput & { userId: string },
): Promise<TIssuedLink> {
  const { scope } = input;
  const organisation = await lockOrganisation(tx, scope);
  const caller = await assertCallerStillAdministers(tx, scope);
  const target = await findAdministeredUser(tx, scope, { id: input.userId });
  if (!target) throw AppError.notFound('User');
  authorizeManagedUser(scope, 'edit', target);
  if (!canManageUser(scope, 'resend-invitation', target)) {
    throw new AppError(
      'CONFLICT',
      target.row.status === 'ACTIVE'
        ? 'This user has already set a password: start a password reset instead'
        : 'This user is disabled: enable them before sending an invitation',
      { reason: target.row.status === 'ACTIVE' ? 'password-set' : 'disabled' },
    );
  }
  const link = await issueSetPasswordLink(tx, {
    publicUrl: input.publicUrl,
    userId: target.row.id,
    ttlMinutes: INVITATION_TTL_MINUTES,
    ip: input.origin.ip,
  });
  await recordUserAdminEvent(tx, {
    action: 'user.invitation_sent',
    actorUserId: scope.principal.userId,
    organisationId: scope.organisationId,
    subjectUserId: target.row.id,
    origin: input.origin,
    data: { resent: true },
  });
  return {
    userId: target.row.id,
    to: target.row.email,
    by: caller.name,
    organisationName: organisation.name,
    link,
  };
}
