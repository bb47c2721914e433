import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import {
  REFRESH_COOKIE_NAME,
  REFRESH_COOKIE_PATH,
  ZAuthConfig,
  ZEmailLinkRequest,
  ZEmailLinkSignIn,
  ZErrorBody,
  ZNeutralResponse,
  ZPasswordPolicy,
  ZPasswordResetConfirm,
  ZPasswordResetRequest,
  ZRefreshRequest,
  ZSessionResponse,
  ZSignInRequest,
  ZSignUpRequest,
} from '@ris/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authErrorHandler } from './auth-error-handler.ts';
import { tooManyRequests, unauthenticated } from './auth-errors.ts';
import type { TRequestOrigin } from './audit.ts';
import { authenticate, bearerToken } from './authenticate.ts';
import { AUTH_RATE_LIMIT_PREFIX, rateLimitRedis } from './rate-limit-redis.ts';
import { changePasswordRoute } from './change-password.ts';
import { requestEmailLink, signInWithEmailLink } from './email-link.ts';
import type { Identity } from './identity.ts';
import { confirmPasswordReset, requestPasswordReset } from './password-reset.ts';
import { refreshSession, signOut, signOutAll } from './session-commands.ts';
import { signInWithPassword, type TIssuedSession } from './sign-in.ts';
import { signUp } from './sign-up.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 429: ZErrorBody };
const tags = ['auth'];

