import type { TNotificationList } from '@ris/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { notify } from '../../stores/app-store.ts';
import type { RealtimeConnection } from '../realtime/realtime-connection.ts';
import { realtime } from '../realtime/realtime.ts';
import { notificationKeys, notificationsApi } from './notifications-api.ts';
import { markReadLocally, parseLiveNotification, prependNotification } from './notifications-cache.ts';

const MARK_READ_FAILED = 'Failed to mark notifications read';

/** Where live messages come from: the app's realtime connection (tests pass one with a fake socket). */
export type TLiveMessages = Pick<RealtimeConnection, 'subscribe' | 'onRejoined'>;

/**
 * The signed-in user's recent notifications: fetched once, then kept current by `user-notification`
 * messages (the layout already listens to the user's notification topic), and read again when the
 * connection has rejoined its topics. Marking read is optimistic:
 * is_read is set locally at once (spec §4) and restored if the server refuses.
 */
export function useNotifications(userId: string, live: TLiveMessages = realtime) {
  const queryClient = useQueryClient();
  const key = notificationKeys.recent(userId);

  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => notificationsApi.recent(userId, signal),
    enabled: userId !== '',
    staleTime: 60_000,
  });

  useEffect(() => {
    if (!userId) return;
    const queryKey = notificationKeys.recent(userId);
    // Rejoined after a disconnection: notifications sent meanwhile never arrived, read them again.
    const stopRejoined = live.onRejoined(() => void queryClient.invalidateQueries({ queryKey }));
    const unsubscribe = live.subscribe((message) => {
      if (message.type !== 'user-notification') return;
      const notification = parseLiveNotification(message.data);
      if (!notification) {
        console.warn('Realtime: malformed user-notification');
        return;
      }
      if (!queryClient.getQueryData<TNotificationList>(queryKey)) {
        // Not loaded yet (or a fetch is under way that may predate it): fetch again.
        void queryClient.invalidateQueries({ queryKey });
        return;
      }
      queryClient.setQueryData<TNotificationList>(queryKey, (list) =>
        list ? prependNotification(list, notification) : list,
      );
    });
    return () => {
      unsubscribe();
      stopRejoined();
    };
  }, [live, queryClient, userId]);

  const markRead = useMutation({
    mutationFn: (ids: readonly string[] | 'all') => notificationsApi.markRead(ids),
    onMutate: async (ids) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<TNotificationList>(key);
      if (before) queryClient.setQueryData(key, markReadLocally(before, ids));
      return { before };
    },
    onError: (error, _ids, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
      notify('error', errorMessage(error, MARK_READ_FAILED));
    },
  });

  return {
    list: query.data,
    isPending: query.isPending,
    isError: query.isError,
    unreadCount: query.data?.unread_count ?? 0,
    markRead: (ids: readonly string[] | 'all') => markRead.mutate(ids),
    markingRead: markRead.isPending,
  };
}
