import { eq } from 'drizzle-orm';
import { users } from '../db/schema/index.ts';
import { retireActionTokens, useActionToken } from './action-tokens.ts';
import { mailActionLink } from './action-mail.ts';
import type { TResponseEnd } from '../integrations/mail/deferred-mail.ts';
import type { TAuthContext } from './auth-context.ts';
import { userDisabled } from './auth-errors.ts';
import { recordAuthEvent, type TRequestOrigin } from './audit.ts';
import { assertPasswordAllowed } from './password-policy.ts';
import { hashPassword } from './passwords.ts';
import { announceUserChange, revokeUserTokens } from './revocation.ts';

export const PASSWORD_RESET_REQUESTED_MESSAGE =
  'If an account exists for this address, we have sent it a link to reset the password.';
export const PASSWORD_CHANGED_MESSAGE = 'Your password has been changed. Sign in with your new password.';

/** POST /auth/password-reset/request: the same answer for every address; a mail only to an active account. */
export async function requestPasswordReset(
  ctx: TAuthContext,
  input: { email: string },
  origin: TRequestOrigin,
  response?: TResponseEnd,
): Promise<{ message: string }> {
  await mailActionLink(ctx, 'password_reset', input.email, ctx.config.resetTokenTtlMinutes, origin, response);
  return { message: PASSWORD_RESET_REQUESTED_MESSAGE };
}

/**
 * POST /auth/password-reset/confirm: sets the new password, uses up every reset link of the user and
 * ends every session (tokens stolen with the old password die with it). A password the policy refuses
 * leaves the link usable; an account that is not ACTIVE is refused (auth/user-disabled).
 */
export async function confirmPasswordReset(
  ctx: TAuthContext,
  input: { token: string; password: string },
  origin: TRequestOrigin,
): Promise<{ message: string }> {
  const passwordHash = { value: '' };
  const { userId } = await ctx.db.transaction(async (tx) => {
    const { userId } = await useActionToken(tx, input.token, 'password_reset', async (id) => {
      const [user] = await tx
        .select({ email: users.email, status: users.status })
        .from(users)
        .where(eq(users.id, id))
        .for('update');
      // Links of a disabled account are retired by disableUser; this also covers any other way in.
      if (user?.status !== 'ACTIVE') throw userDisabled();
      assertPasswordAllowed(ctx.policy, input.password, user?.email ?? '');
      passwordHash.value = await hashPassword(input.password);
    });
    const [user] = await tx
      .update(users)
      .set({ passwordHash: passwordHash.value })
      .where(eq(users.id, userId))
      .returning({ organisationId: users.organisationId });
    await retireActionTokens(tx, userId, 'password_reset');
    await revokeUserTokens(tx, userId, 'password_reset');
    await recordAuthEvent(tx, {
      action: 'auth.password_reset',
      actorUserId: userId,
      organisationId: user?.organisationId ?? null,
      origin,
    });
    return { userId };
  });
  announceUserChange(userId);
  return { message: PASSWORD_CHANGED_MESSAGE };
}