function origin(request: FastifyRequest): TRequestOrigin & { ip: string } {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

/**
 * The identity API under /api/v1/auth: thin handlers over the commands of this folder. redisUrl:
 * REDIS_URL, where the per-IP limit is counted when set (shared by every replica).
 */
export const authRoutes =
  (identity: Identity, options: { redisUrl: string | null }): FastifyPluginAsyncZod =>
  async (app) => {
    const ctx = identity.context;
    const secureCookie = ctx.publicUrl.startsWith('https:');
    await app.register(cookie);
    const redis = options.redisUrl ? await rateLimitRedis(options.redisUrl, app.log) : null;
    if (redis) app.addHook('onClose', async () => redis.close());
    await app.register(rateLimit, {
      ...(redis ? { redis: redis.client, nameSpace: AUTH_RATE_LIMIT_PREFIX, skipOnError: true } : {}),
      global: true,
      max: ctx.config.rateLimitPerMinute,
      timeWindow: 60_000,
      keyGenerator: (request) => request.ip,
      errorResponseBuilder: (_request, context) =>
        tooManyRequests(Math.max(1, Math.ceil(context.ttl / 1000))),
    });
    app.setErrorHandler(authErrorHandler);

    const sendSession = (reply: FastifyReply, session: TIssuedSession) => {
      reply.setCookie(REFRESH_COOKIE_NAME, session.body.refresh_token, {
        path: REFRESH_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: secureCookie,
        expires: session.refreshExpiresAt,
      });
      return session.body;
    };
    // A browser that signed in keeps a device cookie for the account (see DeviceCookies): the
    // throttle counts its failures on its own, so others' guesses never keep it out.
    const rememberDevice = (request: FastifyRequest, reply: FastifyReply, session: TIssuedSession) => {
      const account = session.body.user.email.trim().toLowerCase();
      const now = new Date();
      const cookie = ctx.devices.issue(account, ctx.devices.deviceOf(account, request.cookies, now), now);
      reply.setCookie(cookie.name, cookie.value, {
        path: cookie.path,
        httpOnly: true,
        sameSite: 'strict',
        secure: secureCookie,
        expires: cookie.expires,
      });
      return session;
    };
    const clearSession = (reply: FastifyReply) =>
      reply.clearCookie(REFRESH_COOKIE_NAME, {
        path: REFRESH_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'strict',
      });
    const refreshTokenOf = (
      request: FastifyRequest,
      body: { refresh_token?: string | undefined } | undefined,
    ) => body?.refresh_token ?? request.cookies[REFRESH_COOKIE_NAME] ?? null;

    app.post(
      '/sign-up',
      {
        schema: {
          tags,
          summary: 'Create an account (no organisation or role until an admin assigns them)',
          description:
            'Answers 201 with the same message whether or not the address already had an account; the owner of an existing account is e-mailed instead. With AUTH_REVEAL_ACCOUNT_ERRORS an existing address answers 409 auth/email-already-in-use.',
          body: ZSignUpRequest,
          response: { 201: ZNeutralResponse, 409: ZErrorBody, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await signUp(ctx, request.body, origin(request), reply.raw)),
    );

    app.post(
      '/sign-in',
      {
        schema: {
          tags,
          summary: 'Sign in with e-mail and password',
          description:
            'Also sets the refresh token as an httpOnly SameSite=Strict cookie scoped to /api/v1/auth, and a device cookie for the account (180 days by default) with which this browser keeps signing in while others guess its password. Failed sign-ins are counted per account and source; past a limit each attempt must wait longer: 429 auth/too-many-requests with Retry-After and details.retry_after_seconds.',
          body: ZSignInRequest,
          response: { 200: ZSessionResponse, ...errors },
        },
      },
      async (request, reply) => {
        const client = { cookies: request.cookies, response: reply.raw };
        const session = await signInWithPassword(ctx, request.body, origin(request), client);
        return sendSession(reply, rememberDevice(request, reply, session));
      },
    );

    app.post(
      '/refresh',
      {
        schema: {
          tags,
          summary: 'Exchange a refresh token (cookie or body) for a new ID token and refresh token',
          body: ZRefreshRequest.optional(),
          response: { 200: ZSessionResponse, ...errors },
        },
      },
      async (request, reply) => {
        const token = refreshTokenOf(request, request.body);
        if (!token) throw unauthenticated('No refresh token: sign in again.');
        const fromCookie = request.body?.refresh_token === undefined;
        try {
          return sendSession(reply, await refreshSession(ctx, token, origin(request), { fromCookie }));
        } catch (error) {
          clearSession(reply);
          throw error;
        }
      },
    );

    app.post(
      '/sign-out',
      {
        schema: {
          tags,
          summary: 'End this session (bearer ID token, or the refresh token when the ID token has expired)',
          security: [{ bearerAuth: [] }, {}],
          body: ZRefreshRequest.optional(),
          response: { 200: ZNeutralResponse, ...errors },
        },
      },
      async (request, reply) => {
        clearSession(reply);
        let failure: unknown = unauthenticated();
        try {
          // A malformed header throws here too: the refresh token below may still end the session.
          const token = bearerToken(request);
          if (token !== null) {
            const principal = await identity.verifier.verify(token);
            return await signOut(ctx, principal, origin(request));
          }
        } catch (error) {
          failure = error;
        }
        const refreshToken = refreshTokenOf(request, request.body);
        const session = refreshToken ? await ctx.sessions.sessionOf(refreshToken) : null;
        if (!session) throw failure;
        return signOut(ctx, { ...session, organisationId: null }, origin(request));
      },
    );

    app.post(
      '/sign-out-all',
      {
        onRequest: authenticate(identity.verifier),
        schema: {
          tags,
          summary: 'End every session of the caller; every ID token issued so far stops working at once',
          security: [{ bearerAuth: [] }],
          response: { 200: ZNeutralResponse, ...errors },
        },
      },
      async (request, reply) => {
        const principal = request.principal;
        if (!principal) throw unauthenticated();
        clearSession(reply);
        return signOutAll(ctx, principal, origin(request));
      },
    );

    await app.register(changePasswordRoute(identity));

    app.post(
      '/password-reset/request',
      {
        schema: {
          tags,
          summary: 'E-mail a one-time password reset link (same answer for every address)',
          body: ZPasswordResetRequest,
          response: { 200: ZNeutralResponse, ...errors },
        },
      },
      async (request, reply) => requestPasswordReset(ctx, request.body, origin(request), reply.raw),
    );

    app.post(
      '/password-reset/confirm',
      {
        schema: {
          tags,
          summary: 'Set a new password with a reset token; ends every session of the account',
          body: ZPasswordResetConfirm,
          response: { 200: ZNeutralResponse, ...errors },
        },
      },
      async (request) => confirmPasswordReset(ctx, request.body, origin(request)),
    );

    app.post(
      '/email-link/request',
      {
        schema: {
          tags,
          summary: 'E-mail a one-time sign-in link (same answer for every address)',
          body: ZEmailLinkRequest,
          response: { 200: ZNeutralResponse, ...errors },
        },
      },
      async (request, reply) => requestEmailLink(ctx, request.body, origin(request), reply.raw),
    );

    app.post(
      '/email-link/sign-in',
      {
        schema: {
          tags,
          summary: 'Sign in with the token of an e-mailed link (POST only: mail scanners follow GETs)',
          body: ZEmailLinkSignIn,
          response: { 200: ZSessionResponse, ...errors },
        },
      },
      async (request, reply) =>
        sendSession(
          reply,
          rememberDevice(request, reply, await signInWithEmailLink(ctx, request.body, origin(request))),
        ),
    );

    app.get(
      '/password-policy',
      {
        schema: {
          tags,
          summary: 'Password rules to show and check before submitting',
          response: { 200: ZPasswordPolicy },
        },
      },
      async () => ctx.policy,
    );

    app.get(
      '/config',
      { schema: { tags, summary: 'What sign-in offers on this deployment', response: { 200: ZAuthConfig } } },
      async () => ({
        signup_enabled: ctx.config.signupEnabled,
        email_link_enabled: ctx.config.emailLinkEnabled,
        providers: ctx.config.emailLinkEnabled
          ? ['password' as const, 'email-link' as const]
          : ['password' as const],
      }),
    );
  };
