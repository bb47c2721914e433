import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, type TSessionResponse, type TToastKind } from '@ris/domain';
import { ApiError } from '../../api/api-error.ts';
import { createAuthStore, isAuthBusy } from '../../stores/auth-store.ts';
import {
  SESSION_ENDED_MESSAGE,
  SIGN_IN_SUCCESS_MESSAGE,
  createAuthSession,
  type AuthSessionDeps,
} from './auth-session.ts';
import { createLocalLocks } from './cross-tab.ts';
import { buildDetails, buildUser, createChannelHub, deferred, sessionResponse } from './test-support.ts';
import { createTokenRefresher, type SessionMessage } from './token-refresher.ts';

type Api = AuthSessionDeps['api'];

function setup(
  api: Partial<Api> & { refresh?: () => Promise<TSessionResponse> } = {},
  hint?: AuthSessionDeps['hint'],
  userSettings?: AuthSessionDeps['userSettings'],
) {
  const toasts: string[] = [];
  const events: string[] = [];
  const auth = createAuthStore();
  const refresher = createTokenRefresher({
    refresh: api.refresh ?? (() => Promise.reject(new ApiError({ status: 401, code: 'UNAUTHENTICATED' }))),
    locks: createLocalLocks(),
    channel: createChannelHub<SessionMessage>().connect(),
  });
  const notUsed = (): Promise<never> => Promise.reject(new Error('not used'));
  const full: Api = {
    signIn: api.signIn ?? notUsed,
    signInWithEmailLink: api.signInWithEmailLink ?? notUsed,
    signOut: api.signOut ?? (() => (events.push('server-sign-out'), Promise.resolve(undefined))),
    fetchUserByEmail: api.fetchUserByEmail ?? (() => Promise.resolve(buildUser())),
    fetchUserDetails: api.fetchUserDetails ?? ((id) => Promise.resolve(buildDetails(buildUser({ id })))),
  };
  const session = createAuthSession({
    auth,
    api: full,
    refresher,
    notify: (kind: TToastKind, message: string) => void toasts.push(`${kind}:${message}`),
    onSignedIn: () => void events.push('tabs-cleared'),
    clearAll: () => void events.push('storage-cleared'),
    ...(hint ? { hint } : {}),
    ...(userSettings ? { userSettings } : {}),
  });
  return { auth, session, refresher, toasts, events };
}

const credentials = { email: 'radiologist@demo.test', password: 'demo-radiology' };

