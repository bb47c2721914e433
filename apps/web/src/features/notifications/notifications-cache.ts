import { ZLiveNotification, type TNotification, type TNotificationList } from '@ris/domain';

/** The notification of a `user-notification` realtime message, or null when it is malformed. */
export function parseLiveNotification(data: unknown): TNotification | null {
  const payload = typeof data === 'object' && data !== null ? (data as { notification?: unknown }) : {};
  const parsed = ZLiveNotification.safeParse(payload.notification);
  return parsed.success ? parsed.data : null;
}

/**
 * A new notification at the top of the list (the page keeps its size) with the counts bumped; a
 * notification already listed changes nothing (a message may repeat what a fetch brought).
 */
export function prependNotification(list: TNotificationList, notification: TNotification): TNotificationList {
  if (list.items.some((item) => item.id === notification.id)) return list;
  return {
    ...list,
    items: [notification, ...list.items].slice(0, Math.max(list.limit, 1)),
    total: list.total + 1,
    unread_count: list.unread_count + (notification.is_read ? 0 : 1),
  };
}

/**
 * Marks notifications read locally (spec §4): the given ids, or all. The unread count falls by the
 * listed ones that turn read, or to 0 for all.
 */
export function markReadLocally(list: TNotificationList, ids: readonly string[] | 'all'): TNotificationList {
  const targets = ids === 'all' ? null : new Set(ids);
  let turned = 0;
  const items = list.items.map((item) => {
    if (item.is_read || (targets && !targets.has(item.id))) return item;
    turned += 1;
    return { ...item, is_read: true };
  });
  return {
    ...list,
    items,
    unread_count: targets ? Math.max(0, list.unread_count - turned) : 0,
  };
}
