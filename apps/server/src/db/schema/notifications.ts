// In-app notifications and user / organisation preferences.
import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, primaryId, timestamps, timestamptz } from './columns.ts';
import { scopeEnum } from './enums.ts';
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

/**
 * Preferences (worklist columns, quick actions, default viewer ...) as JSON. One ORGANISATION row per
 * organisation (its defaults) and one USER row per user (the spec's user_fk).
 */
export const userPreferences = pgTable(
  'user_preferences',
  {
    id: primaryId(),
    scope: scopeEnum('scope').notNull(),
    organisationId: uuid('organisation_id').references(() => organisations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .unique('user_preferences_user_uq')
      .references(() => users.id, { onDelete: 'cascade' }),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps(),
  },
  (t) => [
    check(
      'user_preferences_scope_owner_ck',
      sql`(scope = 'USER' and user_id is not null)
        or (scope = 'ORGANISATION' and organisation_id is not null and user_id is null)`,
    ),
    uniqueIndex('user_preferences_organisation_uq')
      .on(t.organisationId)
      .where(sql`${t.scope} = 'ORGANISATION'`),
  ],
);
