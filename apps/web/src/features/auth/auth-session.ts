import {
  LOGIN_ERROR_MESSAGES,
  loginErrorMessage,
  tooManyAttemptsMessage,
  type TSessionResponse,
  type TToastKind,
} from '@ris/domain';
import { isApiError, validationFieldErrors, type ApiError, type FieldErrors } from '../../api/api-error.ts';
import type { AuthApi, TSignInRequest } from '../../api/auth-api.ts';
import type { AuthStore } from '../../stores/auth-store.ts';
import type { SessionHint } from './session-hint.ts';
import type { TokenRefresher } from './token-refresher.ts';
import { verifyUser } from './verify-user.ts';

/** Shown after a successful sign-in (the specification asks for a success toast, not its text). */
export const SIGN_IN_SUCCESS_MESSAGE = 'Signed in successfully';
/** Shown when an expired or revoked session sends the user back to /login (the specification is silent). */
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.';
/** How long sign-out waits for the server before clearing the session locally anyway. */
export const SIGN_OUT_TIMEOUT_MS = 5_000;

export interface AuthSessionDeps {
  auth: AuthStore;
  api: Pick<AuthApi, 'signIn' | 'signInWithEmailLink' | 'signOut' | 'fetchUserByEmail' | 'fetchUserDetails'>;
  refresher: Pick<TokenRefresher, 'adopt' | 'refresh' | 'stop' | 'subscribe'>;
  notify: (kind: TToastKind, message: string) => void;
  /** Called after a successful sign-in; the app clears the open tabs here. */
  onSignedIn?: () => void;
  /** Wipes everything else on sign-out: other stores, the query cache, sessionStorage. */
  clearAll?: () => void;
  /** Whether a refresh session may exist; without one, start-up always asks the server. */
  hint?: SessionHint;
  /**
   * What follows the user from browser to browser (their preferences): loaded once the user is
   * verified (the loading screen waits for it), written back before sign-out revokes the session.
   */
  userSettings?: { load: (userId: string) => Promise<void>; flush: () => Promise<void> };
}

export interface SignInOutcome {
  ok: boolean;
  /** From a VALIDATION_FAILED answer: field name → message. */
  fieldErrors: FieldErrors;
  /**
   * What the form must keep showing after the toast has gone: how long to wait after too many
   * failed attempts, or why a signed-in account was refused (no organisation yet, and who to ask).
   */
  notice?: string;
}

