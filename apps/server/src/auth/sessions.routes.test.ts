import type { TSessionResponse } from '@ris/domain';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, authRefreshTokens, authSessions } from '../db/schema/index.ts';
import { signIn, tokenFor } from '../test/auth-helpers.ts';
import { buildUser, TEST_PASSWORD } from '../test/factories.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { disableUser } from './disable-user.ts';
import { revokeUserTokens } from './revocation.ts';

let server: TTestServer;
let noGrace: TTestServer;

// A secured probe route: stands for every route of the authenticated scope.
const probe = async (secured: FastifyInstance) => {
  secured.get('/probe/me', async (request) => ({ user_id: request.principal?.userId ?? null }));
};

beforeAll(async () => {
  [server, noGrace] = await Promise.all([
    startTestServer({ securedRoutes: probe }),
    startTestServer({ env: { AUTH_REFRESH_REUSE_GRACE_SECONDS: '0' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server.close(), noGrace.close()]);
});

const me = (token?: string) => server.request('GET', '/api/v1/probe/me', token ? { token } : {});
const refresh = (token: string, via: 'body' | 'cookie' = 'body', on: TTestServer = server) =>
  on.request(
    'POST',
    '/api/v1/auth/refresh',
    via === 'body'
      ? { body: { refresh_token: token } }
      : { body: {}, headers: { cookie: `ris_refresh=${token}` } },
  );

async function newSession(on: TTestServer = server): Promise<{ userId: string; session: TSessionResponse }> {
  const user = await buildUser(on.db);
  return { userId: user.id, session: await signIn(on, user.email, TEST_PASSWORD) };
}

const sidOf = (idToken: string) =>
  (JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()) as { sid: string }).sid;

async function sessionRow(on: TTestServer, userId: string) {
  const rows = await on.db.select().from(authSessions).where(eq(authSessions.userId, userId));
  expect(rows).toHaveLength(1);
  return rows[0];
}

/** Moves the use of a refresh token back in time (instead of waiting for the grace to pass). */
async function usedSecondsAgo(on: TTestServer, sessionId: string, seconds: number): Promise<void> {
  await on.db
    .update(authRefreshTokens)
    .set({ usedAt: new Date(Date.now() - seconds * 1000) })
    .where(and(eq(authRefreshTokens.sessionId, sessionId), isNotNull(authRefreshTokens.usedAt)));
}

describe('the authenticate hook', () => {
  it('lets a valid token through and sets request.principal', async () => {
    const { userId, session } = await newSession();
    const response = await me(session.id_token);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ user_id: userId });
  });

  it('answers 401 UNAUTHENTICATED without a token, with a garbled one or a wrongly signed one', async () => {
    const { session } = await newSession();
    const [header, payload] = session.id_token.split('.');
    for (const token of [undefined, 'garbage', `${header}.${payload}.AAAA`, `${header}.${payload}`]) {
      const response = await me(token);
      expect(response.status, String(token)).toBe(401);
      expect(response.json).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    }
    const basic = await server.request('GET', '/api/v1/probe/me', {
      headers: { authorization: 'Basic abc' },
    });
    expect(basic.status).toBe(401);
  });

  it('answers auth/id-token-expired for an expired token', async () => {
    const user = await buildUser(server.db);
    const token = await tokenFor(server, user);
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      sid: string;
      fac: string[];
    };
    const old = await server.identity.context.tokens.sign(
      {
        sub: user.id,
        email: user.email,
        org: user.organisationId,
        role: user.role,
        user_type: null,
        fac: claims.fac,
        sid: claims.sid,
      },
      Date.now() - 2 * 3600_000,
    );
    const response = await me(old);
    expect(response.status).toBe(401);
    expect(response.json).toMatchObject({ error: { code: 'auth/id-token-expired' } });
  });
});

