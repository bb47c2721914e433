import type { TNotification } from '@ris/domain';
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx, TTx } from '../../db/client.ts';
import { notifications } from '../../db/schema/index.ts';

type TNotificationRow = typeof notifications.$inferSelect;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function presentNotification(row: TNotificationRow): TNotification {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    body: row.body,
    data: isRecord(row.data) ? row.data : null,
    is_read: row.isRead,
    created_at: row.createdAt.toISOString(),
  };
}

/** How many notifications the user has, and how many of them are unread. */
export async function countNotifications(
  db: TDbOrTx,
  userId: string,
): Promise<{ total: number; unread: number }> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      unread: sql<number>`(count(*) filter (where not ${notifications.isRead}))::int`,
    })
    .from(notifications)
    .where(eq(notifications.userId, userId));
  return { total: row?.total ?? 0, unread: row?.unread ?? 0 };
}

/** One page of a user's notifications, newest first (ties by id, so pages never overlap). */
export async function listNotifications(
  db: TDbOrTx,
  input: { userId: string; unreadOnly: boolean; limit: number; offset: number },
): Promise<TNotificationRow[]> {
  const conditions: SQL[] = [eq(notifications.userId, input.userId)];
  if (input.unreadOnly) conditions.push(eq(notifications.isRead, false));
  return db
    .select()
    .from(notifications)
    .where(and(...conditions))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(input.limit)
    .offset(input.offset);
}

/**
 * Marks the user's unread notifications read: the named ones, or all of them. Ids of other users'
 * notifications match nothing. Returns the ids that turned read.
 */
export async function markNotificationsRead(
  tx: TTx,
  input: { userId: string; ids: string[] | 'all'; now: Date },
): Promise<string[]> {
  const conditions: SQL[] = [eq(notifications.userId, input.userId), eq(notifications.isRead, false)];
  if (input.ids !== 'all') conditions.push(inArray(notifications.id, input.ids));
  const rows = await tx
    .update(notifications)
    .set({ isRead: true, readAt: input.now })
    .where(and(...conditions))
    .returning({ id: notifications.id });
  return rows.map((row) => row.id);
}
