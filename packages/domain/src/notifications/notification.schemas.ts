import { z } from 'zod';
import { ZPagination } from '../api/pagination.ts';
import { ZUuid } from '../common/uuid.ts';

/** Page size of GET /notification/{user_id} when no limit is given. */
export const NOTIFICATION_PAGE_SIZE = 20;
/** Largest page of notifications a client may ask for. */
export const MAX_NOTIFICATION_PAGE_LIMIT = 100;
/** Most notification ids one PUT /notification/read may name. */
export const MAX_NOTIFICATION_READ_IDS = 200;

/** A notification as the API (and the `user-notification` realtime message) sends it. */
export const ZNotification = z.object({
  id: ZUuid,
  /** What happened, e.g. `worklist-assigned`. */
  type: z.string(),
  title: z.string(),
  body: z.string().nullable(),
  /** Where it leads, e.g. `{ worklist_id, facility_fk }`. */
  data: z.record(z.string(), z.unknown()).nullable(),
  is_read: z.boolean(),
  created_at: z.iso.datetime({ offset: true }),
});
export type TNotification = z.infer<typeof ZNotification>;

/** The notification inside a `user-notification` message: new, so unread unless it says otherwise. */
export const ZLiveNotification = ZNotification.extend({
  id: z.string().min(1),
  is_read: z.boolean().default(false),
  data: z.record(z.string(), z.unknown()).nullable().catch(null),
});

/** GET /notification/{user_id} query: a page (default 20, newest first), optionally unread only. */
export const ZNotificationListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_NOTIFICATION_PAGE_LIMIT).default(NOTIFICATION_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  /** `true` lists only unread notifications (total counts those); default false. */
  unread_only: z.enum(['true', 'false']).default('false'),
});
export type TNotificationListQuery = z.infer<typeof ZNotificationListQuery>;

/** GET /notification/{user_id}: a page of notifications and how many are unread in all. */
export const ZNotificationList = ZPagination.extend({
  items: z.array(ZNotification),
  unread_count: z.number().int().nonnegative(),
});
export type TNotificationList = z.infer<typeof ZNotificationList>;

/**
 * PUT /notification/read: the caller's notifications to mark read (others' ids are ignored), or
 * `all: true` for every one of them. One of the two is required.
 */
export const ZMarkNotificationsReadBody = z
  .object({
    notification_ids: z
      .array(ZUuid)
      .min(1, 'notification_ids must name at least one notification')
      .max(MAX_NOTIFICATION_READ_IDS)
      .optional(),
    all: z.boolean().optional(),
  })
  .refine((body) => body.all === true || body.notification_ids !== undefined, {
    message: 'notification_ids is required unless all is true',
    path: ['notification_ids'],
  });
export type TMarkNotificationsReadBody = z.infer<typeof ZMarkNotificationsReadBody>;

/** What PUT /notification/read changed: the caller's notifications that turned read, and the unread left. */
export const ZMarkNotificationsReadResponse = z.object({
  updated_ids: z.array(ZUuid),
  unread_count: z.number().int().nonnegative(),
});
export type TMarkNotificationsReadResponse = z.infer<typeof ZMarkNotificationsReadResponse>;

/** The study a notification leads to (`data.worklist_id`, else `data.study_id`), if any. */
export function notificationWorklistId(notification: {
  data: Record<string, unknown> | null;
}): string | null {
  const data = notification.data;
  if (!data) return null;
  const id = data.worklist_id ?? data.study_id;
  return typeof id === 'string' && id !== '' ? id : null;
}
