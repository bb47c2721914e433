import { createAuthApi } from '../../api/auth-api.ts';
import { apiClient } from '../../api/client.ts';
import { queryClient } from '../../api/query-client.ts';
import { appStore, notify } from '../../stores/app-store.ts';
import { authStore } from '../../stores/auth-store.ts';
import { sessionOrMemoryStorage } from '../../stores/session-storage.ts';
import { settingsStore } from '../../stores/settings-store.ts';
import { createAuthSession } from './auth-session.ts';

export const authApi = createAuthApi(apiClient);

/** The app's auth session, wired to the real stores, API client and toasts. */
export const authSession = createAuthSession({
  auth: authStore,
  api: authApi,
  notify,
  onSignedIn: () => settingsStore.getState().clearTabs(),
  onLogout: () => {
    settingsStore.getState().reset();
    appStore.getState().dismissToast();
    queryClient.clear();
    sessionOrMemoryStorage().clear();
  },
});
