import type { TSessionResponse } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, authSessions } from '../db/schema/index.ts';
import { signIn, tokenFor } from '../test/auth-helpers.ts';
import { buildUser, TEST_PASSWORD } from '../test/factories.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { disableUser } from './disable-user.ts';
import { revokeUserTokens } from './revocation.ts';

let server: TTestServer;

// A secured probe route: stands for every route of the authenticated scope.
const probe = async (secured: FastifyInstance) => {
  secured.get('/probe/me', async (request) => ({ user_id: request.principal?.userId ?? null }));
};

beforeAll(async () => {
  server = await startTestServer({ securedRoutes: probe });
});
afterAll(async () => {
  await server.close();
});

const me = (token?: string) => server.request('GET', '/api/v1/probe/me', token ? { token } : {});
const refresh = (token: string, via: 'body' | 'cookie' = 'body') =>
  server.request(
    'POST',
    '/api/v1/auth/refresh',
    via === 'body'
      ? { body: { refresh_token: token } }
      : { body: {}, headers: { cookie: `ris_refresh=${token}` } },
  );

async function newSession(): Promise<{ userId: string; session: TSessionResponse }> {
  const user = await buildUser(server.db);
  return { userId: user.id, session: await signIn(server, user.email, TEST_PASSWORD) };
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
