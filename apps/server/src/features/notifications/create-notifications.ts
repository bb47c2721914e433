// The one way an in-app notification is created: rows inserted in the command's transaction,
// announced ('notification.created' → realtime user-notification) only after commit.
import type { DomainEvents } from '../../events/domain-events.ts';
import type { TTx } from '../../db/client.ts';
import { notifications } from '../../db/schema/index.ts';

export type TCreatedNotification = {
  id: string;
  userId: string;
  type: string;
  title: string;
  body: string | null;
  data: unknown;
  createdAt: Date;
};

export type TNotificationType =
  | 'report-review-requested'
  | 'report-returned'
  | 'worklist-assigned'
  /** A study passed its turnaround target (features/home/turnaround-breaches.ts). */
  | 'turnaround-breach';

export type TNotificationInput = {
  organisationId: string;
  userIds: readonly string[];
  type: TNotificationType;
  title: string;
  body: string | null;
  data: Record<string, unknown>;
};

/** One notification row per distinct user. */
export async function insertNotifications(
  tx: TTx,
  input: TNotificationInput,
): Promise<TCreatedNotification[]> {
  const userIds = [...new Set(input.userIds)];
  if (userIds.length === 0) return [];
  return tx
    .insert(notifications)
    .values(
      userIds.map((userId) => ({
        organisationId: input.organisationId,
        userId,
        type: input.type,
        title: input.title,
        body: input.body,
        data: input.data,
      })),
    )
    .returning();
}

/** After commit: each notification reaches its user (realtime topic notification-{userId}). */
export function emitNotifications(
  events: DomainEvents,
  organisationId: string,
  created: readonly TCreatedNotification[],
): void {
  for (const notification of created) {
    events.emit('notification.created', {
      organisationId,
      userId: notification.userId,
      notification: {
        id: notification.id,
        type: notification.type,
        title: notification.title,
        body: notification.body,
        data: notification.data,
        created_at: notification.createdAt.toISOString(),
      },
    });
  }
}
