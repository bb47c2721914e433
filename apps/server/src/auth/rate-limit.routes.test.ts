import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, authSignInFailures } from '../db/schema/index.ts';
import { buildUser, TEST_PASSWORD } from '../test/factories.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';

let perAccount: TTestServer;
let perIp: TTestServer;
let requests: TTestServer;

beforeAll(async () => {
  [perAccount, perIp, requests] = await Promise.all([
    startTestServer({ env: { AUTH_MAX_FAILURES_PER_ACCOUNT: '3', AUTH_FAILURE_WINDOW_MINUTES: '15' } }),
    startTestServer({ env: { AUTH_MAX_FAILURES_PER_IP: '4', AUTH_MAX_FAILURES_PER_ACCOUNT: '100' } }),
    startTestServer({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '5' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([perAccount.close(), perIp.close(), requests.close()]);
});

const signIn = (server: TTestServer, email: string, password: string) =>
  server.request('POST', '/api/v1/auth/sign-in', { body: { email, password } });

function expectTooMany(response: Awaited<ReturnType<typeof signIn>>, maxSeconds: number): void {
  expect(response.status).toBe(429);
  expect(response.json).toMatchObject({
    error: { code: 'auth/too-many-requests', message: 'Too many failed attempts. Please try again later' },
  });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
}

describe('failed sign-ins per account', () => {
  it('counts failures only: successes never lock anyone out', async () => {
    const user = await buildUser(perAccount.db);
    for (let i = 0; i < 6; i++)
      expect((await signIn(perAccount, user.email, TEST_PASSWORD)).status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await signIn(perAccount, user.email, 'wrong-password')).status).toBe(401);
    expect((await signIn(perAccount, user.email, TEST_PASSWORD)).status).toBe(200);
    const rows = await perAccount.db
      .select()
      .from(authSignInFailures)
      .where(eq(authSignInFailures.key, user.email));
    expect(rows).toHaveLength(2);
  });

  it('answers 429 with Retry-After once an account reaches the limit, even with the right password', async () => {
    const user = await buildUser(perAccount.db);
    const other = await buildUser(perAccount.db);
    for (let i = 0; i < 3; i++)
      expect((await signIn(perAccount, user.email, 'wrong-password')).status).toBe(401);
    expectTooMany(await signIn(perAccount, user.email, TEST_PASSWORD), 15 * 60);
    expectTooMany(await signIn(perAccount, user.email.toUpperCase(), 'wrong-password'), 15 * 60);
    // Another account from the same address is not affected.
    expect((await signIn(perAccount, other.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('holds under concurrency: of 20 simultaneous wrong guesses at most 3 are checked', async () => {
    const user = await buildUser(perAccount.db);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => signIn(perAccount, user.email, 'wrong-password')),
    );
    const checked = results.filter((response) => response.status === 401).length;
    const refused = results.filter((response) => response.status === 429).length;
    expect(checked + refused).toBe(20);
    // Every guess whose password was evaluated left an audit row and a failure row; no slack.
    const audited = await perAccount.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, user.id), eq(auditEvents.action, 'auth.sign_in_failed')));
    const failures = await perAccount.db
      .select()
      .from(authSignInFailures)
      .where(eq(authSignInFailures.key, user.email));
    expect(audited).toHaveLength(checked);
    expect(failures).toHaveLength(checked);
    expect(checked).toBeLessThanOrEqual(3);
  });

  it('counts unknown e-mail addresses like known ones', async () => {
    for (let i = 0; i < 3; i++)
      expect((await signIn(perAccount, 'ghost@example.test', 'x')).status).toBe(401);
    expectTooMany(await signIn(perAccount, 'ghost@example.test', 'x'), 15 * 60);
  });

  it('lets the account in again when its failures leave the window', async () => {
    const user = await buildUser(perAccount.db);
    for (let i = 0; i < 3; i++) await signIn(perAccount, user.email, 'wrong-password');
    expect((await signIn(perAccount, user.email, TEST_PASSWORD)).status).toBe(429);
    await perAccount.db
      .update(authSignInFailures)
      .set({ createdAt: new Date(Date.now() - 16 * 60_000) })
      .where(eq(authSignInFailures.key, user.email));
    expect((await signIn(perAccount, user.email, TEST_PASSWORD)).status).toBe(200);
  });
});

describe('failed sign-ins per IP', () => {
  it('answers 429 once one address has failed too often, whatever the account', async () => {
    const user = await buildUser(perIp.db);
    for (let i = 0; i < 4; i++) {
      expect((await signIn(perIp, `someone-${i}@example.test`, 'wrong-password')).status).toBe(401);
    }
    expectTooMany(await signIn(perIp, user.email, TEST_PASSWORD), 15 * 60);
  });
});

describe('requests per IP on the identity routes', () => {
  it('answers 429 auth/too-many-requests with Retry-After beyond AUTH_RATE_LIMIT_PER_MINUTE', async () => {
    for (let i = 0; i < 5; i++)
      expect((await requests.request('GET', '/api/v1/auth/config')).status).toBe(200);
    const limited = await requests.request('GET', '/api/v1/auth/password-policy');
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ error: { code: 'auth/too-many-requests' } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Only the identity routes are limited this way.
    expect((await requests.request('GET', '/healthz')).status).toBe(200);
  });
});
