import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { TConfig } from '../../config.ts';
import { openDatabase, type TDatabase } from '../../db/client.ts';
import { assertEmbeddedDatabaseClosed } from './backup.ts';
import { isEmptyDatabase, readDatabaseFacts, type TDatabaseFacts } from './database-facts.ts';
import { copyBlobsFromBackup, findRestoredBlobProblems } from './file-store-copy.ts';
import {
  assertRestorableLevel,
  BackupRefusedError,
  readManifest,
  resolvePart,
  verifyParts,
  type TCounts,
  type TManifest,
} from './manifest.ts';
import { runPgTool } from './postgres-tools.ts';
import { tokenSecretCheck, tokenSecretWarning } from './token-secret-check.ts';

export type TRestoreInput = {
  backupDir: string;
  database: TConfig['database'];
  dataDir: string;
  /** AUTH_TOKEN_SECRET where the restored data will be served (compared with the backup's). */
  tokenSecret: string | null;
  /** Restore over a database or file store that is not empty (what was there is replaced). */
  force?: boolean;
  now?: Date;
};

export type TRestoreSummary = {
  manifest: TManifest;
  counts: TCounts;
  filesRestored: number;
  /** Blobs the backup itself recorded as missing or damaged in the live store. */
  knownProblems: TManifest['problems'];
  /** What to do before starting a server on the restored data. */
  warnings: string[];
  /** Where what was there before went (with force), to delete once the restore is checked. */
  replaced: string[];
};

const isNonEmptyDir = async (dir: string) =>
  existsSync(dir) && (await readdir(dir).catch(() => [])).length > 0;

/** Compares what the restored database holds with the manifest and the restored blobs. */
async function verifyRestored(facts: TDatabaseFacts, manifest: TManifest, filesRoot: string): Promise<void> {
  const counts = facts.counts;
  const expected = manifest.counts;
  if (
    counts.reports !== expected.reports ||
    counts.reportVersions !== expected.reportVersions ||
    counts.storedFiles !== expected.storedFiles
  ) {
    throw new Error(
      `the restored database does not hold what the backup recorded: ${JSON.stringify(counts)}, expected ${JSON.stringify(expected)}`,
    );
  }
  const problems = await findRestoredBlobProblems(filesRoot, facts.blobs, manifest.problems);
  if (problems.length > 0) {
    const first = problems.slice(0, 5).map((p) => `${p.storageKey} (${p.problem})`);
    throw new Error(`${problems.length} restored file(s) do not match stored_files: ${first.join(', ')}`);
  }
}

/** Moves what is at `live` aside (force) or out of the way (an empty folder), then `staged` into place. */
async function moveIntoPlace(staged: string, live: string, stamp: string, replaced: string[]): Promise<void> {
  if (existsSync(live)) {
    if (await isNonEmptyDir(live)) {
      const aside = `${live}.replaced-${stamp}`;
      await rename(live, aside);
      replaced.push(aside);
    } else {
      await rmdir(live);
    }
  }
  await rename(staged, live);
}

/** Empties a PostgreSQL database the restore filled, so a failed check leaves nothing a start uses. */
async function emptyPostgres(database: TDatabase): Promise<void> {
  await database.db.execute(sql`DROP SCHEMA IF EXISTS drizzle CASCADE`);
  await database.db.execute(sql`DROP SCHEMA IF EXISTS public CASCADE`);
  await database.db.execute(sql`CREATE SCHEMA public`);
}

/** Whether the PostgreSQL target is empty; refuses a non-empty one unless forced. */
async function checkPostgresTarget(url: string, force: boolean): Promise<boolean> {
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
  try {
    const empty = await isEmptyDatabase(database.db);
    if (!empty && !force) {
      throw new BackupRefusedError(
        'the target database is not empty; restore into a new, empty database (createdb) or pass --force to replace what it holds',
      );
    }
    return empty;
  } finally {
    await database.close();
  }
}

async function restorePostgres(
  backupDir: string,
  url: string,
  manifest: TManifest,
  stagedFiles: string,
  empty: boolean,
): Promise<TDatabaseFacts> {
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
  try {
    const dump = resolvePart(backupDir, manifest.database.path);
    // One transaction: a failed restore leaves the database as it was.
    const clean = empty ? [] : ['--clean', '--if-exists'];
    await runPgTool(
      'pg_restore',
      ['--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges', ...clean, dump],
      url,
    );
    const facts = await readDatabaseFacts(database.db);
    try {
      await verifyRestored(facts, manifest, stagedFiles);
    } catch (error) {
      await emptyPostgres(database);
      throw error;
    }
    return facts;
  } finally {
    await database.close();
  }
}

