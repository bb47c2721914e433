// Helpers for the sign-in throttle's route tests: requests from chosen addresses (TRUST_PROXY with
// X-Forwarded-For) carrying chosen cookies, and moving recorded failures back in time instead of
// waiting.
import { expect } from 'vitest';
import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { authSignInFailures } from '../db/schema/index.ts';
import type { TTestResponse, TTestServer } from './test-server.ts';

/** A fresh address for one test, so tests of a file never share an IP's counts. */
export function newIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

/** POST /auth/sign-in from `ip`, with `cookies` (name=value pairs) if given. */
export function signInFrom(
  server: TTestServer,
  ip: string,
  email: string,
  password: string,
  cookies: readonly string[] = [],
): Promise<TTestResponse> {
  const headers: Record<string, string> = { 'x-forwarded-for': ip };
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  return server.request('POST', '/api/v1/auth/sign-in', { body: { email, password }, headers });
}

/** The device cookie a sign-in answer set, as `name=value` to send back. */
export function deviceCookieOf(response: TTestResponse): string {
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('ris_device_'));
  if (!cookie) throw new Error(`no device cookie in ${response.headers.getSetCookie().join(' | ')}`);
  return cookie.split(';')[0] ?? '';
}

/** Moves every recorded failure of `account` `seconds` into the past (time passing, without waiting). */
export async function ageFailures(server: TTestServer, account: string, seconds: number): Promise<void> {
  await server.db
    .update(authSignInFailures)
    .set({ createdAt: sql`${authSignInFailures.createdAt} - make_interval(secs => ${seconds})` })
    .where(eq(authSignInFailures.account, account.toLowerCase()));
}

/** A 429 auth/too-many-requests whose Retry-After (header and details) is within [min, max]. */
export function expectDelayed(response: TTestResponse, min: number, max: number): number {
  expect(response.status, response.text).toBe(429);
  expect(response.json).toMatchObject({ error: { code: 'auth/too-many-requests' } });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(response.json).toMatchObject({ error: { details: { retry_after_seconds: retryAfter } } });
  expect(retryAfter).toBeGreaterThanOrEqual(min);
  expect(retryAfter).toBeLessThanOrEqual(max);
  return retryAfter;
}
