import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authAttackAlerts, notifications, outboundMessages } from '../db/schema/index.ts';
import { buildFacility, buildUser, TEST_PASSWORD } from '../test/factories.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { SIGN_IN_ATTACK_NOTIFICATION } from './attack-alerts.ts';
import { DEVICE_COOKIE_PREFIX } from './device-cookies.ts';
import { deviceCookieOf, expectDelayed, newIp, signInFrom } from '../test/throttle-test-helpers.ts';

let server: TTestServer;

beforeAll(async () => {
  server = await startTestServer({
    env: {
      TRUST_PROXY: 'true',
      PUBLIC_URL: 'https://ris.example.test',
      AUTH_MAX_FAILURES_PER_ACCOUNT: '3',
      AUTH_MAX_FAILURES_ALL_IPS: '6',
      AUTH_FAILURE_WINDOW_MINUTES: '60',
      AUTH_BACKOFF_BASE_SECONDS: '60',
    },
  });
});
afterAll(async () => {
  await server.close();
});

const wrong = 'wrong-password';

async function failTimes(ip: string, email: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) expect((await signInFrom(server, ip, email, wrong)).status).toBe(401);
}

/** Signs in from `ip` and returns the device cookie the browser keeps. */
async function knownBrowser(email: string, ip: string): Promise<string> {
  const response = await signInFrom(server, ip, email, TEST_PASSWORD);
  expect(response.status, response.text).toBe(200);
  return deviceCookieOf(response);
}