/** The seconds the server asked to wait (details.retry_after_seconds of a 429), if it said. */
export function retryAfterSeconds(error: unknown): number | null {
  if (!isApiError(error) || error.code !== 'auth/too-many-requests') return null;
  const details = error.details;
  if (typeof details !== 'object' || details === null || !('retry_after_seconds' in details)) return null;
  const seconds = details.retry_after_seconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/** The toast (and notice) of a failed sign-in: the §8 message, with the wait when the server gave one. */
function signInFailureMessage(error: ApiError | undefined): string {
  const wait = retryAfterSeconds(error);
  if (wait !== null) return tooManyAttemptsMessage(wait);
  return loginErrorMessage(error?.code, error?.serverMessage);
}

export interface AuthSession {
  /** Runs once at start: restores the session from the refresh cookie and verifies the user. */
  initialize: () => Promise<void>;
  /** Failures are reported with a toast; invalid fields come back for the form to show inline. */
  signIn: (credentials: TSignInRequest) => Promise<SignInOutcome>;
  /** Signs in with the one-time token of an e-mail link (POSTed by the page, never by a GET). */
  signInWithEmailLink: (token: string) => Promise<SignInOutcome>;
  /** Revokes the session on the server, then forgets it here and in the other tabs. */
  logout: () => Promise<void>;
  /** The identity session ended (disabled user, expired or revoked token): sign out locally. */
  endSession: (error?: ApiError) => void;
}

/** The message of a session that ended under the user. */
export function sessionEndedMessage(error: unknown): string {
  return isApiError(error) && error.code === 'auth/user-disabled'
    ? LOGIN_ERROR_MESSAGES['auth/user-disabled']
    : SESSION_ENDED_MESSAGE;
}

/** Sign-in, start-up restore and verification, sign-out, written against injected parts for tests. */
export function createAuthSession(deps: AuthSessionDeps): AuthSession {
  const { auth, api, refresher, notify } = deps;
  const setFlag = auth.getState().setFlag;
  let initializing: Promise<void> | null = null;

  function clearLocally(): void {
    deps.hint?.set(false);
    auth.getState().clear();
    deps.clearAll?.();
  }

  async function revokeOnServer(): Promise<void> {
    const abort = new AbortController();
    const timeout = setTimeout(() => abort.abort(), SIGN_OUT_TIMEOUT_MS);
    try {
      await api.signOut(abort.signal);
    } catch {
      // The local sign-out goes ahead: the session is forgotten here whatever the server answered.
    } finally {
      clearTimeout(timeout);
    }
  }

  async function logout(): Promise<void> {
    await deps.userSettings?.flush();
    await revokeOnServer();
    refresher.stop({ announce: true });
    clearLocally();
  }

  /**
   * Verifies the user of a fresh session. A refused user is signed out and told why (`refused`);
   * otherwise the user is stored and the verification's warning, if any, handed back.
   */
  async function establish(user: TSessionResponse['user']): Promise<string | null | { refused: string }> {
    const result = await verifyUser(user.email, api, setFlag);
    if (!result.ok) {
      await logout();
      notify('error', result.message);
      return { refused: result.message };
    }
    auth.getState().setVerifiedUser(result.verified);
    deps.hint?.set(true);
    await deps.userSettings?.load(result.verified.user.id);
    return result.warning;
  }

  async function completeSignIn(obtain: () => Promise<TSessionResponse>): Promise<SignInOutcome> {
    setFlag('loginUserInflight', true);
    try {
      let response: TSessionResponse;
      try {
        response = await obtain();
      } catch (error) {
        if (!isApiError(error)) console.error('sign-in failed', error);
        const apiError = isApiError(error) ? error : undefined;
        const message = signInFailureMessage(apiError);
        notify('error', message);
        const delayed = apiError?.code === 'auth/too-many-requests';
        return {
          ok: false,
          fieldErrors: validationFieldErrors(error),
          ...(delayed ? { notice: message } : {}),
        };
      }
      refresher.adopt(response);
      const warning = await establish(response.user);
      if (typeof warning === 'object' && warning !== null) {
        return { ok: false, fieldErrors: {}, notice: warning.refused };
      }
      deps.onSignedIn?.();
      notify('success', SIGN_IN_SUCCESS_MESSAGE);
      if (warning) notify('warning', warning);
      return { ok: true, fieldErrors: {} };
    } finally {
      setFlag('loginUserInflight', false);
    }
  }

  async function restore(): Promise<void> {
    try {
      if (deps.hint && !deps.hint.present()) {
        auth.getState().clear();
        return;
      }
      let session;
      try {
        session = await refresher.refresh();
      } catch {
        // No session cookie, or a revoked one: the visitor simply is not signed in.
        deps.hint?.set(false);
        refresher.stop();
        auth.getState().clear();
        return;
      }
      const warning = await establish(session.user);
      if (typeof warning === 'string') notify('warning', warning);
    } finally {
      setFlag('isAuthInitializing', false);
    }
  }

  function endSession(error?: ApiError): void {
    const { user, isAuthInitializing, loginUserInflight } = auth.getState();
    if (!user && !isAuthInitializing && !loginUserInflight) return;
    refresher.stop();
    clearLocally();
    notify('error', sessionEndedMessage(error));
  }

  refresher.subscribe((event) => {
    if (event.type === 'ended') {
      endSession(isApiError(event.error) ? event.error : undefined);
    } else {
      clearLocally();
    }
  });

  return {
    initialize: () => (initializing ??= restore()),
    signIn: (credentials) => completeSignIn(() => api.signIn(credentials)),
    signInWithEmailLink: (token) => completeSignIn(() => api.signInWithEmailLink(token)),
    logout,
    endSession,
  };
}
