import { sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';
import { reports, reportVersions, storedFiles } from '../../db/schema/index.ts';
import type { TCounts, TMigrationLevel } from './manifest.ts';

export type TStoredBlob = { storageDriver: string; storageKey: string; sha256: string; sizeBytes: number };

/** What a backup records about its database and what a restore checks again afterwards. */
export type TDatabaseFacts = { migrations: TMigrationLevel; counts: TCounts; blobs: TStoredBlob[] };

/** Read in one transaction (or one snapshot) so the facts agree with each other and with the dump. */
export async function readDatabaseFacts(db: TDbOrTx): Promise<TDatabaseFacts> {
  const [level] = await queryRows<{ applied: number; latest: number | null }>(
    db,
    sql`SELECT count(*)::int AS applied, max(created_at)::float8 AS latest FROM drizzle.__drizzle_migrations`,
  );
  const blobs = await db
    .select({
      storageDriver: storedFiles.storageDriver,
      storageKey: storedFiles.storageKey,
      sha256: storedFiles.sha256,
      sizeBytes: storedFiles.sizeBytes,
    })
    .from(storedFiles)
    .orderBy(storedFiles.storageKey);
  return {
    migrations: { applied: Number(level?.applied ?? 0), latest: Number(level?.latest ?? 0) },
    counts: {
      reports: await db.$count(reports),
      reportVersions: await db.$count(reportVersions),
      storedFiles: blobs.length,
    },
    blobs: blobs.map((blob) => ({ ...blob, sizeBytes: Number(blob.sizeBytes) })),
  };
}

/** True when the database holds no table, view or sequence of its own (a fresh CREATE DATABASE). */
export async function isEmptyDatabase(db: TDbOrTx): Promise<boolean> {
  const [row] = await queryRows<{ relations: number }>(
    db,
    sql`SELECT count(*)::int AS relations FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
          AND n.nspname NOT LIKE 'pg\_toast%' AND n.nspname NOT LIKE 'pg\_temp%'`,
  );
  return Number(row?.relations ?? 0) === 0;
}
