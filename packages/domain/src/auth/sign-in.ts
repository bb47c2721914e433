const MINUTE_MS = 60_000;

/** The least password length any deployment may require; a stricter configured policy wins. */
export const MIN_PASSWORD_LENGTH = 6;
/** The ID token is refreshed this long before it expires. */
export const TOKEN_REFRESH_LEAD_MS = 5 * MINUTE_MS;
/** Back-off between failed refreshes: starts here and doubles up to the cap. */
export const TOKEN_REFRESH_BACKOFF_INITIAL_MS = 30_000;
export const TOKEN_REFRESH_BACKOFF_MAX_MS = 960_000;
export const SIGN_IN_POPUP_SIZE = { width: 500, height: 600 } as const;
export const REDIRECT_EVENT_CACHE_MS = 10 * MINUTE_MS;
/** A session may be synchronised only from an ID token at most this old. */
export const SESSION_SYNC_MAX_AGE_MS = 5 * MINUTE_MS;

/** The password length to enforce: the configured one, but never below MIN_PASSWORD_LENGTH. */
export function effectiveMinPasswordLength(configured?: number | null): number {
  if (configured === null || configured === undefined || !Number.isFinite(configured)) {
    return MIN_PASSWORD_LENGTH;
  }
  return Math.max(MIN_PASSWORD_LENGTH, Math.ceil(configured));
}

/** Delay before refresh retry number `failures` (1 = after the first failure): 30 s, 60 s, ... 960 s. */
export function tokenRefreshBackoffMs(failures: number): number {
  if (!Number.isFinite(failures) || failures <= 1) return TOKEN_REFRESH_BACKOFF_INITIAL_MS;
  const exponent = Math.min(Math.floor(failures) - 1, 30);
  return Math.min(TOKEN_REFRESH_BACKOFF_INITIAL_MS * 2 ** exponent, TOKEN_REFRESH_BACKOFF_MAX_MS);
}

/** When to refresh a token that expires at `expiresAt`: TOKEN_REFRESH_LEAD_MS before, or now if later. */
export function tokenRefreshDelayMs(expiresAt: Date, now: Date): number {
  return Math.max(0, expiresAt.getTime() - TOKEN_REFRESH_LEAD_MS - now.getTime());
}
