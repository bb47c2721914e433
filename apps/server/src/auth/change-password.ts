import { ZChangePasswordRequest, ZErrorBody, ZNeutralResponse } from '@ris/domain';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authSessions, users } from '../db/schema/index.ts';
import { AppError } from '../http/app-error.ts';
import { retireActionTokens } from './action-tokens.ts';
import type { TAuthContext } from './auth-context.ts';
import { tooManyRequests, unauthenticated, userDisabled } from './auth-errors.ts';
import { recordAuthEvent, type TRequestOrigin } from './audit.ts';
import { authenticate } from './authenticate.ts';
import type { Identity } from './identity.ts';
import { assertPasswordAllowed } from './password-policy.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { TPrincipal } from './principal.ts';
import { announceAfterCommit, publishUserChange } from './revocation.ts';
import { SignInDelayed } from './sign-in-throttle.ts';

export const PASSWORD_UPDATED_MESSAGE =
  'Your password has been changed. You stay signed in here; every other device was signed out.';
export const WRONG_CURRENT_PASSWORD_MESSAGE = 'The current password is not correct.';

/** 400 naming `field`, in the shape of a validation failure (details.fields), so forms show it inline. */
function fieldError(code: string, message: string, field: string, status = 400): AppError {
  return new AppError(code, message, { field, fields: [{ field, in: 'body', message }] }, status);
}

/**
 * POST /auth/password: the signed-in user sets a new password, proving the current one. A wrong
 * current password counts as a failed sign-in of the account (the same throttle and delays, so a
 * stolen ID token cannot be used to guess it); on success the other sessions end and any reset link
 * stops working, while this session carries on. The new password follows the password policy.
 */
export async function changePassword(
  ctx: TAuthContext,
  principal: TPrincipal,
  input: { current_password: string; new_password: string },
  origin: TRequestOrigin & { ip: string; deviceId: string | null },
): Promise<{ message: string }> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, principal.userId));
  if (!user) throw unauthenticated();
  if (user.status !== 'ACTIVE') throw userDisabled();
  const account = user.email.trim().toLowerCase();
  let attempt;
  try {
    attempt = await ctx.throttle.attempt({ account, ip: origin.ip, deviceId: origin.deviceId });
  } catch (error) {
    if (error instanceof SignInDelayed) throw tooManyRequests(error.retryAfterSeconds);
    throw error;
  }
  const currentOk = user.passwordHash
    ? await verifyPassword(user.passwordHash, input.current_password)
    : false;
  if (!currentOk) {
    await recordAuthEvent(ctx.db, {
      action: 'auth.sign_in_failed',
      subjectUserId: user.id,
      organisationId: user.organisationId,
      origin,
      data: { method: 'password_change', reason: 'wrong_password' },
    });
    throw fieldError('VALIDATION_FAILED', WRONG_CURRENT_PASSWORD_MESSAGE, 'current_password');
  }
  await attempt.succeeded();
  try {
    assertPasswordAllowed(ctx.policy, input.new_password, user.email);
  } catch (error) {
    if (error instanceof AppError) throw fieldError(error.code, error.message, 'new_password', error.status);
    throw error;
  }
  if (await verifyPassword(user.passwordHash ?? '', input.new_password)) {
    throw fieldError(
      'auth/weak-password',
      'Choose a password different from the current one.',
      'new_password',
    );
  }
  const passwordHash = await hashPassword(input.new_password);
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    await tx
      .update(authSessions)
      .set({ revokedAt: sql`now()`, revokedReason: 'password_changed' })
      .where(
        and(
          eq(authSessions.userId, user.id),
          ne(authSessions.id, principal.sessionId),
          isNull(authSessions.revokedAt),
        ),
      );
    await retireActionTokens(tx, user.id, 'password_reset');
    await recordAuthEvent(tx, {
      action: 'auth.password_changed',
      actorUserId: user.id,
      organisationId: user.organisationId,
      origin,
    });
    await publishUserChange(tx, user.id);
  });
  announceAfterCommit(ctx.db, user.id);
  return { message: PASSWORD_UPDATED_MESSAGE };
}

function originOf(ctx: TAuthContext, request: FastifyRequest, email: string) {
  return {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    deviceId: ctx.devices.deviceOf(email.trim().toLowerCase(), request.cookies, new Date()),
  };
}

/** Registers POST /password in the identity API (/api/v1/auth), behind the bearer token. */
export const changePasswordRoute =
  (identity: Identity): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/password',
      {
        onRequest: authenticate(identity.verifier),
        schema: {
          tags: ['auth'],
          summary: 'Change your own password (the current one required); other sessions end',
          description:
            'A wrong current_password answers 400 naming the field and counts as a failed sign-in of the account (429 auth/too-many-requests with Retry-After past the limits). A new_password the policy refuses answers 400 auth/weak-password naming new_password. This session stays signed in; every other session of the account ends at once and unused reset links stop working.',
          security: [{ bearerAuth: [] }],
          body: ZChangePasswordRequest,
          response: {
            200: ZNeutralResponse,
            400: ZErrorBody,
            401: ZErrorBody,
            403: ZErrorBody,
            429: ZErrorBody,
          },
        },
      },
      async (request) => {
        const principal = request.principal;
        if (!principal) throw unauthenticated();
        const ctx = identity.context;
        return changePassword(ctx, principal, request.body, originOf(ctx, request, principal.email));
      },
    );
  };
