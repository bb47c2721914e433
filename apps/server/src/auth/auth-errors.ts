import {
  DEFAULT_LOGIN_ERROR_MESSAGE,
  LOGIN_ERROR_MESSAGES,
  tooManyAttemptsMessage,
  type TAuthApiErrorCode,
} from '@ris/domain';
import { AppError } from '../http/app-error.ts';

/** HTTP status of each identity error code (401 not signed in, 403 not allowed, 429 slow down). */
export const AUTH_ERROR_STATUS = {
  'auth/invalid-email': 400,
  'auth/user-disabled': 403,
  'auth/user-not-found': 401,
  'auth/wrong-password': 401,
  'auth/invalid-credential': 401,
  'auth/too-many-requests': 429,
  'auth/weak-password': 400,
  'auth/email-already-in-use': 409,
  'auth/expired-action-code': 400,
  'auth/invalid-action-code': 400,
  'auth/invalid-refresh-token': 401,
  'auth/id-token-expired': 401,
  'auth/id-token-revoked': 401,
  'auth/operation-not-allowed': 403,
} as const satisfies Record<TAuthApiErrorCode, number>;

export function authError(code: TAuthApiErrorCode, message: string, details?: unknown): AppError {
  return new AppError(code, message, details, AUTH_ERROR_STATUS[code]);
}

export const invalidCredential = () => authError('auth/invalid-credential', DEFAULT_LOGIN_ERROR_MESSAGE);
export const userNotFound = () =>
  authError('auth/user-not-found', LOGIN_ERROR_MESSAGES['auth/user-not-found']);
export const wrongPassword = () =>
  authError('auth/wrong-password', LOGIN_ERROR_MESSAGES['auth/wrong-password']);
export const userDisabled = () => authError('auth/user-disabled', LOGIN_ERROR_MESSAGES['auth/user-disabled']);

/** 429 with the wait in the message, in details.retry_after_seconds and (by the handler) Retry-After. */
export const tooManyRequests = (retryAfterSeconds: number) =>
  authError('auth/too-many-requests', tooManyAttemptsMessage(retryAfterSeconds), {
    retry_after_seconds: retryAfterSeconds,
  });

export const unauthenticated = (message = 'Sign in to continue.') => new AppError('UNAUTHENTICATED', message);
export const idTokenExpired = () =>
  authError('auth/id-token-expired', 'Your session has expired. Please sign in again.');
export const idTokenRevoked = () =>
  authError('auth/id-token-revoked', 'Your session has ended. Please sign in again.');
export const invalidRefreshToken = (message = 'Your session has ended. Please sign in again.') =>
  authError('auth/invalid-refresh-token', message);
export const expiredActionCode = () =>
  authError('auth/expired-action-code', 'This link has expired. Please ask for a new one.');
export const invalidActionCode = () =>
  authError(
    'auth/invalid-action-code',
    'This link is invalid or has already been used. Please ask for a new one.',
  );