describe('auth session: sign-in', () => {
  it('keeps the guard loading until verified, then sets the user, clears tabs and toasts success', async () => {
    const answer = deferred<TSessionResponse>();
    const { auth, session, refresher, toasts, events } = setup({ signIn: () => answer.promise });
    await session.initialize();
    const done = session.signIn(credentials);
    expect(auth.getState().loginUserInflight).toBe(true);
    answer.resolve(sessionResponse('id-1'));
    expect(await done).toEqual({ ok: true, fieldErrors: {} });
    expect(isAuthBusy(auth.getState())).toBe(false);
    expect(auth.getState().user?.email).toBe('radiologist@demo.test');
    expect(auth.getState().facilities).toHaveLength(1);
    expect(refresher.token()).toBe('id-1');
    expect(toasts).toEqual([`success:${SIGN_IN_SUCCESS_MESSAGE}`]);
    expect(events).toEqual(['tabs-cleared']);
  });

  it('maps failures to the §8 login messages and hands back invalid fields', async () => {
    const cases: [ApiError, string][] = [
      [
        new ApiError({ status: 401, code: 'auth/invalid-credential', serverMessage: 'x' }),
        'Invalid username or password',
      ],
      [new ApiError({ status: 403, code: 'auth/user-disabled' }), 'This account has been disabled'],
      [
        new ApiError({ status: 429, code: 'auth/too-many-requests' }),
        'Too many failed attempts. Please try again later',
      ],
      [new ApiError({ status: 401, code: 'auth/wrong-password' }), 'Incorrect password'],
      [new ApiError({ status: 404, code: 'auth/user-not-found' }), 'No account found with this email'],
      [new ApiError({ status: 400, code: 'auth/invalid-email' }), 'Invalid email address'],
      [new ApiError({ status: 502 }), 'Invalid username or password'],
      [new ApiError({ status: 0, code: 'NETWORK_ERROR' }), 'An error occurred during login'],
    ];
    for (const [error, message] of cases) {
      const { auth, session, toasts } = setup({ signIn: () => Promise.reject(error) });
      expect((await session.signIn(credentials)).ok).toBe(false);
      expect(toasts).toEqual([`error:${message}`]);
      expect(auth.getState()).toMatchObject({ user: null, loginUserInflight: false });
    }
    const invalid = new ApiError({
      status: 400,
      code: 'VALIDATION_FAILED',
      serverMessage: 'Invalid request',
      details: { fields: [{ field: 'body.email', message: 'Enter a valid e-mail address' }] },
    });
    const { session } = setup({ signIn: () => Promise.reject(invalid) });
    expect(await session.signIn(credentials)).toEqual({
      ok: false,
      fieldErrors: { email: 'Enter a valid e-mail address' },
    });
  });

  it('refuses a user without an organisation: signs out on the server and says why', async () => {
    const orphan = buildUser({ organisation_fk: null });
    const { auth, session, refresher, toasts, events } = setup({
      signIn: () => Promise.resolve(sessionResponse('id-1', orphan)),
      fetchUserByEmail: () => Promise.resolve(orphan),
    });
    expect((await session.signIn(credentials)).ok).toBe(false);
    expect(auth.getState().user).toBeNull();
    expect(refresher.token()).toBeNull();
    expect(toasts).toEqual([`error:${AUTH_MESSAGES.noOrganisation}`]);
    expect(events).toEqual(['server-sign-out', 'storage-cleared']);
  });

  it('shows the no-centers warning after the success toast', async () => {
    const user = buildUser({ facility_fks: [] });
    const { toasts } = await (async () => {
      const s = setup({
        signIn: () => Promise.resolve(sessionResponse('id-1', user)),
        fetchUserByEmail: () => Promise.resolve(user),
        fetchUserDetails: () => Promise.resolve(buildDetails(user, [])),
      });
      await s.session.signIn(credentials);
      return s;
    })();
    expect(toasts).toEqual([`success:${SIGN_IN_SUCCESS_MESSAGE}`, 'warning:No centers found']);
  });
});

