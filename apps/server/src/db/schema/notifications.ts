// In-app notifications.
import { boolean, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, primaryId, timestamptz } from './columns.ts';
import { organisations } from './organisations.ts';
import { users } from './users.ts';

/** A notification for one user (GET /notification/{user_id}, PUT /notification/read). */
export const notifications = pgTable(
  'notifications',
  {
    id: primaryId(),
    organisationId: uuid('organisation_id').references(() => organisations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    title: text('title').notNull(),
    body: text('body'),
    data: jsonb('data').$type<Record<string, unknown>>(),
    isRead: boolean('is_read').notNull().default(false),
    readAt: timestamptz('read_at'),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_read_created_idx').on(t.userId, t.isRead, t.createdAt)],
);
