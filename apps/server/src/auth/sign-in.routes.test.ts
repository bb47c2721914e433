import { ZSessionResponse } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, users } from '../db/schema/index.ts';
import { buildUser, TEST_PASSWORD } from '../test/factories.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';

let server: TTestServer;
let reveal: TTestServer;

beforeAll(async () => {
  [server, reveal] = await Promise.all([
    startTestServer({ env: { BODY_LIMIT_BYTES: '4096' } }),
    startTestServer({ env: { AUTH_REVEAL_ACCOUNT_ERRORS: 'true' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server.close(), reveal.close()]);
});

const signIn = (target: TTestServer, email: string, password: string) =>
  target.request('POST', '/api/v1/auth/sign-in', {
    body: { email, password },
    headers: { 'user-agent': 'vitest' },
  });

describe('POST /auth/sign-in', () => {
  it('answers a session, sets the refresh cookie and audits the sign-in', async () => {
    const user = await buildUser(server.db, { role: 'RADIOLOGIST', userType: 'REPORTER' });
    const response = await signIn(server, user.email.toUpperCase(), TEST_PASSWORD);
    expect(response.status, response.text).toBe(200);
    const session = ZSessionResponse.parse(response.json);
    expect(session.expires_in).toBe(3600);
    expect(session.user).toMatchObject({
      id: user.id,
      email: user.email,
      role: 'RADIOLOGIST',
      user_type: 'REPORTER',
    });
    expect(session.user.facility_fks).toHaveLength(1);
    expect(JSON.stringify(session.user)).not.toContain('argon2');

    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`ris_refresh=${session.refresh_token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/api\/v1\/auth/);

    const claims = JSON.parse(
      Buffer.from(session.id_token.split('.')[1] ?? '', 'base64url').toString(),
    ) as Record<string, unknown>;
    expect(claims).toMatchObject({
      sub: user.id,
      email: user.email,
      org: user.organisationId,
      role: 'RADIOLOGIST',
      user_type: 'REPORTER',
      fac: session.user.facility_fks,
      iss: server.app.deps.config.publicUrl,
    });
    expect(typeof claims.sid).toBe('string');
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);

    const [row] = await server.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.lastSignInAt).toBeInstanceOf(Date);
    const audit = await server.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'auth.sign_in'), eq(auditEvents.actorUserId, user.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ ip: '127.0.0.1', userAgent: 'vitest', data: { method: 'password' } });
    expect(JSON.stringify(audit)).not.toContain(TEST_PASSWORD);
  });

  it('gives an unknown e-mail and a wrong password the same status, code and body', async () => {
    const user = await buildUser(server.db);
    const unknown = await signIn(server, 'nobody-here@example.test', TEST_PASSWORD);
    const wrong = await signIn(server, user.email, 'not-the-password');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.json).toEqual({
      error: { code: 'auth/invalid-credential', message: 'Invalid username or password' },
    });
    expect(wrong.text).toBe(unknown.text);
    const failures = await server.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'auth.sign_in_failed'));
    expect(failures.map((f) => f.data?.reason).sort()).toEqual(['unknown_email', 'wrong_password']);
    expect(JSON.stringify(failures)).not.toContain('not-the-password');
  });

  it('refuses an account without a password like a wrong password', async () => {
    const user = await buildUser(server.db, { password: null });
    const response = await signIn(server, user.email, TEST_PASSWORD);
    expect(response.status).toBe(401);
    expect(response.json).toMatchObject({ error: { code: 'auth/invalid-credential' } });
  });

  it('says an account is disabled only after a correct password', async () => {
    const user = await buildUser(server.db, { status: 'INACTIVE' });
    const right = await signIn(server, user.email, TEST_PASSWORD);
    expect(right.status).toBe(403);
    expect(right.json).toEqual({
      error: { code: 'auth/user-disabled', message: 'This account has been disabled' },
    });
    const wrong = await signIn(server, user.email, 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ error: { code: 'auth/invalid-credential' } });
  });

  it('with AUTH_REVEAL_ACCOUNT_ERRORS tells an unknown account from a wrong password', async () => {
    const user = await buildUser(reveal.db);
    const unknown = await signIn(reveal, 'nobody-here@example.test', TEST_PASSWORD);
    expect(unknown.status).toBe(401);
    expect(unknown.json).toEqual({
      error: { code: 'auth/user-not-found', message: 'No account found with this email' },
    });
    const wrong = await signIn(reveal, user.email, 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: { code: 'auth/wrong-password', message: 'Incorrect password' } });
    expect((await signIn(reveal, user.email, TEST_PASSWORD)).status).toBe(200);
  });
});

describe('bad input', () => {
  it('names each missing field', async () => {
    const response = await server.request('POST', '/api/v1/auth/sign-in', { body: {} });
    expect(response.status).toBe(400);
    const body = response.json as { error: { code: string; message: string } };
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.message).toContain('email');
    expect(body.error.message).toContain('password');
  });

  it('answers a malformed e-mail address with auth/invalid-email naming the field', async () => {
    const response = await signIn(server, 'not-an-email', TEST_PASSWORD);
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      error: {
        code: 'auth/invalid-email',
        message: 'Invalid email address',
        details: { fields: [{ field: 'email', in: 'body', message: 'Enter a valid e-mail address' }] },
      },
    });
  });

  it('refuses an empty password and an oversize body', async () => {
    const empty = await signIn(server, 'someone@example.test', '');
    expect(empty.status).toBe(400);
    expect((empty.json as { error: { message: string } }).error.message).toContain('password');
    const huge = await signIn(server, 'someone@example.test', 'x'.repeat(5000));
    expect(huge.status).toBe(413);
    expect(huge.json).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('documents every identity route in the OpenAPI document', async () => {
    const document = (await server.request('GET', '/api/v1/openapi.json')).json as {
      paths: Record<string, Record<string, { tags?: string[]; security?: unknown[] }>>;
    };
    const auth = Object.entries(document.paths).filter(([path]) => path.startsWith('/api/v1/auth/'));
    expect(auth.map(([path]) => path).sort()).toEqual(
      [
        'config',
        'email-link/request',
        'email-link/sign-in',
        'password',
        'password-policy',
        'password-reset/confirm',
        'password-reset/request',
        'refresh',
        'sign-in',
        'sign-out',
        'sign-out-all',
        'sign-up',
      ].map((name) => `/api/v1/auth/${name}`),
    );
    for (const [, operations] of auth)
      for (const operation of Object.values(operations)) expect(operation.tags).toEqual(['auth']);
    expect(document.paths['/api/v1/auth/sign-out-all']?.post?.security).toEqual([{ bearerAuth: [] }]);
    expect(document.paths['/api/v1/auth/password']?.post?.security).toEqual([{ bearerAuth: [] }]);
    expect(document.paths['/api/v1/auth/sign-in']?.post?.security).toBeUndefined();
  });
});
