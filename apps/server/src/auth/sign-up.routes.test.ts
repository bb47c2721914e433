import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboundMessages, users } from '../db/schema/index.ts';
import { signIn } from '../test/auth-helpers.ts';
import { buildUser, TEST_PASSWORD } from '../test/factories.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';

let server: TTestServer;
let reveal: TTestServer;
let closed: TTestServer;

beforeAll(async () => {
  [server, reveal, closed] = await Promise.all([
    startTestServer(),
    startTestServer({ env: { AUTH_REVEAL_ACCOUNT_ERRORS: 'true', AUTH_PASSWORD_MIN_LENGTH: '12' } }),
    startTestServer({ env: { AUTH_SIGNUP_ENABLED: 'false', AUTH_EMAIL_LINK_ENABLED: 'false' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server.close(), reveal.close(), closed.close()]);
});

const signUp = (target: TTestServer, body: Record<string, unknown>) =>
  target.request('POST', '/api/v1/auth/sign-up', { body });

describe('POST /auth/sign-up', () => {
  it('creates an active user with no organisation and no role, who can then sign in', async () => {
    const response = await signUp(server, {
      email: 'New.Person@Example.test',
      password: 'a-good-password',
      first_name: 'New',
      last_name: 'Person',
    });
    expect(response.status, response.text).toBe(201);
    // The account has no organisation yet: the answer says so and who to ask, not "sign in now".
    expect(response.json).toEqual({
      message:
        "Your account was created. An administrator of your group must add you to an organisation before you can sign in — ask your group's RIS administrator.",
    });
    const [user] = await server.db.select().from(users).where(eq(users.email, 'new.person@example.test'));
    expect(user).toMatchObject({
      organisationId: null,
      role: null,
      status: 'ACTIVE',
      displayName: 'New Person',
    });
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
    const session = await signIn(server, 'new.person@example.test', 'a-good-password');
    expect(session.user).toMatchObject({ organisation_fk: null, role: null, facility_fks: [] });
  });

  it('answers an existing address exactly like a new one, e-mails its owner and changes nothing', async () => {
    const owner = await buildUser(server.db);
    const fresh = await signUp(server, { email: 'another-new@example.test', password: 'a-good-password' });
    const existing = await signUp(server, { email: owner.email, password: 'attacker-password' });
    expect(existing.status).toBe(fresh.status);
    expect(existing.text).toBe(fresh.text);
    await server.identity.settled();
    const mails = await server.db
      .select()
      .from(outboundMessages)
      .where(eq(outboundMessages.recipient, owner.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ channel: 'email', status: 'PENDING' });
    expect(mails[0]?.body).toContain('/forgot-password');
    expect((await signIn(server, owner.email, TEST_PASSWORD)).user.id).toBe(owner.id);
  });

  it('refuses a weak password with auth/weak-password naming the rule', async () => {
    const short = await signUp(server, { email: 'weak@example.test', password: 'short' });
    expect(short.status).toBe(400);
    expect(short.json).toEqual({
      error: {
        code: 'auth/weak-password',
        message: 'Password must be at least 8 characters.',
        details: { field: 'password', rule: 'min_length', min_length: 8 },
      },
    });
    const same = await signUp(server, { email: 'same@example.test', password: 'same@example.test' });
    expect(same.json).toMatchObject({
      error: { code: 'auth/weak-password', details: { rule: 'not_email' } },
    });
    const [{ count } = { count: -1 }] = await server.db
      .select({ count: sql<number>`count(*)::int` })
      .from(users)
      .where(and(eq(users.email, 'weak@example.test')));
    expect(count).toBe(0);
  });

  it('names the field of bad input', async () => {
    const noPassword = await signUp(server, { email: 'x@example.test' });
    expect(noPassword.status).toBe(400);
    expect((noPassword.json as { error: { message: string } }).error.message).toContain('password');
    const badEmail = await signUp(server, { email: 'x@', password: 'a-good-password' });
    expect(badEmail.json).toMatchObject({ error: { code: 'auth/invalid-email' } });
  });

  it('with AUTH_REVEAL_ACCOUNT_ERRORS answers 409 auth/email-already-in-use', async () => {
    const owner = await buildUser(reveal.db);
    const response = await signUp(reveal, { email: owner.email, password: 'a-long-enough-password' });
    expect(response.status).toBe(409);
    expect(response.json).toMatchObject({ error: { code: 'auth/email-already-in-use' } });
  });

  it('is refused with 403 auth/operation-not-allowed when AUTH_SIGNUP_ENABLED=false', async () => {
    const response = await signUp(closed, { email: 'x@example.test', password: 'a-good-password' });
    expect(response.status).toBe(403);
    expect(response.json).toEqual({
      error: {
        code: 'auth/operation-not-allowed',
        message:
          "Sign-up is closed on this RIS: accounts are created by an administrator of your group. Ask your group's RIS administrator to add you.",
      },
    });
  });
});

describe('GET /auth/password-policy and /auth/config', () => {
  it('serves the configured minimum length (default 8)', async () => {
    const policy = await server.request('GET', '/api/v1/auth/password-policy');
    expect(policy.status).toBe(200);
    expect(policy.json).toMatchObject({ min_length: 8, max_length: 1024 });
    expect((policy.json as { rules: string[] }).rules).toContain('At least 8 characters');
    expect((await reveal.request('GET', '/api/v1/auth/password-policy')).json).toMatchObject({
      min_length: 12,
    });
  });

  it('tells what sign-in offers', async () => {
    expect((await server.request('GET', '/api/v1/auth/config')).json).toEqual({
      signup_enabled: true,
      email_link_enabled: true,
      providers: ['password', 'email-link'],
    });
    expect((await closed.request('GET', '/api/v1/auth/config')).json).toEqual({
      signup_enabled: false,
      email_link_enabled: false,
      providers: ['password'],
    });
    const link = await closed.request('POST', '/api/v1/auth/email-link/request', {
      body: { email: 'a@example.test' },
    });
    expect(link.status).toBe(403);
  });
});
