import { createStore, useStore } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';
import type { TRole } from '@ris/domain';
import { STORAGE_KEYS, sessionOrMemoryStorage } from './session-storage.ts';

/** The signed-in user as the web app needs it (wire names of the specification). */
export interface TAuthUser {
  id: string;
  email: string;
  role: TRole | null;
  first_name?: string | null;
  last_name?: string | null;
  display_name?: string | null;
  organisation_fk?: string | null;
  facility_fks?: string[];
}

/** The flags of the specification that keep the route guard on its loading screen. */
export interface AuthFlags {
  isAuthInitializing: boolean;
  loginUserInflight: boolean;
  fetchUserByEmailInflight: boolean;
  verifyUserInflight: boolean;
}

export type AuthFlag = keyof AuthFlags;

export interface AuthSessionData {
  user: TAuthUser;
  idToken: string;
  refreshToken: string | null;
  /** Epoch milliseconds at which the ID token expires. */
  expiresAt: number | null;
}

export interface AuthData extends AuthFlags {
  user: TAuthUser | null;
  idToken: string | null;
  refreshToken: string | null;
  expiresAt: number | null;
}

export interface AuthActions {
  setFlag: (flag: AuthFlag, value: boolean) => void;
  setSession: (session: AuthSessionData) => void;
  setUser: (user: TAuthUser) => void;
  /** Forgets the user and tokens; no flag stays raised, initialisation counts as finished. */
  clear: () => void;
}

export type AuthState = AuthData & AuthActions;

const SIGNED_OUT: AuthData = {
  isAuthInitializing: false,
  loginUserInflight: false,
  fetchUserByEmailInflight: false,
  verifyUserInflight: false,
  user: null,
  idToken: null,
  refreshToken: null,
  expiresAt: null,
};

/** True while the guard must wait: initialising, or a login / user fetch / verification in flight. */
export function isAuthBusy(flags: AuthFlags): boolean {
  return (
    flags.isAuthInitializing ||
    flags.loginUserInflight ||
    flags.fetchUserByEmailInflight ||
    flags.verifyUserInflight
  );
}

/** The auth store; only the session (user and tokens) is persisted, never the in-flight flags. */
export function createAuthStore(storage: StateStorage = sessionOrMemoryStorage()) {
  return createStore<AuthState>()(
    persist(
      (set) => ({
        ...SIGNED_OUT,
        isAuthInitializing: true,
        setFlag: (flag, value) => set({ [flag]: value }),
        setSession: ({ user, idToken, refreshToken, expiresAt }) =>
          set({ user, idToken, refreshToken, expiresAt }),
        setUser: (user) => set({ user }),
        clear: () => set(SIGNED_OUT),
      }),
      {
        name: STORAGE_KEYS.auth,
        version: 1,
        storage: createJSONStorage(() => storage),
        partialize: ({ user, idToken, refreshToken, expiresAt }) => ({
          user,
          idToken,
          refreshToken,
          expiresAt,
        }),
      },
    ),
  );
}

export type AuthStore = ReturnType<typeof createAuthStore>;

/** The app's one auth store. */
export const authStore = createAuthStore();

export function useAuth<T>(selector: (state: AuthState) => T): T {
  return useStore(authStore, selector);
}
