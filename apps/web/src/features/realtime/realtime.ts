import { io } from 'socket.io-client';
import { useStore } from 'zustand';
import { sessionBridge } from '../../api/session-bridge.ts';
import { createRealtimeConnection, type SocketLike, type TConnectionState } from './realtime-connection.ts';

/** The app's one realtime connection, to the page's own origin at /ws/. */
export const realtime = createRealtimeConnection({
  createSocket: (options) => io(options) as unknown as SocketLike,
  getToken: () => sessionBridge.token(),
});

export function useConnectionState(): TConnectionState {
  return useStore(realtime.state, (state) => state.status);
}
