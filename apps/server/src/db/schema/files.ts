// Uploaded and generated files (signatures, letterheads, report images, patient documents, PDFs).
// The bytes live in a storage driver; this row is the metadata and the content hash.
import { sql } from 'drizzle-orm';
import { bigint, char, index, pgTable, text, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, primaryId } from './columns.ts';
import { organisations } from './organisations.ts';
import { users } from './users.ts';

export const storedFiles = pgTable(
  'stored_files',
  {
    id: primaryId(),
    /** Null for files that belong to no organisation (e.g. a signature uploaded before joining one). */
    organisationId: uuid('organisation_id').references((): AnyPgColumn => organisations.id, {
      onDelete: 'restrict',
    }),
    storageDriver: text('storage_driver').notNull().default('local'),
    /** Driver-specific location of the bytes (a relative path for 'local'). */
    storageKey: text('storage_key').notNull().unique('stored_files_storage_key_uq'),
    /** Lower-case hex SHA-256 of the bytes. */
    sha256: char('sha256', { length: 64 }).notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    mediaType: text('media_type').notNull(),
    originalName: text('original_name'),
    createdBy: uuid('created_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('stored_files_sha256_idx').on(t.sha256),
    index('stored_files_organisation_idx')
      .on(t.organisationId)
      .where(sql`${t.organisationId} is not null`),
  ],
);
