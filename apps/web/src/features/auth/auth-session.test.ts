import { describe, expect, it } from 'vitest';
import type { TToastKind } from '@ris/domain';
import { ApiError } from '../../api/api-error.ts';
import type { AuthApi, TSignInResponse } from '../../api/auth-api.ts';
import { createAuthStore, isAuthBusy, type TAuthUser } from '../../stores/auth-store.ts';
import { createMemoryStorage } from '../../stores/session-storage.ts';
import { SIGN_IN_SUCCESS_MESSAGE, createAuthSession } from './auth-session.ts';

const USER: TAuthUser = {
  id: 'u1',
  email: 'rad@example.org',
  role: 'RADIOLOGIST',
  organisation_fk: 'org1',
  facility_fks: ['f1'],
};

type Api = Pick<AuthApi, 'signIn' | 'fetchUserByEmail'>;

function setup(api: Partial<Api>, storage = createMemoryStorage()) {
  const toasts: string[] = [];
  const events: string[] = [];
  const auth = createAuthStore(storage);
  const session = createAuthSession({
    auth,
    api: {
      signIn: api.signIn ?? (() => Promise.reject(new Error('not used'))),
      fetchUserByEmail: api.fetchUserByEmail ?? (() => Promise.reject(new Error('not used'))),
    },
    notify: (kind: TToastKind, message: string) => void toasts.push(`${kind}:${message}`),
    onSignedIn: () => void events.push('signed-in'),
    onLogout: () => void events.push('logout'),
    now: () => 1_000,
  });
  return { auth, session, toasts, events, storage };
}

const signedIn = (user: TAuthUser = USER): TSignInResponse => ({
  id_token: 'id-1',
  refresh_token: 'refresh-1',
  expires_in: 3600,
  user,
});

describe('auth session', () => {
  it('starts initialising and finishes at once without a stored session', async () => {
    const { auth, session } = setup({});
    expect(auth.getState().isAuthInitializing).toBe(true);
    await session.initialize();
    expect(isAuthBusy(auth.getState())).toBe(false);
    expect(auth.getState().user).toBeNull();
  });

  it('signs in: stores the session, raises the flag meanwhile, shows a success toast', async () => {
    let resolve: (value: TSignInResponse) => void = () => undefined;
    const { auth, session, toasts, events } = setup({
      signIn: () => new Promise((r) => (resolve = r)),
    });
    const done = session.signIn({ email: USER.email, password: 'secret1' });
    expect(auth.getState().loginUserInflight).toBe(true);
    resolve(signedIn());
    expect(await done).toBe(true);
    expect(auth.getState()).toMatchObject({
      loginUserInflight: false,
      idToken: 'id-1',
      expiresAt: 3_601_000,
    });
    expect(auth.getState().user?.id).toBe('u1');
    expect(toasts).toEqual([`success:${SIGN_IN_SUCCESS_MESSAGE}`]);
    expect(events).toEqual(['signed-in']);
  });

  it('maps sign-in failures to the login messages', async () => {
    const cases: [unknown, string][] = [
      [new ApiError({ status: 401, code: 'auth/wrong-password', serverMessage: 'x' }), 'Incorrect password'],
      [new ApiError({ status: 404, code: 'NOT_FOUND', serverMessage: 'Route not found' }), 'Route not found'],
      [new ApiError({ status: 502 }), 'Invalid username or password'],
      [new ApiError({ status: 0, code: 'NETWORK_ERROR' }), 'An error occurred during login'],
    ];
    for (const [error, message] of cases) {
      const { auth, session, toasts } = setup({ signIn: () => Promise.reject(error) });
      expect(await session.signIn({ email: 'a@b.c', password: 'secret1' })).toBe(false);
      expect(toasts).toEqual([`error:${message}`]);
      expect(auth.getState()).toMatchObject({ user: null, loginUserInflight: false });
    }
  });

  it('refuses a user without an organisation and warns a non-admin without facilities', async () => {
    const orphan = setup({ signIn: () => Promise.resolve(signedIn({ ...USER, organisation_fk: null })) });
    expect(await orphan.session.signIn({ email: USER.email, password: 'secret1' })).toBe(false);
    expect(orphan.auth.getState().user).toBeNull();
    expect(orphan.toasts).toEqual(['error:the user is not assigned to any organisation']);

    const noFacilities = setup({ signIn: () => Promise.resolve(signedIn({ ...USER, facility_fks: [] })) });
    expect(await noFacilities.session.signIn({ email: USER.email, password: 'secret1' })).toBe(true);
    expect(noFacilities.toasts[0]).toBe('warning:No centers found');
  });

  it('re-verifies a stored session on start and refreshes the user', async () => {
    const storage = createMemoryStorage();
    await setup({ signIn: () => Promise.resolve(signedIn()) }, storage).session.signIn({
      email: USER.email,
      password: 'secret1',
    });
    const { auth, session } = setup(
      { fetchUserByEmail: () => Promise.resolve({ ...USER, display_name: 'Dr Rad' }) },
      storage,
    );
    expect(auth.getState().idToken).toBe('id-1');
    await session.initialize();
    expect(auth.getState().user?.display_name).toBe('Dr Rad');
    expect(isAuthBusy(auth.getState())).toBe(false);
  });

  it('logs out when the stored user can no longer be fetched', async () => {
    const storage = createMemoryStorage();
    await setup({ signIn: () => Promise.resolve(signedIn()) }, storage).session.signIn({
      email: USER.email,
      password: 'secret1',
    });
    const { auth, session, toasts, events } = setup(
      { fetchUserByEmail: () => Promise.reject(new ApiError({ status: 404 })) },
      storage,
    );
    await session.initialize();
    expect(auth.getState()).toMatchObject({ user: null, idToken: null, isAuthInitializing: false });
    expect(toasts).toEqual(['error:User not found']);
    expect(events).toEqual(['logout']);
  });

  it('logout clears the user and tokens', async () => {
    const { auth, session, events } = setup({ signIn: () => Promise.resolve(signedIn()) });
    await session.signIn({ email: USER.email, password: 'secret1' });
    session.logout();
    expect(auth.getState()).toMatchObject({ user: null, idToken: null, refreshToken: null });
    expect(events).toEqual(['signed-in', 'logout']);
  });
});
