import { eq, sql } from 'drizzle-orm';
import { users } from '../db/schema/index.ts';
import { useActionToken } from './action-tokens.ts';
import { mailActionLink } from './action-mail.ts';
import type { TResponseEnd } from '../integrations/mail/deferred-mail.ts';
import type { TAuthContext } from './auth-context.ts';
import { authError, userDisabled } from './auth-errors.ts';
import { recordAuthEvent, type TRequestOrigin } from './audit.ts';
import { issueSession, type TIssuedSession } from './sign-in.ts';

export const EMAIL_LINK_SENT_MESSAGE =
  'If an account exists for this address, we have sent it a sign-in link.';

function assertEnabled(ctx: TAuthContext): void {
  if (!ctx.config.emailLinkEnabled) {
    throw authError('auth/operation-not-allowed', 'Sign-in by e-mail link is turned off on this server.');
  }
}

/** POST /auth/email-link/request: the same answer for every address; a link only to an active account. */
export async function requestEmailLink(
  ctx: TAuthContext,
  input: { email: string },
  origin: TRequestOrigin,
  response?: TResponseEnd,
): Promise<{ message: string }> {
  assertEnabled(ctx);
  await mailActionLink(ctx, 'email_link', input.email, ctx.config.emailLinkTtlMinutes, origin, response);
  return { message: EMAIL_LINK_SENT_MESSAGE };
}

/** POST /auth/email-link/sign-in {token}: uses the link once and starts a session. */
export async function signInWithEmailLink(
  ctx: TAuthContext,
  input: { token: string },
  origin: TRequestOrigin,
): Promise<TIssuedSession> {
  assertEnabled(ctx);
  return ctx.db.transaction(async (tx) => {
    const { userId } = await useActionToken(tx, input.token, 'email_link');
    const [user] = await tx
      .update(users)
      .set({ lastSignInAt: sql`now()` })
      .where(eq(users.id, userId))
      .returning();
    if (!user) throw userDisabled();
    if (user.status !== 'ACTIVE') throw userDisabled();
    await recordAuthEvent(tx, {
      action: 'auth.sign_in',
      actorUserId: user.id,
      organisationId: user.organisationId,
      origin,
      data: { method: 'email_link' },
    });
    return issueSession(ctx, user, 'email_link', origin, tx);
  });
}