describe('POST /auth/refresh', () => {
  it('rotates the refresh token (body or cookie) and keeps the session', async () => {
    const { session } = await newSession();
    const first = await refresh(session.refresh_token);
    expect(first.status, first.text).toBe(200);
    const next = first.json as TSessionResponse;
    expect(next.refresh_token).not.toBe(session.refresh_token);
    expect(first.headers.get('set-cookie')).toContain(`ris_refresh=${next.refresh_token}`);
    const sid = (token: string) =>
      (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sid: string }).sid;
    expect(sid(next.id_token)).toBe(sid(session.id_token));

    const second = await refresh(next.refresh_token, 'cookie');
    expect(second.status, second.text).toBe(200);
    expect((await me((second.json as TSessionResponse).id_token)).status).toBe(200);
  });

  it('revokes the whole family when a used refresh token comes back', async () => {
    const { userId, session } = await newSession();
    const rotated = (await refresh(session.refresh_token)).json as TSessionResponse;
    const replay = await refresh(session.refresh_token);
    expect(replay.status).toBe(401);
    expect(replay.json).toMatchObject({ error: { code: 'auth/invalid-refresh-token' } });
    expect(replay.headers.get('set-cookie')).toMatch(/ris_refresh=;/);
    // The thief's and the owner's tokens of that session are all dead now.
    expect((await refresh(rotated.refresh_token)).status).toBe(401);
    const revoked = await me(rotated.id_token);
    expect(revoked.status).toBe(401);
    expect(revoked.json).toMatchObject({ error: { code: 'auth/id-token-revoked' } });
    const [row] = await server.db.select().from(authSessions).where(eq(authSessions.userId, userId));
    expect(row?.revokedReason).toBe('refresh_reuse');
    const audit = await server.db.select().from(auditEvents).where(eq(auditEvents.entityId, userId));
    expect(audit.map((event) => event.action)).toContain('auth.refresh_reuse');
  });

  it('refuses a missing, unknown or expired refresh token', async () => {
    const none = await server.request('POST', '/api/v1/auth/refresh', { body: {} });
    expect(none.status).toBe(401);
    expect((await refresh('not-a-real-token')).json).toMatchObject({
      error: { code: 'auth/invalid-refresh-token' },
    });
    const { userId, session } = await newSession();
    await server.db
      .update(authRefreshTokens)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(authRefreshTokens.userId, userId));
    for (const via of ['body', 'cookie'] as const) {
      const expired = await refresh(session.refresh_token, via);
      expect(expired.status, via).toBe(401);
      expect(expired.json).toMatchObject({ error: { code: 'auth/invalid-refresh-token' } });
      expect(expired.headers.get('set-cookie')).toMatch(/ris_refresh=;/);
    }
  });

  describe('two tabs refreshing with the same cookie (no Web Locks on plain http)', () => {
    it('the cookie rotated moments ago gets a new token of the same session instead of ending it', async () => {
      const { userId, session } = await newSession();
      const first = await refresh(session.refresh_token, 'cookie');
      expect(first.status, first.text).toBe(200);
      const second = await refresh(session.refresh_token, 'cookie');
      expect(second.status, second.text).toBe(200);
      const [one, two] = [first.json as TSessionResponse, second.json as TSessionResponse];
      expect(two.refresh_token).not.toBe(one.refresh_token);
      expect(sidOf(two.id_token)).toBe(sidOf(session.id_token));
      expect(second.headers.get('set-cookie')).toContain(`ris_refresh=${two.refresh_token}`);
      expect((await sessionRow(server, userId))?.revokedAt).toBeNull();
      for (const token of [one.id_token, two.id_token]) expect((await me(token)).status).toBe(200);
      // Whichever cookie the browser kept refreshes on; the session still has one line of tokens.
      const next = await refresh(two.refresh_token, 'cookie');
      expect(next.status, next.text).toBe(200);
      expect((await me((next.json as TSessionResponse).id_token)).status).toBe(200);
    });

    it('many tabs at once with one cookie: every one gets a session, none ends it', async () => {
      const { userId, session } = await newSession();
      const results = await Promise.all(
        Array.from({ length: 6 }, () => refresh(session.refresh_token, 'cookie')),
      );
      expect(results.map((response) => response.status)).toEqual(Array(6).fill(200));
      expect((await sessionRow(server, userId))?.revokedAt).toBeNull();
      const sids = results.map((response) => sidOf((response.json as TSessionResponse).id_token));
      expect(new Set(sids)).toEqual(new Set([sidOf(session.id_token)]));
    });

    it('after the grace window the same cookie is a replay again: the whole session ends', async () => {
      const { userId, session } = await newSession();
      const rotated = (await refresh(session.refresh_token, 'cookie')).json as TSessionResponse;
      await usedSecondsAgo(server, sidOf(session.id_token), 11);
      const replay = await refresh(session.refresh_token, 'cookie');
      expect(replay.status).toBe(401);
      expect(replay.json).toMatchObject({ error: { code: 'auth/invalid-refresh-token' } });
      expect((await sessionRow(server, userId))?.revokedReason).toBe('refresh_reuse');
      expect((await refresh(rotated.refresh_token, 'cookie')).status).toBe(401);
      expect((await me(rotated.id_token)).status).toBe(401);
    });

    it('only the token rotated last gets the grace: an older one ends the session even within it', async () => {
      const { userId, session } = await newSession();
      const one = (await refresh(session.refresh_token, 'cookie')).json as TSessionResponse;
      const two = (await refresh(one.refresh_token, 'cookie')).json as TSessionResponse;
      const replay = await refresh(session.refresh_token, 'cookie');
      expect(replay.status).toBe(401);
      expect((await sessionRow(server, userId))?.revokedReason).toBe('refresh_reuse');
      expect((await refresh(two.refresh_token, 'cookie')).status).toBe(401);
    });

    it('a token sent in the body, or any token with AUTH_REFRESH_REUSE_GRACE_SECONDS=0, gets no grace', async () => {
      const viaBody = await newSession();
      expect((await refresh(viaBody.session.refresh_token)).status).toBe(200);
      expect((await refresh(viaBody.session.refresh_token)).status).toBe(401);
      expect((await sessionRow(server, viaBody.userId))?.revokedReason).toBe('refresh_reuse');

      const strict = await newSession(noGrace);
      expect((await refresh(strict.session.refresh_token, 'cookie', noGrace)).status).toBe(200);
      expect((await refresh(strict.session.refresh_token, 'cookie', noGrace)).status).toBe(401);
      expect((await sessionRow(noGrace, strict.userId))?.revokedReason).toBe('refresh_reuse');
    });
  });

  it('refuses to refresh for a disabled user', async () => {
    const { userId, session } = await newSession();
    await disableUser(server.db, userId, { actorUserId: null });
    const response = await refresh(session.refresh_token);
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ error: { code: 'auth/user-disabled' } });
  });
});

