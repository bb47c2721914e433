import { createAuthApi } from '../../api/auth-api.ts';
import { apiClient } from '../../api/client.ts';
import { queryClient } from '../../api/query-client.ts';
import { connectSession } from '../../api/session-bridge.ts';
import { appStore, notify } from '../../stores/app-store.ts';
import { authStore } from '../../stores/auth-store.ts';
import { sessionOrMemoryStorage } from '../../stores/session-storage.ts';
import { settingsStore } from '../../stores/settings-store.ts';
import { preferenceSync } from '../preferences/session-preferences.ts';
import { createAuthSession } from './auth-session.ts';
import { browserChannel, browserLocks } from './cross-tab.ts';
import { browserSessionHint } from './session-hint.ts';
import { SESSION_CHANNEL, createTokenRefresher, type SessionMessage } from './token-refresher.ts';

export const authApi = createAuthApi(apiClient);

/** The ID token of this tab, kept fresh in coordination with the other tabs. */
export const tokenRefresher = createTokenRefresher({
  refresh: () => authApi.refresh(),
  locks: browserLocks(),
  channel: browserChannel<SessionMessage>(SESSION_CHANNEL),
});

/** The app's auth session, wired to the real stores, API client and toasts. */
export const authSession = createAuthSession({
  auth: authStore,
  api: authApi,
  refresher: tokenRefresher,
  notify,
  onSignedIn: () => settingsStore.getState().clearTabs(),
  hint: browserSessionHint,
  userSettings: preferenceSync,
  clearAll: () => {
    settingsStore.getState().reset();
    appStore.getState().dismissToast();
    queryClient.clear();
    sessionOrMemoryStorage().clear();
  },
});

// A returning user's first answer (the refresh) is read with zod: fetch the schemas alongside it
// rather than after it. A first-time visitor of /login does not download them before the form shows.
if (browserSessionHint.present()) void import('../../api/auth-schemas.ts');

connectSession({
  token: tokenRefresher.token,
  renewToken: async () => (await tokenRefresher.refresh()).idToken,
  onSessionEnded: (error) => authSession.endSession(error),
});

// Background tabs' timers are throttled: check the token when the tab is looked at again.
if (typeof document !== 'undefined') {
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') tokenRefresher.wake();
  });
}
