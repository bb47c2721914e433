import { authStore } from '../stores/auth-store.ts';
import { createHttpClient } from './http.ts';

/** The app's API client: same origin, /api/v1, bearer token of the signed-in user. */
export const apiClient = createHttpClient({ getToken: () => authStore.getState().idToken });
