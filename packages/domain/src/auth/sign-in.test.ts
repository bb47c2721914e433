import { describe, expect, it } from 'vitest';
import {
  MIN_PASSWORD_LENGTH,
  REDIRECT_EVENT_CACHE_MS,
  SESSION_SYNC_MAX_AGE_MS,
  SIGN_IN_POPUP_SIZE,
  TOKEN_REFRESH_LEAD_MS,
  effectiveMinPasswordLength,
  tokenRefreshBackoffMs,
  tokenRefreshDelayMs,
} from './sign-in.ts';

describe('sign-in constants', () => {
  it('matches the specification', () => {
    expect(MIN_PASSWORD_LENGTH).toBe(6);
    expect(TOKEN_REFRESH_LEAD_MS).toBe(5 * 60_000);
    expect(SIGN_IN_POPUP_SIZE).toEqual({ width: 500, height: 600 });
    expect(REDIRECT_EVENT_CACHE_MS).toBe(10 * 60_000);
    expect(SESSION_SYNC_MAX_AGE_MS).toBe(5 * 60_000);
  });
});

describe('effectiveMinPasswordLength', () => {
  it('never goes below 6', () => {
    expect(effectiveMinPasswordLength()).toBe(6);
    expect(effectiveMinPasswordLength(null)).toBe(6);
    expect(effectiveMinPasswordLength(4)).toBe(6);
    expect(effectiveMinPasswordLength(Number.NaN)).toBe(6);
  });

  it('uses a stricter configured length', () => {
    expect(effectiveMinPasswordLength(12)).toBe(12);
    expect(effectiveMinPasswordLength(8.2)).toBe(9);
  });
});

describe('tokenRefreshBackoffMs', () => {
  it('doubles from 30 s and stops at 960 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map(tokenRefreshBackoffMs)).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 960_000, 960_000,
    ]);
  });

  it('starts at 30 s for zero, negative or invalid counts', () => {
    expect(tokenRefreshBackoffMs(0)).toBe(30_000);
    expect(tokenRefreshBackoffMs(-3)).toBe(30_000);
    expect(tokenRefreshBackoffMs(Number.NaN)).toBe(30_000);
  });
});

describe('tokenRefreshDelayMs', () => {
  const now = new Date('2026-06-15T12:00:00Z');

  it('refreshes 5 minutes before expiry', () => {
    expect(tokenRefreshDelayMs(new Date('2026-06-15T13:00:00Z'), now)).toBe(55 * 60_000);
  });

  it('refreshes at once when inside the last 5 minutes or expired', () => {
    expect(tokenRefreshDelayMs(new Date('2026-06-15T12:03:00Z'), now)).toBe(0);
    expect(tokenRefreshDelayMs(new Date('2026-06-15T11:00:00Z'), now)).toBe(0);
  });
});
