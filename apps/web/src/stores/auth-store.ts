import { createStore, useStore } from 'zustand';
import {
  NO_CAPABILITIES,
  type TFacility,
  type TUser,
  type TUserCapabilities,
  type TUserDetails,
} from '@ris/domain';

/** The signed-in user (GET /user/email/{email}, wire names of the specification). */
export type TAuthUser = TUser;

/** The details of the user's role (GET /user/details/{id}). */
export type TRoleDetails = Pick<
  TUserDetails,
  'radiologist_details' | 'transcriptionist_details' | 'facility_details'
>;

/** The flags of the specification that keep the route guard on its loading screen. */
export interface AuthFlags {
  isAuthInitializing: boolean;
  loginUserInflight: boolean;
  fetchUserByEmailInflight: boolean;
  verifyUserInflight: boolean;
}

export type AuthFlag = keyof AuthFlags;

/** What a verified sign-in leaves in the store. */
export interface VerifiedUser {
  user: TAuthUser;
  roleDetails: TRoleDetails;
  /** The facilities the user may work in (every facility of the organisation for an admin). */
  facilities: TFacility[];
  /** What the user may do at all (GET /user/details, from the server's policies); none when absent. */
  capabilities?: TUserCapabilities;
}

export interface AuthData extends AuthFlags {
  user: TAuthUser | null;
  roleDetails: TRoleDetails | null;
  facilities: TFacility[];
  /** What the signed-in user may do at all: the screens show only these actions. */
  capabilities: TUserCapabilities;
}

export interface AuthActions {
  setFlag: (flag: AuthFlag, value: boolean) => void;
  setVerifiedUser: (verified: VerifiedUser) => void;
  /** Forgets the user; no flag stays raised, initialisation counts as finished. */
  clear: () => void;
}

export type AuthState = AuthData & AuthActions;

const SIGNED_OUT: AuthData = {
  isAuthInitializing: false,
  loginUserInflight: false,
  fetchUserByEmailInflight: false,
  verifyUserInflight: false,
  user: null,
  roleDetails: null,
  facilities: [],
  capabilities: NO_CAPABILITIES,
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

/**
 * The auth store. Nothing of it is persisted: the ID token lives only in the token refresher's
 * memory, and a reload restores the session from the httpOnly refresh cookie (POST /auth/refresh).
 */
export function createAuthStore() {
  return createStore<AuthState>()((set) => ({
    ...SIGNED_OUT,
    isAuthInitializing: true,
    setFlag: (flag, value) => set({ [flag]: value }),
    setVerifiedUser: ({ user, roleDetails, facilities, capabilities = NO_CAPABILITIES }) =>
      set({ user, roleDetails, facilities, capabilities }),
    clear: () => set(SIGNED_OUT),
  }));
}

export type AuthStore = ReturnType<typeof createAuthStore>;

/** The app's one auth store. */
export const authStore = createAuthStore();

export function useAuth<T>(selector: (state: AuthState) => T): T {
  return useStore(authStore, selector);
}
