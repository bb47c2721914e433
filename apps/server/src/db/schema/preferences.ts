// Preferences (spec §3 "User preference"): what a person sets once and finds in any browser.
import { sql } from 'drizzle-orm';
import { check, jsonb, pgTable, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { primaryId, timestamps } from './columns.ts';
import { scopeEnum } from './enums.ts';
import { organisations } from './organisations.ts';
import { users } from './users.ts';

/**
 * A preference document as JSON (validated by @ris/domain's ZPreferencesPatch on the way in,
 * repaired field by field on the way out). One ORGANISATION row per organisation (its admins'
 * choices for everyone) and one USER row per user (the spec's user_fk). A USER row names no
 * organisation: a person's own choices follow them. The DEFAULT scope is the product's and lives in
 * code (defaultPreferences()), not here.
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
      sql`(scope = 'USER' and user_id is not null and organisation_id is null)
        or (scope = 'ORGANISATION' and organisation_id is not null and user_id is null)`,
    ),
    uniqueIndex('user_preferences_organisation_uq')
      .on(t.organisationId)
      .where(sql`${t.scope} = 'ORGANISATION'`),
  ],
);
