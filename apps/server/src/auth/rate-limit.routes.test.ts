import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, authSignInFailures } from '../db/schema/index.ts';
import { buildUser, TEST_PASSWORD } from '../test/factories.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { ageFailures, expectDelayed, newIp, signInFrom } from '../test/throttle-test-helpers.ts';

// Limits low enough to reach in a test: 3 failures per account and source, 6 per account from every
// unknown browser, 4 accounts per IP; then 60 s, doubled at each failure, at most 600 s.
const LIMITS = {
  TRUST_PROXY: 'true',
  PUBLIC_URL: 'https://ris.example.test',
  AUTH_MAX_FAILURES_PER_ACCOUNT: '3',
  AUTH_MAX_FAILURES_ALL_IPS: '6',
  AUTH_MAX_ACCOUNTS_PER_IP: '4',
  AUTH_FAILURE_WINDOW_MINUTES: '60',
  AUTH_BACKOFF_BASE_SECONDS: '60',
  AUTH_BACKOFF_MAX_SECONDS: '600',
};

let server: TTestServer;
let requests: TTestServer;

beforeAll(async () => {
  [server, requests] = await Promise.all([
    startTestServer({ env: LIMITS }),
    startTestServer({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '5' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server.close(), requests.close()]);
});

const wrong = 'wrong-password';

async function failTimes(ip: string, email: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) expect((await signInFrom(server, ip, email, wrong)).status).toBe(401);
}

describe('failed sign-ins per account and source', () => {
  it('counts failures only: successes never slow anyone down', async () => {
    const user = await buildUser(server.db);
    const ip = newIp();
    for (let i = 0; i < 5; i++)
      expect((await signInFrom(server, ip, user.email, TEST_PASSWORD)).status).toBe(200);
    await failTimes(ip, user.email, 2);
    expect((await signInFrom(server, ip, user.email, TEST_PASSWORD)).status).toBe(200);
    const rows = await server.db
      .select()
      .from(authSignInFailures)
      .where(eq(authSignInFailures.account, user.email));
    expect(rows).toHaveLength(2);
  });

  it('lets people behind one address sign in at the same moment (concurrent in-flight attempts delay no one)', async () => {
    const users = await Promise.all(Array.from({ length: 3 }, () => buildUser(server.db)));
    const ip = newIp();
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(
        users.map((user) => signInFrom(server, ip, user.email, TEST_PASSWORD)),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    }
  });

  it('delays the account from that address past the limit, even with the right password (429, Retry-After)', async () => {
    const user = await buildUser(server.db);
    const ip = newIp();
    await failTimes(ip, user.email, 3);
    expectDelayed(await signInFrom(server, ip, user.email, TEST_PASSWORD), 55, 60);
    expectDelayed(await signInFrom(server, ip, user.email.toUpperCase(), wrong), 55, 60);
    // Refused attempts are not counted: once the delay has passed, the right password works.
    await ageFailures(server, user.email, 61);
    expect((await signInFrom(server, ip, user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('does not slow the account from another address (an attacker cannot keep its owner out)', async () => {
    const user = await buildUser(server.db);
    await failTimes(newIp(), user.email, 3);
    expect((await signInFrom(server, newIp(), user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('does not slow other accounts behind the same address, however often one is guessed (NAT)', async () => {
    const victim = await buildUser(server.db);
    const colleague = await buildUser(server.db);
    const nat = newIp();
    // Six failures against one account from the address (more than AUTH_MAX_ACCOUNTS_PER_IP), the
    // delays between them passed by moving the failures back in time.
    await failTimes(nat, victim.email, 3);
    for (let i = 0; i < 3; i++) {
      await ageFailures(server, victim.email, 600);
      await failTimes(nat, victim.email, 1);
    }
    expect((await signInFrom(server, nat, colleague.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('makes each wait longer than the last, up to the maximum', async () => {
    const user = await buildUser(server.db);
    const ip = newIp();
    await failTimes(ip, user.email, 3);
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      const wait = expectDelayed(await signInFrom(server, ip, user.email, wrong), 1, 600);
      waits.push(wait);
      await ageFailures(server, user.email, wait);
      await failTimes(ip, user.email, 1);
    }
    // 60 s, then doubled at each failure, capped at 600 s (seconds may round down by one).
    expect(waits.map((wait) => Math.round(wait / 10) * 10)).toEqual([60, 120, 240, 480, 600]);
  });

  it('lets the account in again when its failures leave the window', async () => {
    const user = await buildUser(server.db);
    const ip = newIp();
    await failTimes(ip, user.email, 3);
    expectDelayed(await signInFrom(server, ip, user.email, TEST_PASSWORD), 1, 60);
    await ageFailures(server, user.email, 59 * 60);
    // Still inside the window: the count stands, and only the delay since the last failure passed.
    await failTimes(ip, user.email, 1);
    expectDelayed(await signInFrom(server, ip, user.email, TEST_PASSWORD), 61, 120);
    await ageFailures(server, user.email, 61 * 60);
    expect((await signInFrom(server, ip, user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('counts unknown e-mail addresses like known ones', async () => {
    const ip = newIp();
    await failTimes(ip, 'ghost@example.test', 3);
    expectDelayed(await signInFrom(server, ip, 'ghost@example.test', 'x'), 1, 60);
  });

  it('holds under concurrency: of 20 simultaneous wrong guesses at most 3 are checked', async () => {
    const user = await buildUser(server.db);
    const ip = newIp();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => signInFrom(server, ip, user.email, wrong)),
    );
    const checked = results.filter((response) => response.status === 401).length;
    const refused = results.filter((response) => response.status === 429).length;
    expect(checked + refused).toBe(20);
    // Every guess whose password was evaluated left an audit row and a failure row; no slack.
    const audited = await server.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, user.id), eq(auditEvents.action, 'auth.sign_in_failed')));
    const failures = await server.db
      .select()
      .from(authSignInFailures)
      .where(eq(authSignInFailures.account, user.email));
    expect(audited).toHaveLength(checked);
    expect(failures).toHaveLength(checked);
    expect(checked).toBe(3);
  });
});

describe('failed sign-ins per account from every unknown browser', () => {
  it('delays unknown browsers once the account failed too often across addresses', async () => {
    const user = await buildUser(server.db);
    await failTimes(newIp(), user.email, 3);
    await failTimes(newIp(), user.email, 3);
    expectDelayed(await signInFrom(server, newIp(), user.email, TEST_PASSWORD), 1, 60);
  });
});

describe('failed sign-ins per address over accounts (password spraying)', () => {
  it('delays unknown browsers at an address that failed on too many accounts', async () => {
    const user = await buildUser(server.db);
    const ip = newIp();
    for (let i = 0; i < 4; i++) await failTimes(ip, `sprayed-${i}-${ip}@example.test`, 1);
    expectDelayed(await signInFrom(server, ip, user.email, TEST_PASSWORD), 1, 60);
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
