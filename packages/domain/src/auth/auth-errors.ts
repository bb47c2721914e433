/**
 * Every `error.code` the identity API answers with (Firebase-style), so server and clients share one
 * list. The sign-in toasts of the specification map a subset (AUTH_ERROR_CODES in login-messages).
 */
export const AUTH_API_ERROR_CODES = [
  'auth/invalid-email',
  'auth/user-disabled',
  'auth/user-not-found',
  'auth/wrong-password',
  'auth/invalid-credential',
  'auth/too-many-requests',
  'auth/weak-password',
  'auth/email-already-in-use',
  'auth/expired-action-code',
  'auth/invalid-action-code',
  'auth/invalid-refresh-token',
  'auth/id-token-expired',
  'auth/id-token-revoked',
  'auth/operation-not-allowed',
] as const;
export type TAuthApiErrorCode = (typeof AUTH_API_ERROR_CODES)[number];

/** Codes after which a client must drop its session and send the person to sign in again. */
export const SESSION_ENDED_AUTH_CODES = [
  'auth/user-disabled',
  'auth/id-token-expired',
  'auth/id-token-revoked',
  'auth/invalid-refresh-token',
] as const satisfies readonly TAuthApiErrorCode[];

/** Where the links in identity e-mails lead (the web app consumes the token with a POST). */
export const PASSWORD_RESET_PATH = '/forgot-password';
export const PASSWORD_RESET_TOKEN_PARAM = 'token';
export const EMAIL_LINK_PATH = '/login';
export const EMAIL_LINK_TOKEN_PARAM = 'email_link_token';
/** The httpOnly refresh-token cookie, scoped to the identity API. */
export const REFRESH_COOKIE_NAME = 'ris_refresh';
export const REFRESH_COOKIE_PATH = '/api/v1/auth';