describe('device cookie', () => {
  it('is set by a successful sign-in: httpOnly, Secure, SameSite=Strict, for the identity API, 180 days', async () => {
    const user = await buildUser(server.db);
    const response = await signInFrom(server, newIp(), user.email, TEST_PASSWORD);
    const line = response.headers.getSetCookie().find((cookie) => cookie.startsWith(DEVICE_COOKIE_PREFIX));
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/Secure/);
    expect(line).toMatch(/SameSite=Strict/);
    expect(line).toMatch(/Path=\/api\/v1\/auth(;|$)/);
    const expires = Date.parse(/Expires=([^;]+)/.exec(line ?? '')?.[1] ?? '');
    expect(expires - Date.now()).toBeGreaterThan(179 * 86_400_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(180 * 86_400_000);
    // A failed sign-in leaves none.
    const failed = await signInFrom(server, newIp(), user.email, wrong);
    expect(failed.headers.getSetCookie().some((cookie) => cookie.startsWith(DEVICE_COOKIE_PREFIX))).toBe(
      false,
    );
  });

  it('keeps its holder signing in while an attacker elsewhere has the account delayed', async () => {
    const user = await buildUser(server.db);
    const home = newIp();
    const device = await knownBrowser(user.email, home);
    // Guesses from two addresses: each address is delayed, and so is every unknown browser (6).
    const attackers = [newIp(), newIp()];
    for (const ip of attackers) await failTimes(ip, user.email, 3);
    expectDelayed(await signInFrom(server, newIp(), user.email, TEST_PASSWORD), 1, 60);
    expectDelayed(await signInFrom(server, home, user.email, TEST_PASSWORD), 1, 60);
    // The browser that signed in before is not, from home or from an attacker's own address (NAT).
    expect((await signInFrom(server, home, user.email, TEST_PASSWORD, [device])).status).toBe(200);
    expect((await signInFrom(server, attackers[0] ?? '', user.email, TEST_PASSWORD, [device])).status).toBe(
      200,
    );
  });

  it('slows its holder down after its own failures only', async () => {
    const user = await buildUser(server.db);
    const ip = newIp();
    const device = await knownBrowser(user.email, ip);
    for (let i = 0; i < 3; i++)
      expect((await signInFrom(server, ip, user.email, wrong, [device])).status).toBe(401);
    expectDelayed(await signInFrom(server, ip, user.email, TEST_PASSWORD, [device]), 1, 60);
    // Those failures were the device's: another browser from the same address is not delayed.
    expect((await signInFrom(server, ip, user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('counts only for its own account: one of another account, or an edited one, is ignored', async () => {
    const victim = await buildUser(server.db);
    const attacker = await buildUser(server.db);
    const ip = newIp();
    const own = await knownBrowser(attacker.email, ip);
    const victimName = (await knownBrowser(victim.email, newIp())).split('=')[0] ?? '';
    const ownValue = own.slice(own.indexOf('=') + 1);
    const forged = `${victimName}=${ownValue}`;
    const tampered = `${victimName}=${ownValue.replace(/\.[^.]+$/, '.AAAA')}`;
    await failTimes(ip, victim.email, 3);
    expectDelayed(await signInFrom(server, ip, victim.email, wrong, [own]), 1, 60);
    expectDelayed(await signInFrom(server, ip, victim.email, wrong, [forged]), 1, 60);
    expectDelayed(await signInFrom(server, ip, victim.email, wrong, [tampered]), 1, 60);
  });
});

describe('an account under attack', () => {
  it('tells its owner and the admins of its organisation once per window, by e-mail and notification', async () => {
    const facility = await buildFacility(server.db);
    const organisationId = facility.organisationId;
    const user = await buildUser(server.db, { facilities: [facility] });
    const admin = await buildUser(server.db, { role: 'ADMIN', organisationId });
    const otherOrgAdmin = await buildUser(server.db, { role: 'ADMIN' });
    // Guesses from two addresses until each is delayed (401s, then 429s).
    const attack = async () => {
      const statuses: number[] = [];
      for (const ip of [newIp(), newIp()]) {
        for (let i = 0; i < 4; i++) statuses.push((await signInFrom(server, ip, user.email, wrong)).status);
      }
      expect(statuses).toContain(429);
      await server.identity.settled();
    };
    const alerts = async () => ({
      mails: (
        await server.db
          .select({ to: outboundMessages.recipient, subject: outboundMessages.subject })
          .from(outboundMessages)
          .where(
            and(
              sql`${outboundMessages.subject} like 'Repeated failed sign-ins%'`,
              inArray(outboundMessages.recipient, [user.email, admin.email, otherOrgAdmin.email]),
            ),
          )
      )
        .map((mail) => mail.to)
        .sort(),
      notified: (
        await server.db
          .select({ userId: notifications.userId })
          .from(notifications)
          .where(
            and(
              eq(notifications.type, SIGN_IN_ATTACK_NOTIFICATION),
              inArray(notifications.userId, [user.id, admin.id, otherOrgAdmin.id]),
            ),
          )
      )
        .map((row) => row.userId)
        .sort(),
    });

    const announced: string[] = [];
    const stop = server.app.events.on('notification.created', (event) => {
      if (event.notification.type === SIGN_IN_ATTACK_NOTIFICATION) announced.push(event.userId);
    });
    await attack();
    stop();
    const once = await alerts();
    // Each notification also reaches its user's open apps (realtime).
    expect(announced.sort()).toEqual([user.id, admin.id].sort());
    expect(once.mails).toEqual([user.email, admin.email].sort());
    expect(once.notified).toEqual([user.id, admin.id].sort());
    expect(once.mails).not.toContain(otherOrgAdmin.email);
    // More guesses in the same window: nothing more is sent.
    await attack();
    expect(await alerts()).toEqual(once);
    // A window later, a new attack is told again.
    await server.db
      .update(authAttackAlerts)
      .set({ sentAt: sql`now() - interval '61 minutes'` })
      .where(eq(authAttackAlerts.userId, user.id));
    await attack();
    const twice = await alerts();
    expect(twice.mails).toHaveLength(4);
    expect(twice.notified).toHaveLength(4);
  });

  it('sends nothing for an address without an account', async () => {
    const ip = newIp();
    await failTimes(ip, 'nobody-at-all@example.test', 3);
    expectDelayed(await signInFrom(server, ip, 'nobody-at-all@example.test', wrong), 1, 60);
    await server.identity.settled();
    const sent = await server.db
      .select()
      .from(outboundMessages)
      .where(eq(outboundMessages.recipient, 'nobody-at-all@example.test'));
    expect(sent).toHaveLength(0);
  });
});
