import { existsSync } from 'node:fs';
import { chmod, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { TConfig } from '../../config.ts';
import { openDatabase } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';
import { readDatabaseFacts, type TDatabaseFacts } from './database-facts.ts';
import { copyBlobsToBackup, LOCAL_DRIVER } from './file-store-copy.ts';
import {
  BACKUP_FORMAT_VERSION,
  BackupRefusedError,
  DATABASE_PART,
  sha256OfFile,
  writeManifest,
  type TManifest,
} from './manifest.ts';
import { runPgTool } from './postgres-tools.ts';
import { tokenSecretCheck } from './token-secret-check.ts';

export type TBackupInput = {
  database: TConfig['database'];
  /** DATA_DIR: the local file store is its `files` folder; the embedded database its `pglite` one. */
  dataDir: string;
  /** Where the backup directory is created. */
  outputDir: string;
  /** AUTH_TOKEN_SECRET (null: the one generated into DATA_DIR, if any); only its fingerprint is kept. */
  tokenSecret: string | null;
  /** The bucket's name when files live in S3-compatible storage (recorded, not copied). */
  objectStorageBucket?: string | null;
  now?: Date;
};

/**
 * Refuses to open an embedded data directory another process has open: PGlite writes
 * postmaster.pid when it opens one and removes it when it closes, but never checks for it, so two
 * processes would both write to the same files.
 */
export function assertEmbeddedDatabaseClosed(pgliteDir: string): void {
  if (existsSync(path.join(pgliteDir, 'postmaster.pid'))) {
    throw new BackupRefusedError(
      `the embedded database in ${pgliteDir} is open: stop the RIS server using this DATA_DIR first (if none is running, it stopped without closing the database: start it and stop it once)`,
    );
  }
}

async function dumpPostgres(url: string, target: string): Promise<TDatabaseFacts> {
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
  try {
    // pg_dump reads the snapshot this transaction exported, so the dump, the counts and the list of
    // blobs to copy describe the same moment while the server keeps running.
    return await database.db.transaction(
      async (tx) => {
        const [row] = await queryRows<{ snapshot: string }>(tx, sql`SELECT pg_export_snapshot() AS snapshot`);
        if (!row) throw new Error('PostgreSQL exported no snapshot');
        const facts = await readDatabaseFacts(tx);
        await runPgTool(
          'pg_dump',
          ['--format=custom', `--snapshot=${row.snapshot}`, `--file=${target}`],
          url,
        );
        await chmod(target, 0o600);
        return facts;
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  } finally {
    await database.close();
  }
}

function assertEmbeddedSource(pgliteDir: string): void {
  if (!existsSync(path.join(pgliteDir, 'PG_VERSION'))) {
    throw new BackupRefusedError(`there is no embedded database in ${pgliteDir} (check DATA_DIR)`);
  }
  assertEmbeddedDatabaseClosed(pgliteDir);
}

async function dumpPglite(pgliteDir: string, target: string): Promise<TDatabaseFacts> {
  assertEmbeddedSource(pgliteDir);
  const database = await openDatabase({ kind: 'pglite', dataDir: pgliteDir });
  try {
    if (!database.pglite) throw new Error('the embedded database did not open');
    const facts = await readDatabaseFacts(database.db);
    const dump = await database.pglite.dumpDataDir('gzip');
    await writeFile(target, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
    return facts;
  } finally {
    await database.close();
  }
}

/** `ris-backup-2026-11-26T13-58-01Z`: sorts by time, no characters a file system refuses. */
export function backupName(now: Date): string {
  return `ris-backup-${now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-')}`;
}

/**
 * Writes one backup directory: the database dump, the local file store's blobs under their keys,
 * and manifest.json. It is written as `<name>.partial` and renamed when complete, so a backup that
 * was interrupted never looks usable.
 */
export async function createBackup(input: TBackupInput): Promise<{ dir: string; manifest: TManifest }> {
  const now = input.now ?? new Date();
  const dir = path.join(input.outputDir, backupName(now));
  const partial = `${dir}.partial`;
  if (existsSync(dir)) throw new BackupRefusedError(`${dir} already exists`);
  const pgliteDir =
    input.database.kind === 'pglite' ? (input.database.dataDir ?? path.join(input.dataDir, 'pglite')) : null;
  if (pgliteDir) assertEmbeddedSource(pgliteDir);
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true, mode: 0o700 });
  try {
    const kind = input.database.kind;
    const databasePart = DATABASE_PART[kind];
    const dumpPath = path.join(partial, databasePart);
    const facts =
      input.database.kind === 'postgres'
        ? await dumpPostgres(input.database.url, dumpPath)
        : await dumpPglite(pgliteDir ?? path.join(input.dataDir, 'pglite'), dumpPath);
    const { files, problems } = await copyBlobsToBackup(
      path.join(input.dataDir, 'files'),
      partial,
      facts.blobs,
    );
    const manifest: TManifest = {
      formatVersion: BACKUP_FORMAT_VERSION,
      createdAt: now.toISOString(),
      databaseKind: kind,
      migrations: facts.migrations,
      counts: facts.counts,
      database: {
        path: databasePart,
        sizeBytes: (await stat(dumpPath)).size,
        sha256: await sha256OfFile(dumpPath),
      },
      files,
      problems,
      tokenSecretCheck: await tokenSecretCheck(input.tokenSecret, input.dataDir),
      objectStorage: {
        bucket: input.objectStorageBucket ?? null,
        storedFiles: facts.blobs.filter((blob) => blob.storageDriver !== LOCAL_DRIVER).length,
      },
    };
    await writeManifest(partial, manifest);
    await rename(partial, dir);
    return { dir, manifest };
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}
