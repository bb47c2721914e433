// The organisation language model of the offline speech engine (issue 17): an ARPA trigram model
// and a pronunciation dictionary built from the organisation's templates, macros and final reports
// (features/dictation/language-model). The files live here, so every replica can write them to its
// own disk cache; lm_sha256 names that cache.
import { integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { organisations } from './organisations.ts';

export const speechLanguageModels = pgTable('speech_language_models', {
  organisationId: uuid('organisation_id')
    .primaryKey()
    .references(() => organisations.id, { onDelete: 'cascade' }),
  builtAt: timestamptz('built_at').notNull().defaultNow(),
  /** Distinct words the model knows (its dictionary's entries). */
  words: integer('words').notNull(),
  /** Sentences it was estimated from. */
  sentences: integer('sentences').notNull(),
  /** SHA-256 (hex) of lm_arpa and dictionary together. */
  lmSha256: text('lm_sha256').notNull(),
  /** The ARPA text of the trigram model. */
  lmArpa: text('lm_arpa').notNull(),
  /** PocketSphinx dictionary lines ("word PH ON ES"). */
  dictionary: text('dictionary').notNull(),
});
