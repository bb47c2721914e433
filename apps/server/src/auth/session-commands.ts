import { eq } from 'drizzle-orm';
import { users } from '../db/schema/index.ts';
import type { TAuthContext } from './auth-context.ts';
import { invalidRefreshToken, userDisabled } from './auth-errors.ts';
import { recordAuthEvent, type TRequestOrigin } from './audit.ts';
import { loadUserProfile } from './present-user.ts';
import type { TPrincipal } from './principal.ts';
import { announceUserChange, publishUserChange, revokeUserTokens } from './revocation.ts';
import { mintSession, type TIssuedSession } from './sign-in.ts';

/**
 * POST /auth/refresh: the next refresh token of the session and a fresh ID token with the user's
 * current role, organisation and facilities. A refresh token presented twice ends its session, except
 * a cookie rotated by another tab a few seconds ago (RefreshSessions.rotate).
 */
export async function refreshSession(
  ctx: TAuthContext,
  refreshToken: string,
  origin: TRequestOrigin,
  options: { fromCookie?: boolean } = {},
): Promise<TIssuedSession> {
  const rotation = await ctx.sessions.rotate(refreshToken, options);
  if (rotation.kind === 'invalid') throw invalidRefreshToken();
  if (rotation.kind === 'reused' || rotation.kind === 'disabled') {
    await publishUserChange(ctx.db, rotation.userId);
    if (rotation.kind === 'disabled') throw userDisabled();
    await recordAuthEvent(ctx.db, {
      action: 'auth.refresh_reuse',
      subjectUserId: rotation.userId,
      origin,
      data: { session_id: rotation.sessionId },
    });
    throw invalidRefreshToken(
      'This session was ended because its refresh token was used twice. Please sign in again.',
    );
  }
  const [user] = await ctx.db.select().from(users).where(eq(users.id, rotation.userId));
  if (!user) throw invalidRefreshToken();
  return mintSession(ctx, await loadUserProfile(ctx.db, user), rotation.refresh);
}

export const SIGNED_OUT_MESSAGE = 'You have been signed out.';
export const SIGNED_OUT_EVERYWHERE_MESSAGE = 'You have been signed out on every device.';

/** POST /auth/sign-out: ends one session; its ID tokens stop working at once. */
export async function signOut(
  ctx: TAuthContext,
  session: { sessionId: string; userId: string; organisationId: string | null },
  origin: TRequestOrigin,
): Promise<{ message: string }> {
  await ctx.db.transaction(async (tx) => {
    await ctx.sessions.revoke(tx, session.sessionId, 'sign_out');
    await recordAuthEvent(tx, {
      action: 'auth.sign_out',
      actorUserId: session.userId,
      organisationId: session.organisationId,
      origin,
      data: { session_id: session.sessionId },
    });
    await publishUserChange(tx, session.userId);
  });
  announceUserChange(session.userId);
  return { message: SIGNED_OUT_MESSAGE };
}

/** POST /auth/sign-out-all: ends every session of the caller and rejects every ID token issued so far. */
export async function signOutAll(
  ctx: TAuthContext,
  principal: TPrincipal,
  origin: TRequestOrigin,
): Promise<{ message: string }> {
  await ctx.db.transaction(async (tx) => {
    await revokeUserTokens(tx, principal.userId, 'sign_out_all');
    await recordAuthEvent(tx, {
      action: 'auth.sign_out_all',
      actorUserId: principal.userId,
      organisationId: principal.organisationId,
      origin,
    });
  });
  announceUserChange(principal.userId);
  return { message: SIGNED_OUT_EVERYWHERE_MESSAGE };
}
