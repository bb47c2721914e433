import {
  AUTH_MESSAGES,
  FALLBACK_ERROR_MESSAGES,
  isAdminRole,
  loginErrorMessage,
  type TToastKind,
} from '@ris/domain';
import { errorMessage, isApiError } from '../../api/api-error.ts';
import type { AuthApi, TSignInRequest } from '../../api/auth-api.ts';
import type { AuthStore, TAuthUser } from '../../stores/auth-store.ts';

/** Shown after a successful sign-in (the specification asks for a success toast, not its text). */
export const SIGN_IN_SUCCESS_MESSAGE = 'Signed in successfully';

export interface AuthSessionDeps {
  auth: AuthStore;
  api: Pick<AuthApi, 'signIn' | 'fetchUserByEmail'>;
  notify: (kind: TToastKind, message: string) => void;
  /** Called after a successful sign-in; the app clears the open tabs here. */
  onSignedIn?: () => void;
  /** Wipes everything else on logout: other stores, the query cache, sessionStorage. */
  onLogout?: () => void;
  now?: () => number;
}

export interface AuthSession {
  /** Runs once at start: without a stored session it finishes at once, else it re-verifies the user. */
  initialize: () => Promise<void>;
  /** Resolves true when the user is signed in; failures are reported with a toast. */
  signIn: (credentials: TSignInRequest) => Promise<boolean>;
  logout: () => void;
}

/** Sign-in, start-up verification and logout, written against injected stores and API for tests. */
export function createAuthSession(deps: AuthSessionDeps): AuthSession {
  const { auth, api, notify } = deps;
  const now = deps.now ?? Date.now;
  const setFlag = auth.getState().setFlag;

  function logout(): void {
    auth.getState().clear();
    deps.onLogout?.();
  }

  /** The specification's verification: a user must belong to an organisation; non-admins need facilities. */
  async function verifyUser(user: TAuthUser): Promise<boolean> {
    setFlag('verifyUserInflight', true);
    try {
      if (!user.organisation_fk) {
        notify('error', AUTH_MESSAGES.noOrganisation);
        return false;
      }
      if (!isAdminRole(user.role) && (user.facility_fks ?? []).length === 0) {
        notify('warning', AUTH_MESSAGES.noCentersFound);
      }
      return true;
    } finally {
      setFlag('verifyUserInflight', false);
    }
  }

  async function initialize(): Promise<void> {
    const { user, idToken } = auth.getState();
    if (!user?.id || !idToken) {
      auth.getState().clear();
      return;
    }
    try {
      setFlag('fetchUserByEmailInflight', true);
      let fresh: TAuthUser;
      try {
        fresh = await api.fetchUserByEmail(user.email);
      } finally {
        setFlag('fetchUserByEmailInflight', false);
      }
      if (!(await verifyUser(fresh))) {
        logout();
        return;
      }
      auth.getState().setUser(fresh);
    } catch (error) {
      const missing = isApiError(error) && error.status === 404;
      notify(
        'error',
        missing ? AUTH_MESSAGES.userNotFound : errorMessage(error, FALLBACK_ERROR_MESSAGES.fetchUser),
      );
      logout();
    } finally {
      setFlag('isAuthInitializing', false);
    }
  }

  async function signIn(credentials: TSignInRequest): Promise<boolean> {
    setFlag('loginUserInflight', true);
    try {
      const response = await api.signIn(credentials);
      if (!(await verifyUser(response.user))) return false;
      auth.getState().setSession({
        user: response.user,
        idToken: response.id_token,
        refreshToken: response.refresh_token || null,
        expiresAt: response.expires_in > 0 ? now() + response.expires_in * 1000 : null,
      });
      deps.onSignedIn?.();
      notify('success', SIGN_IN_SUCCESS_MESSAGE);
      return true;
    } catch (error) {
      const apiError = isApiError(error) ? error : undefined;
      notify('error', loginErrorMessage(apiError?.code, apiError?.serverMessage));
      return false;
    } finally {
      setFlag('loginUserInflight', false);
    }
  }

  return { initialize, signIn, logout };
}