describe('signing out', () => {
  it('sign-out ends this session at once and leaves the others', async () => {
    const user = await buildUser(server.db);
    const here = await signIn(server, user.email, TEST_PASSWORD);
    const there = await signIn(server, user.email, TEST_PASSWORD);
    const response = await server.request('POST', '/api/v1/auth/sign-out', {
      token: here.id_token,
      body: {},
    });
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(/ris_refresh=;/);
    expect((await me(here.id_token)).json).toMatchObject({ error: { code: 'auth/id-token-revoked' } });
    expect((await refresh(here.refresh_token)).status).toBe(401);
    expect((await me(there.id_token)).status).toBe(200);
  });

  it('sign-out works with only the refresh cookie (expired ID token)', async () => {
    const { session } = await newSession();
    const response = await server.request('POST', '/api/v1/auth/sign-out', {
      body: {},
      headers: { cookie: `ris_refresh=${session.refresh_token}` },
    });
    expect(response.status).toBe(200);
    expect((await me(session.id_token)).status).toBe(401);
    expect((await server.request('POST', '/api/v1/auth/sign-out', { body: {} })).status).toBe(401);
  });

  it('sign-out with a malformed Authorization header still ends the session of the refresh cookie', async () => {
    for (const authorization of ['Bearer', 'Basic abc']) {
      const { userId, session } = await newSession();
      const response = await server.request('POST', '/api/v1/auth/sign-out', {
        body: {},
        headers: { authorization, cookie: `ris_refresh=${session.refresh_token}` },
      });
      expect(response.status, authorization).toBe(200);
      const live = await server.db
        .select()
        .from(authSessions)
        .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)));
      expect(live, authorization).toHaveLength(0);
      expect((await me(session.id_token)).status, authorization).toBe(401);
    }
    // Without any refresh token, the malformed header is still what the caller hears about.
    const bare = await server.request('POST', '/api/v1/auth/sign-out', {
      body: {},
      headers: { authorization: 'Bearer' },
    });
    expect(bare.status).toBe(401);
    expect(bare.json).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
  });

  it('sign-out-all ends every session of the caller', async () => {
    const user = await buildUser(server.db);
    const one = await signIn(server, user.email, TEST_PASSWORD);
    const two = await signIn(server, user.email, TEST_PASSWORD);
    const response = await server.request('POST', '/api/v1/auth/sign-out-all', { token: one.id_token });
    expect(response.status, response.text).toBe(200);
    for (const session of [one, two]) {
      expect((await me(session.id_token)).json).toMatchObject({ error: { code: 'auth/id-token-revoked' } });
      expect((await refresh(session.refresh_token)).status).toBe(401);
    }
    // Signing in again right away works (same second as the revocation).
    const again = await signIn(server, user.email, TEST_PASSWORD);
    expect((await me(again.id_token)).status).toBe(200);
    expect((await server.request('POST', '/api/v1/auth/sign-out-all', {})).status).toBe(401);
  });
});

describe('revocation from the rest of the app', () => {
  it('a disabled user is rejected at once on every secured route, and it is audited', async () => {
    const admin = await buildUser(server.db, { role: 'ADMIN' });
    const { userId, session } = await newSession();
    expect((await me(session.id_token)).status).toBe(200);
    await disableUser(server.db, userId, { actorUserId: admin.id });
    const response = await me(session.id_token);
    expect(response.status).toBe(401);
    expect(response.json).toMatchObject({ error: { code: 'auth/id-token-revoked' } });
    const [event] = await server.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, userId), eq(auditEvents.action, 'auth.user_disabled')));
    expect(event).toMatchObject({ actorUserId: admin.id, entityId: userId });
  });

  it('revokeUserTokens inside a caller transaction rejects the old tokens after commit', async () => {
    const { userId, session } = await newSession();
    expect((await me(session.id_token)).status).toBe(200);
    await server.db.transaction(async (tx) => revokeUserTokens(tx, userId));
    expect((await me(session.id_token)).status).toBe(401);
  });
});
