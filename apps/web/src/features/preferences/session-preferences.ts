import { notify } from '../../stores/app-store.ts';
import { authStore } from '../../stores/auth-store.ts';
import { sessionOrMemoryStorage } from '../../stores/session-storage.ts';
import { settingsStore } from '../../stores/settings-store.ts';
import { preferencesApi } from './preferences-api.ts';
import { createPreferenceSync } from './preference-sync.ts';

/** The app's preference sync, wired to the real stores and API (the auth session loads and flushes it). */
export const preferenceSync = createPreferenceSync({
  settings: settingsStore,
  auth: authStore,
  api: preferencesApi,
  storage: sessionOrMemoryStorage(),
  notify,
});

// A reload, a navigation away or a closed tab still sends the last change (a keepalive request).
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => preferenceSync.flushOnExit());
}
