import { useStore } from 'zustand';
import { sessionBridge } from '../../api/session-bridge.ts';
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
});

export function useConnectionState(): TConnectionState {
  return useStore(realtime.state, (state) => state.status);
}