/** Refuses a non-empty embedded target (unless forced) or one a running server has open. */
async function checkPgliteTarget(pgliteDir: string, force: boolean): Promise<void> {
  assertEmbeddedDatabaseClosed(pgliteDir);
  if ((await isNonEmptyDir(pgliteDir)) && !force) {
    throw new BackupRefusedError(
      `the embedded database in ${pgliteDir} is not empty; restore into a new DATA_DIR or pass --force to replace it (it is kept beside as pglite.replaced-<time>)`,
    );
  }
}

/** Loads the dump into a staging data directory and checks it there, before anything is moved. */
async function restorePglite(
  backupDir: string,
  manifest: TManifest,
  stagedDatabase: string,
  stagedFiles: string,
): Promise<TDatabaseFacts> {
  await rm(stagedDatabase, { recursive: true, force: true });
  const dump = await readFile(resolvePart(backupDir, manifest.database.path));
  const database = await openDatabase({
    kind: 'pglite',
    dataDir: stagedDatabase,
    loadDataDir: new Blob([dump]),
  });
  try {
    const facts = await readDatabaseFacts(database.db);
    await verifyRestored(facts, manifest, stagedFiles);
    return facts;
  } finally {
    await database.close();
  }
}

const timeStamp = (now: Date) =>
  now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');

/**
 * Restores a backup made by createBackup: checks the manifest (format, migration level, every
 * part's checksum) and that the target is empty before touching anything, restores the database
 * (PostgreSQL: in one transaction; embedded: beside DATA_DIR/pglite) and the blobs (beside
 * DATA_DIR/files), checks that every stored_files row has its bytes and the counts match, and only
 * then moves what it staged into place.
 */
export async function restoreBackup(input: TRestoreInput): Promise<TRestoreSummary> {
  const manifest = await readManifest(input.backupDir);
  const target = input.database;
  if (manifest.databaseKind !== target.kind) {
    throw new BackupRefusedError(
      manifest.databaseKind === 'postgres'
        ? 'this is a PostgreSQL backup: set DATABASE_URL to the (empty) database to restore it into'
        : 'this is a backup of the embedded database: unset DATABASE_URL and set DATA_DIR to restore it',
    );
  }
  await assertRestorableLevel(manifest.migrations);
  await verifyParts(input.backupDir, manifest);

  const force = input.force === true;
  const filesRoot = path.join(input.dataDir, 'files');
  if ((await isNonEmptyDir(filesRoot)) && !force) {
    throw new BackupRefusedError(
      `the file store ${filesRoot} is not empty; restore into a new DATA_DIR or pass --force to replace it (it is kept beside as files.replaced-<time>)`,
    );
  }
  const pgliteDir = target.kind === 'pglite' ? (target.dataDir ?? path.join(input.dataDir, 'pglite')) : null;
  const postgresEmpty = target.kind === 'postgres' ? await checkPostgresTarget(target.url, force) : false;
  if (pgliteDir) await checkPgliteTarget(pgliteDir, force);

  const stamp = timeStamp(input.now ?? new Date());
  const stagedFiles = `${filesRoot}.restoring-${process.pid}`;
  const stagedDatabase = pgliteDir ? `${pgliteDir}.restoring-${process.pid}` : null;
  const replaced: string[] = [];
  try {
    await rm(stagedFiles, { recursive: true, force: true });
    await mkdir(stagedFiles, { recursive: true, mode: 0o700 });
    await copyBlobsFromBackup(input.backupDir, stagedFiles, manifest.files);
    let facts: TDatabaseFacts;
    if (target.kind === 'postgres') {
      facts = await restorePostgres(input.backupDir, target.url, manifest, stagedFiles, postgresEmpty);
    } else {
      if (!pgliteDir || !stagedDatabase) throw new Error('no embedded data directory');
      facts = await restorePglite(input.backupDir, manifest, stagedDatabase, stagedFiles);
      await moveIntoPlace(stagedDatabase, pgliteDir, stamp, replaced);
    }
    await moveIntoPlace(stagedFiles, filesRoot, stamp, replaced);
    return {
      manifest,
      counts: facts.counts,
      filesRestored: manifest.files.length,
      knownProblems: manifest.problems,
      warnings: [
        tokenSecretWarning(
          manifest.tokenSecretCheck,
          await tokenSecretCheck(input.tokenSecret, input.dataDir),
        ),
      ].filter((warning) => warning !== null),
      replaced,
    };
  } finally {
    await rm(stagedFiles, { recursive: true, force: true });
    if (stagedDatabase) await rm(stagedDatabase, { recursive: true, force: true });
  }
}
