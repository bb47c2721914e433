import { WORKLIST_TOPIC, notificationTopic } from '@ris/domain';
import { useEffect } from 'react';
import { useAuth } from '../../stores/auth-store.ts';
import { realtime } from '../realtime/realtime.ts';

/**
 * Keeps the app's realtime connection open while someone is signed in, listening to the worklist and
 * the user's own notifications; closes it on sign-out. The shell owns this because it lives exactly
 * as long as the signed-in layout; features only subscribe to the open connection.
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
