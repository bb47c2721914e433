import type { TSessionResponse } from '@ris/domain';
import { eq, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import type { TAuthContext } from './auth-context.ts';
import type { TResponseEnd } from '../integrations/mail/deferred-mail.ts';
import { alertAccountUnderAttack } from './attack-alerts.ts';
import {
  invalidCredential,
  tooManyRequests,
  userDisabled,
  userNotFound,
  wrongPassword,
} from './auth-errors.ts';
import { recordAuthEvent, type TRequestOrigin } from './audit.ts';
import { verifyPassword } from './passwords.ts';
import { loadUserProfile, userToWire, type TUserProfile, type TUserRow } from './present-user.ts';
import type { TIssuedRefresh, TSessionMethod } from './refresh-sessions.ts';
import { SignInDelayed, type TSignInAttempt } from './sign-in-throttle.ts';

/** A new session: the response body, and when its refresh token expires (for the cookie). */
export type TIssuedSession = { body: TSessionResponse; refreshExpiresAt: Date };

export async function findUserByEmail(db: TDbOrTx, email: string): Promise<TUserRow | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()));
  return user;
}

/** The ID token and response body for a session's new refresh token. */
export async function mintSession(
  ctx: TAuthContext,
  profile: TUserProfile,
  refresh: TIssuedRefresh,
): Promise<TIssuedSession> {
  const { user } = profile;
  ctx.cache.noteSession(user.id, refresh.sessionId);
  const idToken = await ctx.tokens.sign({
    sub: user.id,
    email: user.email,
    org: user.organisationId,
    role: user.role,
    user_type: profile.userType,
    fac: profile.facilityIds,
    sid: refresh.sessionId,
  });
  return {
    body: {
      id_token: idToken,
      refresh_token: refresh.refreshToken,
      expires_in: ctx.tokens.ttlSeconds,
      user: userToWire(profile),
    },
    refreshExpiresAt: refresh.expiresAt,
  };
}

/** Starts a session for a user who proved who they are, and mints its first ID token. */
export async function issueSession(
  ctx: TAuthContext,
  user: TUserRow,
  method: TSessionMethod,
  origin: TRequestOrigin,
  db: TDbOrTx = ctx.db,
): Promise<TIssuedSession> {
  const profile = await loadUserProfile(db, user);
  const refresh = await ctx.sessions.start(db, user.id, method, origin);
  return mintSession(ctx, profile, refresh);
}

/** What the sign-in needs of the request beyond the body: its cookies, and the answer to wait for. */
export type TSignInClient = { cookies: Record<string, string | undefined>; response?: TResponseEnd };

/**
 * Admits the attempt through the throttle, or answers 429 with the seconds to wait. The user is
 * looked up at the same time (an unknown account costs the same). When the delay is the account's
 * (not only its IP's), its owner and admins are told, at most once per window.
 */
async function admit(
  ctx: TAuthContext,
  email: string,
  origin: TRequestOrigin & { ip: string },
  client: TSignInClient,
): Promise<{ attempt: TSignInAttempt; user: TUserRow | undefined }> {
  const deviceId = ctx.devices.deviceOf(email, client.cookies, new Date());
  const [admitted, user] = await Promise.all([
    ctx.throttle.attempt({ account: email, ip: origin.ip, deviceId }).then(
      (attempt) => ({ attempt }),
      (error: unknown) => ({ error }),
    ),
    findUserByEmail(ctx.db, email),
  ]);
  if ('attempt' in admitted) return { attempt: admitted.attempt, user };
  const { error } = admitted;
  if (!(error instanceof SignInDelayed)) throw error;
  if (user && error.accountTargeted) alertAccountUnderAttack(ctx, user, origin, client.response);
  throw tooManyRequests(error.retryAfterSeconds);
}

/**
 * POST /auth/sign-in. Unknown e-mail and wrong password both answer 401 auth/invalid-credential
 * after the same argon2 work (unless AUTH_REVEAL_ACCOUNT_ERRORS); a disabled account is told so only
 * after a correct password. Failures count towards the throttle's limits (SignInThrottle); successes
 * never (a disabled account with the right password is not a guess either). The route then leaves a
 * device cookie, so this browser is counted on its own next time.
 */
export async function signInWithPassword(
  ctx: TAuthContext,
  input: { email: string; password: string },
  origin: TRequestOrigin & { ip: string },
  client: TSignInClient = { cookies: {} },
): Promise<TIssuedSession> {
  const email = input.email.trim().toLowerCase();
  // The attempt is recorded as a failure before the password is checked (atomic with the limit
  // check, see SignInThrottle) and un-recorded once the password proves right.
  const { attempt, user } = await admit(ctx, email, origin, client);
  const passwordOk = await verifyPassword(
    user?.passwordHash ?? (await ctx.dummyPasswordHash()),
    input.password,
  );
  if (!user || !user.passwordHash || !passwordOk) {
    await recordAuthEvent(ctx.db, {
      action: 'auth.sign_in_failed',
      subjectUserId: user?.id ?? null,
      organisationId: user?.organisationId ?? null,
      origin,
      data: { method: 'password', reason: user ? 'wrong_password' : 'unknown_email', email },
    });
    if (user && attempt.accountDelayed) alertAccountUnderAttack(ctx, user, origin, client.response);
    if (!ctx.config.revealAccountErrors) throw invalidCredential();
    throw user ? wrongPassword() : userNotFound();
  }
  await attempt.succeeded();
  if (user.status !== 'ACTIVE') {
    await recordAuthEvent(ctx.db, {
      action: 'auth.sign_in_failed',
      subjectUserId: user.id,
      organisationId: user.organisationId,
      origin,
      data: { method: 'password', reason: 'disabled' },
    });
    throw userDisabled();
  }
  const session = await ctx.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ lastSignInAt: sql`now()` })
      .where(eq(users.id, user.id));
    await recordAuthEvent(tx, {
      action: 'auth.sign_in',
      actorUserId: user.id,
      organisationId: user.organisationId,
      origin,
      data: { method: 'password' },
    });
    const refresh = await ctx.sessions.start(tx, user.id, 'password', origin);
    // Loaded only now: before the password is known to be right, a known account must cost no more
    // than an unknown one.
    return mintSession(ctx, await loadUserProfile(tx, user), refresh);
  });
  return session;
}
