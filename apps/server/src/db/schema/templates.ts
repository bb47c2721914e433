// Report templates and a radiologist's text macros.
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { primaryId, timestamps } from './columns.ts';
import { modalityGroupEnum, recordStatusEnum, templateScopeEnum } from './enums.ts';
import { organisations } from './organisations.ts';
import { users } from './users.ts';

/**
 * A report template. DEFAULT templates ship with the product (no organisation, no owner);
 * ORGANISATION templates are shared in one organisation; USER templates belong to owner_user_id.
 */
export const templates = pgTable(
  'templates',
  {
    id: primaryId(),
    organisationId: uuid('organisation_id').references(() => organisations.id, { onDelete: 'cascade' }),
    scope: templateScopeEnum('scope').notNull(),
    ownerUserId: uuid('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    modalityGroup: modalityGroupEnum('modality_group'),
    bodyPart: text('body_part'),
    /** Sanitised HTML. */
    content: text('content').notNull().default(''),
    status: recordStatusEnum('status').notNull().default('ACTIVE'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (t) => [
    check(
      'templates_scope_owner_ck',
      sql`(scope = 'DEFAULT' and organisation_id is null and owner_user_id is null)
        or (scope = 'ORGANISATION' and organisation_id is not null and owner_user_id is null)
        or (scope = 'USER' and organisation_id is not null and owner_user_id is not null)`,
    ),
    // GET /radiologist/templates: an organisation's shared templates, the DEFAULT ones
    // (organisation_id is null) and a user's own (by_user_ids), listed by name.
    index('templates_organisation_scope_name_idx').on(t.organisationId, t.scope, t.name),
    index('templates_owner_name_idx')
      .on(t.ownerUserId, t.name)
      .where(sql`${t.ownerUserId} is not null`),
  ],
);

/** A macro: typing short_key in the editor inserts `value` (HTML). The spec's user_fk is user_id. */
export const macros = pgTable(
  'macros',
  {
    id: primaryId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    shortKey: text('short_key').notNull(),
    value: text('value').notNull(),
    displayName: text('display_name'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('macros_user_short_key_uq').on(t.userId, sql`lower(${t.shortKey})`)],
);
