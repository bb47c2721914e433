import type { ApiError } from './api-error.ts';
import type { SessionHooks } from './http.ts';

/** What the API client needs from the identity session: its token, renewal and the end of it. */
export interface SessionBridge extends SessionHooks {
  token: () => string | null;
}

const signedOut: SessionBridge = {
  token: () => null,
  renewToken: () => Promise.resolve(null),
  onSessionEnded: () => undefined,
};

let connected: SessionBridge = signedOut;

/**
 * Plugs the auth feature's session into the API client at start-up; the client module cannot import
 * the session itself (the session calls the API through the client).
 */
export function connectSession(session: SessionBridge): void {
  connected = session;
}

/** The bridge the client calls; it always forwards to the connected session. */
export const sessionBridge: SessionBridge = {
  token: () => connected.token(),
  renewToken: (rejected) => connected.renewToken(rejected),
  onSessionEnded: (error: ApiError) => connected.onSessionEnded(error),
};
