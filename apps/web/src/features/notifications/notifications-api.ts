import {
  NOTIFICATION_PAGE_SIZE,
  ZMarkNotificationsReadResponse,
  ZNotificationList,
  type TMarkNotificationsReadResponse,
  type TNotificationList,
} from '@ris/domain';
import { apiClient } from '../../api/client.ts';

/** Query keys of the notifications' server state (one list per signed-in user). */
export const notificationKeys = {
  all: ['notifications'] as const,
  recent: (userId: string) => ['notifications', userId, 'recent'] as const,
};

export const notificationsApi = {
  /** GET /notification/{user_id}: the newest page (default 20) with the unread count. */
  recent: (userId: string, signal?: AbortSignal): Promise<TNotificationList> =>
    apiClient.get(`/notification/${encodeURIComponent(userId)}`, {
      query: { limit: NOTIFICATION_PAGE_SIZE },
      signal,
      parse: (data) => ZNotificationList.parse(data),
    }),
  /** PUT /notification/read with the ids, or every one of the user's notifications. */
  markRead: (ids: readonly string[] | 'all'): Promise<TMarkNotificationsReadResponse> =>
    apiClient.put('/notification/read', ids === 'all' ? { all: true } : { notification_ids: ids }, {
      parse: (data) => ZMarkNotificationsReadResponse.parse(data),
    }),
};
