import { SESSION_ENDED_AUTH_CODES } from '../auth/auth-errors.ts';
/** Sign-in failure codes of the identity service (Firebase-style), kept so clients can map them all. */
export const AUTH_ERROR_CODES = [
  'auth/invalid-email',
  'auth/user-disabled',
  'auth/user-not-found',
  'auth/wrong-password',
  'auth/too-many-requests',
  'auth/invalid-credential',
] as const;
export type TAuthErrorCode = (typeof AUTH_ERROR_CODES)[number];

/** 'Invalid username or password': the default, and what our server answers for both unknown
 * e-mail and wrong password so sign-in never reveals whether an account exists (DESIGN.md §6). */
export const DEFAULT_LOGIN_ERROR_MESSAGE = 'Invalid username or password';
/** Shown for a coded error outside the table when the server sent no message. */
export const GENERIC_LOGIN_ERROR_MESSAGE = 'An error occurred during login';

export const LOGIN_ERROR_MESSAGES = {
  'auth/invalid-email': 'Invalid email address',
  'auth/user-disabled': 'This account has been disabled',
  'auth/user-not-found': 'No account found with this email',
  'auth/wrong-password': 'Incorrect password',
  'auth/too-many-requests': 'Too many failed attempts. Please try again later',
  'auth/invalid-credential': DEFAULT_LOGIN_ERROR_MESSAGE,
} as const satisfies Record<TAuthErrorCode, string>;

/**
 * Who to ask while an account belongs to no organisation: sign-up creates accounts without one, and
 * only an administrator can add one (issue 12: a new account must not be left stranded).
 */
export const ASK_ADMIN_FOR_ORGANISATION =
  "An administrator of your group must add you to an organisation before you can sign in — ask your group's RIS administrator.";

/** The answer to every sign-up (new address or not: it must not tell which), and the screen after it. */
export const SIGN_UP_COMPLETE_MESSAGE = `Your account was created. ${ASK_ADMIN_FOR_ORGANISATION}`;

/** Sign-up when AUTH_SIGNUP_ENABLED=false (the server's 403 and the closed sign-up page). */
export const SIGN_UP_CLOSED_MESSAGE =
  "Sign-up is closed on this RIS: accounts are created by an administrator of your group. Ask your group's RIS administrator to add you.";

/**
 * Messages of sign-in and of verifying the signed-in user. The specification's refusal of a user
 * without an organisation ('the user is not assigned to any organisation') now also says who to ask.
 */
export const AUTH_MESSAGES = {
  userNotFound: 'User not found',
  noOrganisation: `Your account is not assigned to any organisation yet. ${ASK_ADMIN_FOR_ORGANISATION}`,
  noCentersFound: 'No centers found',
} as const;

/** How long to wait, in words: "45 seconds", "1 minute", "15 minutes" (rounded up). */
export function waitInWords(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole < 60) return whole === 1 ? '1 second' : `${whole} seconds`;
  const minutes = Math.ceil(whole / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/**
 * The sign-in form's notice for a 429: how long to wait (details.retry_after_seconds, as in
 * Retry-After) when the server said, else the specification's text.
 */
export function tooManyAttemptsMessage(retryAfterSeconds: number | null | undefined): string {
  if (retryAfterSeconds === null || retryAfterSeconds === undefined || !Number.isFinite(retryAfterSeconds)) {
    return LOGIN_ERROR_MESSAGES['auth/too-many-requests'];
  }
  return `Too many failed attempts. Please try again in ${waitInWords(retryAfterSeconds)}.`;
}

/** The router's default error page text. */
export const UNEXPECTED_APPLICATION_ERROR = 'Unexpected Application Error!';

export function isAuthErrorCode(value: unknown): value is TAuthErrorCode {
  return typeof value === 'string' && (AUTH_ERROR_CODES as readonly string[]).includes(value);
}

/**
 * The toast text for a failed sign-in: a known code → its message; any other code → the server's
 * message, else 'An error occurred during login'; no code at all → 'Invalid username or password'.
 */
export function loginErrorMessage(code: string | null | undefined, serverMessage?: string | null): string {
  if (code === null || code === undefined || code.trim() === '') return DEFAULT_LOGIN_ERROR_MESSAGE;
  if (isAuthErrorCode(code)) return LOGIN_ERROR_MESSAGES[code];
  return serverMessage?.trim() ? serverMessage : GENERIC_LOGIN_ERROR_MESSAGE;
}

/** Whether an auth error code ends the identity session (user disabled, token expired or revoked). */
export function endsSession(code: string | null | undefined): boolean {
  return (SESSION_ENDED_AUTH_CODES as readonly (string | null | undefined)[]).includes(code);
}
