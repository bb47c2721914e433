import { WORKLIST_TOPIC, notificationTopic } from '@ris/domain';
import { useEffect } from 'react';
import { io } from 'socket.io-client';
import { useStore } from 'zustand';
import { sessionBridge } from '../../api/session-bridge.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { createRealtimeConnection, type SocketLike, type TConnectionState } from './realtime-connection.ts';

/** The app's one realtime connection, to the page's own origin at /ws/. */
export const realtime = createRealtimeConnection({
  createSocket: (options) => io(options) as unknown as SocketLike,
  getToken: () => sessionBridge.token(),
});

export function useConnectionState(): TConnectionState {
  return useStore(realtime.state, (state) => state.status);
}

/**
 * Keeps the connection open while someone is signed in, listening to the worklist and the user's own
 * notifications; closes it on sign-out.
 */
export function useRealtimeSession(): void {
  const userId = useAuth((state) => state.user?.id);
  useEffect(() => {
    if (!userId) return;
    realtime.open();
    realtime.listen(WORKLIST_TOPIC);
    realtime.listen(notificationTopic(userId));
    return () => realtime.close();
  }, [userId]);
}
