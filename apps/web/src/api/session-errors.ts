import { SESSION_ENDED_AUTH_CODES } from '@ris/domain';
import { isApiError, type ApiError } from './api-error.ts';

/**
 * Codes saying the bearer token is no longer accepted because it is too old (or missing): the client
 * renews the token once and retries. `auth/user-token-expired` is the identity service's spelling.
 */
export const RENEWABLE_TOKEN_CODES: readonly string[] = [
  'auth/id-token-expired',
  'auth/user-token-expired',
  'UNAUTHENTICATED',
];

/**
 * Codes that end the identity session at once, whatever the call (spec §8, issue 3): the server's
 * list without the expired-token code, which first gets one refresh (RENEWABLE_TOKEN_CODES).
 */
export const SESSION_ENDING_CODES: readonly string[] = SESSION_ENDED_AUTH_CODES.filter(
  (code) => !RENEWABLE_TOKEN_CODES.includes(code),
);

/** A 401 whose token a refresh can replace. */
export function isRenewableTokenError(error: unknown): error is ApiError {
  return isApiError(error) && error.status === 401 && RENEWABLE_TOKEN_CODES.includes(error.code ?? '');
}

/**
 * Whether a failed authenticated call ends the identity session: a disabled user or a revoked
 * token always; an expired token only once a refresh has been tried (`afterRenewal`).
 */
export function endsIdentitySession(error: unknown, afterRenewal: boolean): error is ApiError {
  if (!isApiError(error)) return false;
  if (SESSION_ENDING_CODES.includes(error.code ?? '')) return true;
  return afterRenewal && isRenewableTokenError(error);
}

/**
 * Whether a failed POST /auth/refresh means the session is gone (401/403, or a session-ending code)
 * rather than a passing failure (network, 5xx) worth retrying with back-off.
 */
export function isFinalRefreshFailure(error: unknown): boolean {
  if (!isApiError(error)) return false;
  return error.status === 401 || error.status === 403 || SESSION_ENDING_CODES.includes(error.code ?? '');
}
