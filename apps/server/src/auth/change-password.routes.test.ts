import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, users } from '../db/schema/index.ts';
import { signIn } from '../test/auth-helpers.ts';
import { buildUser, TEST_PASSWORD } from '../test/factories.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { PASSWORD_UPDATED_MESSAGE, WRONG_CURRENT_PASSWORD_MESSAGE } from './change-password.ts';
import { disableUser } from './disable-user.ts';

let server: TTestServer;
let strict: TTestServer;

const probe = async (secured: FastifyInstance) => {
  secured.get('/probe/me', async (request) => ({ user_id: request.principal?.userId ?? null }));
};

beforeAll(async () => {
  [server, strict] = await Promise.all([
    startTestServer({ securedRoutes: probe }),
    // Two failures per account and source before the delays start.
    startTestServer({ env: { AUTH_MAX_FAILURES_PER_ACCOUNT: '2', AUTH_BACKOFF_BASE_SECONDS: '60' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server.close(), strict.close()]);
});

const NEW_PASSWORD = 'a-brand-new-passphrase';

const change = (token: string | undefined, body: unknown, on: TTestServer = server) =>
  on.request('POST', '/api/v1/auth/password', { body, ...(token ? { token } : {}) });
const me = (token: string) => server.request('GET', '/api/v1/probe/me', { token });
const signInStatus = async (on: TTestServer, email: string, password: string) =>
  (await on.request('POST', '/api/v1/auth/sign-in', { body: { email, password } })).status;
const hashOf = async (on: TTestServer, id: string) =>
  (await on.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, id)))[0]?.hash;

describe('POST /auth/password', () => {
  it('sets the new password, keeps this session and ends every other one', async () => {
    const user = await buildUser(server.db);
    const here = await signIn(server, user.email, TEST_PASSWORD);
    const elsewhere = await signIn(server, user.email, TEST_PASSWORD);
    expect((await me(elsewhere.id_token)).status).toBe(200);

    const response = await change(here.id_token, {
      current_password: TEST_PASSWORD,
      new_password: NEW_PASSWORD,
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ message: PASSWORD_UPDATED_MESSAGE });

    expect((await me(here.id_token)).status).toBe(200);
    const refused = await me(elsewhere.id_token);
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ error: { code: 'auth/id-token-revoked' } });
    const refresh = await server.request('POST', '/api/v1/auth/refresh', {
      body: { refresh_token: elsewhere.refresh_token },
    });
    expect(refresh.status).toBe(401);
    expect(await signInStatus(server, user.email, TEST_PASSWORD)).toBe(401);
    expect(await signInStatus(server, user.email, NEW_PASSWORD)).toBe(200);
    const audit = await server.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'auth.password_changed'), eq(auditEvents.actorUserId, user.id)));
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0])).not.toContain(NEW_PASSWORD);
  });

  it('refuses a wrong current password naming current_password; nothing changes', async () => {
    const user = await buildUser(server.db);
    const { id_token: token } = await signIn(server, user.email, TEST_PASSWORD);
    const before = await hashOf(server, user.id);
    const response = await change(token, { current_password: 'not-it-at-all', new_password: NEW_PASSWORD });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      error: {
        message: WRONG_CURRENT_PASSWORD_MESSAGE,
        details: { field: 'current_password', fields: [{ field: 'current_password' }] },
      },
    });
    expect(await hashOf(server, user.id)).toBe(before);
    expect((await me(token)).status).toBe(200);
  });

  it('refuses a new password the policy refuses, or the current one again, naming new_password', async () => {
    const user = await buildUser(server.db);
    const { id_token: token } = await signIn(server, user.email, TEST_PASSWORD);
    const before = await hashOf(server, user.id);
    for (const newPassword of ['short', user.email.toUpperCase(), TEST_PASSWORD]) {
      const response = await change(token, { current_password: TEST_PASSWORD, new_password: newPassword });
      expect(response.status, newPassword).toBe(400);
      expect(response.json).toMatchObject({
        error: { code: 'auth/weak-password', details: { field: 'new_password' } },
      });
    }
    expect(await hashOf(server, user.id)).toBe(before);
  });

  it('answers 400 naming a missing field, and 401 without a token', async () => {
    const user = await buildUser(server.db);
    const { id_token: token } = await signIn(server, user.email, TEST_PASSWORD);
    const missing = await change(token, { new_password: NEW_PASSWORD });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.json)).toContain('current_password');
    const anonymous = await change(undefined, {
      current_password: TEST_PASSWORD,
      new_password: NEW_PASSWORD,
    });
    expect(anonymous.status).toBe(401);
  });

  it('refuses a disabled user (their token is revoked)', async () => {
    const user = await buildUser(server.db);
    const { id_token: token } = await signIn(server, user.email, TEST_PASSWORD);
    await disableUser(server.db, user.id, { actorUserId: null });
    const response = await change(token, { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD });
    expect(response.status).toBe(401);
    expect(await signInStatus(server, user.email, NEW_PASSWORD)).toBe(401);
  });

  it('counts wrong current passwords like failed sign-ins: past the limit it answers 429', async () => {
    const user = await buildUser(strict.db);
    const { id_token: token } = await signIn(strict, user.email, TEST_PASSWORD);
    const wrong = { current_password: 'guess-number-one', new_password: NEW_PASSWORD };
    expect((await change(token, wrong, strict)).status).toBe(400);
    expect((await change(token, wrong, strict)).status).toBe(400);
    const delayed = await change(token, { ...wrong, current_password: TEST_PASSWORD }, strict);
    expect(delayed.status).toBe(429);
    expect(delayed.json).toMatchObject({ error: { code: 'auth/too-many-requests' } });
    expect(delayed.headers.get('retry-after')).not.toBeNull();
  });
});