describe('auth session: start-up and sign-out', () => {
  it('restores the session from the refresh cookie and verifies the user', async () => {
    const { auth, session, refresher } = setup({ refresh: () => Promise.resolve(sessionResponse('id-r')) });
    expect(auth.getState().isAuthInitializing).toBe(true);
    await session.initialize();
    expect(isAuthBusy(auth.getState())).toBe(false);
    expect(auth.getState().user?.id).toBe(buildUser().id);
    expect(refresher.token()).toBe('id-r');
  });

  it('finishes quietly on the login page when there is no session', async () => {
    const { auth, session, toasts, events } = setup();
    await session.initialize();
    expect(auth.getState()).toMatchObject({ user: null, isAuthInitializing: false });
    expect(toasts).toEqual([]);
    expect(events).toEqual([]);
  });

  it('skips the refresh call when this browser has no note of a session, and keeps the note in step', async () => {
    let noted = false;
    const hint = { present: () => noted, set: (present: boolean) => void (noted = present) };
    let refreshes = 0;
    const refresh = () => (refreshes++, Promise.resolve(sessionResponse('id-r')));
    const first = setup({ refresh }, hint);
    await first.session.initialize();
    expect(refreshes).toBe(0);
    expect(first.auth.getState()).toMatchObject({ user: null, isAuthInitializing: false });

    noted = true;
    const second = setup({ refresh }, hint);
    await second.session.initialize();
    expect(refreshes).toBe(1);
    expect(second.auth.getState().user?.id).toBe(buildUser().id);
    await second.session.logout();
    expect(noted).toBe(false);

    const signIn = () => Promise.resolve(sessionResponse('id-1'));
    const third = setup({ signIn }, hint);
    await third.session.signIn(credentials);
    expect(noted).toBe(true);
    const gone = setup({}, hint);
    await gone.session.initialize();
    expect(noted).toBe(false);
  });

  it('signs out when the restored user can no longer be fetched', async () => {
    const { auth, session, toasts, events } = setup({
      refresh: () => Promise.resolve(sessionResponse('id-r')),
      fetchUserByEmail: () => Promise.reject(new ApiError({ status: 404 })),
    });
    await session.initialize();
    expect(auth.getState()).toMatchObject({ user: null, isAuthInitializing: false });
    expect(toasts).toEqual(['error:User not found']);
    expect(events).toEqual(['server-sign-out', 'storage-cleared']);
  });

  it('logout revokes the session on the server, then clears the user and all storage', async () => {
    const { auth, session, refresher, events } = setup({
      signIn: () => Promise.resolve(sessionResponse('id-1')),
    });
    await session.signIn(credentials);
    await session.logout();
    expect(auth.getState().user).toBeNull();
    expect(refresher.token()).toBeNull();
    expect(events).toEqual(['tabs-cleared', 'server-sign-out', 'storage-cleared']);
  });

  it('loads the user’s settings before the guard lets go, and writes them back before sign-out', async () => {
    const loading = deferred<undefined>();
    const log: string[] = [];
    const userSettings = {
      load: (userId: string) => (log.push(`load:${userId}`), loading.promise),
      flush: () => (log.push('flush'), Promise.resolve()),
    };
    const { auth, session, events } = setup(
      { signIn: () => Promise.resolve(sessionResponse('id-1')) },
      undefined,
      userSettings,
    );
    await session.initialize();
    const done = session.signIn(credentials);
    await expect.poll(() => log).toEqual([`load:${buildUser().id}`]);
    expect(isAuthBusy(auth.getState())).toBe(true);
    loading.resolve(undefined);
    await done;
    expect(isAuthBusy(auth.getState())).toBe(false);
    await session.logout();
    expect(log.at(-1)).toBe('flush');
    expect(events).toEqual(['tabs-cleared', 'server-sign-out', 'storage-cleared']);
  });

  it('logout still clears everything when the server cannot be reached', async () => {
    const { auth, session, events } = setup({
      signIn: () => Promise.resolve(sessionResponse('id-1')),
      signOut: () => Promise.reject(new ApiError({ status: 0, code: 'NETWORK_ERROR' })),
    });
    await session.signIn(credentials);
    await session.logout();
    expect(auth.getState().user).toBeNull();
    expect(events).toEqual(['tabs-cleared', 'storage-cleared']);
  });

  it('ends the identity session on a disabled user or a revoked token, with a toast', async () => {
    const { auth, session, refresher, toasts } = setup({
      signIn: () => Promise.resolve(sessionResponse('id-1')),
    });
    await session.signIn(credentials);
    session.endSession(new ApiError({ status: 403, code: 'auth/user-disabled' }));
    expect(auth.getState().user).toBeNull();
    expect(refresher.token()).toBeNull();
    expect(toasts.at(-1)).toBe('error:This account has been disabled');

    const revoked = setup({ signIn: () => Promise.resolve(sessionResponse('id-1')) });
    await revoked.session.signIn(credentials);
    revoked.session.endSession(new ApiError({ status: 401, code: 'auth/id-token-revoked' }));
    expect(revoked.toasts.at(-1)).toBe(`error:${SESSION_ENDED_MESSAGE}`);
    // Once signed out, a late failure of another call says nothing more.
    revoked.session.endSession(new ApiError({ status: 401, code: 'auth/id-token-revoked' }));
    expect(revoked.toasts.filter((t) => t.startsWith('error:'))).toHaveLength(1);
  });
});
