import { createHttpClient } from './http.ts';
import { sessionBridge } from './session-bridge.ts';

/**
 * The app's API client: same origin, /api/v1, the session's bearer token; an expired token is
 * refreshed once and the call retried, a session-ending error signs the user out.
 */
export const apiClient = createHttpClient({ getToken: sessionBridge.token, session: sessionBridge });
