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

/** Messages of sign-in and of verifying the signed-in user. */
export const AUTH_MESSAGES = {
  userNotFound: 'User not found',
  noOrganisation: 'the user is not assigned to any organisation',
  noCentersFound: 'No centers found',
} as const;

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
