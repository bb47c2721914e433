import { useStore } from 'zustand';
import { ApiError } from '../../api/api-error.ts';
import { sessionBridge } from '../../api/session-bridge.ts';
import { SESSION_ENDING_CODES } from '../../api/session-errors.ts';
import { createRealtimeConnection, type SocketLike, type TConnectionState } from './realtime-connection.ts';

/**
 * The app's one realtime connection, to the page's own origin at /ws/. socket.io-client (about
 * 13 KB of gzipped JavaScript) loads with the first connection, not with the screens.
 */
export const realtime = createRealtimeConnection({
  createSocket: async (options) => {
    const { io } = await import('socket.io-client');
    return io(options) as unknown as SocketLike;
  },
  getToken: () => sessionBridge.token(),
  // A handshake refused because the sign-in no longer holds (disabled, signed out everywhere) ends the
  // session in this tab at once, as the same answer to an API call does.
  onRefused: (code, message) => {
    if (SESSION_ENDING_CODES.includes(code)) {
      sessionBridge.onSessionEnded(new ApiError({ status: 401, code, serverMessage: message }));
    }
  },
});

export function useConnectionState(): TConnectionState {
  return useStore(realtime.state, (state) => state.status);
}
