// Tags (labels users put on worklist items) and the worklist tags applying them.
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, primaryId, timestamps } from './columns.ts';
import { templateScopeEnum } from './enums.ts';
import { organisations } from './organisations.ts';
import { studies } from './studies.ts';
import { users } from './users.ts';

/**
 * A tag. DEFAULT tags ship with the product (the spec's default_tags); ORGANISATION tags are shared
 * in an organisation; USER tags belong to their creator (the spec's by_user_fk). Names are unique,
 * case-insensitively, per owner.
 */
export const tags = pgTable(
  'tags',
  {
    id: primaryId(),
    organisationId: uuid('organisation_id').references(() => organisations.id, { onDelete: 'cascade' }),
    scope: templateScopeEnum('scope').notNull(),
    name: text('name').notNull(),
    colour: text('colour'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'cascade' }),
    ...timestamps(),
  },
  (t) => [
    check(
      'tags_scope_owner_ck',
      sql`(scope = 'DEFAULT' and organisation_id is null)
        or (scope = 'ORGANISATION' and organisation_id is not null)
        or (scope = 'USER' and created_by is not null)`,
    ),
    uniqueIndex('tags_default_name_uq')
      .on(sql`lower(${t.name})`)
      .where(sql`${t.scope} = 'DEFAULT'`),
    uniqueIndex('tags_organisation_name_uq')
      .on(t.organisationId, sql`lower(${t.name})`)
      .where(sql`${t.scope} = 'ORGANISATION'`),
    uniqueIndex('tags_user_name_uq')
      .on(t.createdBy, sql`lower(${t.name})`)
      .where(sql`${t.scope} = 'USER'`),
  ],
);

/** A tag put on a study by a user (DELETE /worklist/worklist-tag/{id} removes one). */
export const worklistTags = pgTable(
  'worklist_tags',
  {
    id: primaryId(),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    tagId: uuid('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    /** Who tagged. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('worklist_tags_study_tag_user_uq').on(t.studyId, t.tagId, t.userId),
    // GET /worklist/worklist-tags/{user id}
    index('worklist_tags_user_created_idx').on(t.userId, t.createdAt),
    index('worklist_tags_tag_idx').on(t.tagId),
  ],
);
