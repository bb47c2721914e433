import { describe, expect, it } from 'vitest';
import {
  ASK_ADMIN_FOR_ORGANISATION,
  AUTH_ERROR_CODES,
  AUTH_MESSAGES,
  DEFAULT_LOGIN_ERROR_MESSAGE,
  GENERIC_LOGIN_ERROR_MESSAGE,
  LOGIN_ERROR_MESSAGES,
  endsSession,
  loginErrorMessage,
  SIGN_UP_COMPLETE_MESSAGE,
  tooManyAttemptsMessage,
} from './login-messages.ts';

describe('loginErrorMessage', () => {
  it.each([
    ['auth/invalid-email', 'Invalid email address'],
    ['auth/user-disabled', 'This account has been disabled'],
    ['auth/user-not-found', 'No account found with this email'],
    ['auth/wrong-password', 'Incorrect password'],
    ['auth/too-many-requests', 'Too many failed attempts. Please try again later'],
    ['auth/invalid-credential', 'Invalid username or password'],
  ])('maps %s to %j', (code, message) => {
    expect(loginErrorMessage(code)).toBe(message);
  });

  it('prefers the table over a server message for known codes', () => {
    expect(loginErrorMessage('auth/wrong-password', 'Server says no')).toBe('Incorrect password');
  });

  it('shows the server message for other coded errors, else the generic text', () => {
    expect(loginErrorMessage('auth/network-request-failed', 'Network down')).toBe('Network down');
    expect(loginErrorMessage('auth/network-request-failed')).toBe('An error occurred during login');
    expect(loginErrorMessage('auth/network-request-failed', '  ')).toBe(GENERIC_LOGIN_ERROR_MESSAGE);
    expect(loginErrorMessage('AUTH/WRONG-PASSWORD')).toBe(GENERIC_LOGIN_ERROR_MESSAGE);
  });

  it('falls back to the default message without a code', () => {
    expect(loginErrorMessage(undefined)).toBe('Invalid username or password');
    expect(loginErrorMessage(null, 'ignored')).toBe(DEFAULT_LOGIN_ERROR_MESSAGE);
    expect(loginErrorMessage('')).toBe(DEFAULT_LOGIN_ERROR_MESSAGE);
  });

  it('has a message for every code', () => {
    expect(Object.keys(LOGIN_ERROR_MESSAGES).sort()).toEqual([...AUTH_ERROR_CODES].sort());
  });
});

describe('auth messages', () => {
  it('keeps the texts of the specification, and says who to ask when there is no organisation', () => {
    expect(AUTH_MESSAGES).toEqual({
      userNotFound: 'User not found',
      noOrganisation:
        "Your account is not assigned to any organisation yet. An administrator of your group must add you to an organisation before you can sign in — ask your group's RIS administrator.",
      noCentersFound: 'No centers found',
    });
    expect(SIGN_UP_COMPLETE_MESSAGE).toBe(`Your account was created. ${ASK_ADMIN_FOR_ORGANISATION}`);
  });

  it('says how long to wait after too many failed sign-ins', () => {
    expect(tooManyAttemptsMessage(1)).toBe('Too many failed attempts. Please try again in 1 second.');
    expect(tooManyAttemptsMessage(45)).toBe('Too many failed attempts. Please try again in 45 seconds.');
    expect(tooManyAttemptsMessage(60)).toBe('Too many failed attempts. Please try again in 1 minute.');
    expect(tooManyAttemptsMessage(61)).toBe('Too many failed attempts. Please try again in 2 minutes.');
    expect(tooManyAttemptsMessage(undefined)).toBe('Too many failed attempts. Please try again later');
  });

  it('ends the session on user-disabled and token-expired only', () => {
    expect(endsSession('auth/user-disabled')).toBe(true);
    expect(endsSession('auth/id-token-expired')).toBe(true);
    expect(endsSession('auth/id-token-revoked')).toBe(true);
    expect(endsSession('auth/wrong-password')).toBe(false);
    expect(endsSession(undefined)).toBe(false);
  });
});
