import type { TPreferencesPatch, TUserPreferences } from '@ris/domain';
import { apiClient } from '../../api/client.ts';
import { API_BASE_PATH, type FetchLike, type HttpClient } from '../../api/http.ts';
import { sessionBridge } from '../../api/session-bridge.ts';

const parseUserPreferences = async (data: unknown): Promise<TUserPreferences> =>
  (await import('./preference-schemas.ts')).ZUserPreferences.parse(data);

const path = (userId: string) => `/user/preference/${encodeURIComponent(userId)}`;

export interface PreferencesApiOptions {
  /** The session's ID token, for the request that outlives the page. */
  token: () => string | null;
  /** Defaults to API_BASE_PATH and the global fetch; tests pass their own. */
  baseUrl?: string;
  fetch?: FetchLike;
}

/** GET and PUT /user/preference/{user} (spec §7). */
export function createPreferencesApi(http: HttpClient, options: PreferencesApiOptions) {
  const baseUrl = options.baseUrl ?? API_BASE_PATH;
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  return {
    /** The user's preferences resolved, with the user's and the organisation's own documents. */
    fetch: (userId: string, signal?: AbortSignal): Promise<TUserPreferences> =>
      http.get(path(userId), { signal, parse: parseUserPreferences }),
    /** Replaces the user's own document (the answer is not needed: the store already shows it). */
    save: async (userId: string, document: TPreferencesPatch, signal?: AbortSignal): Promise<void> => {
      await http.put(path(userId), { preferences: document }, { signal });
    },
    /**
     * The same write as a request that outlives the page (`keepalive`, for pagehide); nobody waits
     * for its answer.
     */
    saveOnExit: (userId: string, document: TPreferencesPatch): void => {
      const token = options.token();
      if (!token) return;
      void doFetch(`${baseUrl}${path(userId)}`, {
        method: 'PUT',
        keepalive: true,
        credentials: 'same-origin',
        headers: {
          Accept: 'application/json',
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ preferences: document }),
      }).catch(() => undefined);
    },
  };
}

export type PreferencesApi = ReturnType<typeof createPreferencesApi>;

export const preferencesApi = createPreferencesApi(apiClient, { token: sessionBridge.token });
