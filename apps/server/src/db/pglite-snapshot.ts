import { existsSync } from 'node:fs';
import { cp, mkdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, type TDatabase, type TDatabaseOptions } from './client.ts';
import { runMigrations } from './migrate.ts';

/**
 * A migrated, empty PGlite data directory, made once by `npm run build` (part of `npm install`).
 * A first start copies it instead of running initdb (about 3 s in WebAssembly); migrations added
 * after the snapshot was made are still applied at start-up as usual. It is kept as a plain
 * directory: a native copy of its ~1,200 files is several times faster than unpacking an archive
 * through PGlite's WebAssembly file system (measured in BENCHMARKS.md, start-up).
 */
export const PGLITE_SNAPSHOT_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'dist',
  'pglite-snapshot',
);

const isDataDirectory = (dir: string) => existsSync(path.join(dir, 'PG_VERSION'));

/** Writes the snapshot directory (replacing an older one). */
export async function writePgliteSnapshotDirectory(target = PGLITE_SNAPSHOT_DIR): Promise<void> {
  const temp = `${target}.tmp`;
  await rm(temp, { recursive: true, force: true });
  const database = await openDatabase({ kind: 'pglite', dataDir: temp });
  try {
    await runMigrations(database);
  } finally {
    await database.close();
  }
  await rm(target, { recursive: true, force: true });
  await rename(temp, target);
}

/** A gzipped tar of a migrated, empty in-memory PGlite (the tests load it into each database). */
export async function writePgliteSnapshot(target: string): Promise<void> {
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  try {
    await runMigrations(database);
    const dump = await database.pglite?.dumpDataDir('gzip');
    if (!dump) throw new Error('PGlite could not dump its data directory');
    const temp = `${target}.tmp`;
    await writeFile(temp, Buffer.from(await dump.arrayBuffer()));
    await rename(temp, target);
  } finally {
    await database.close();
  }
}

/**
 * Initialises a new embedded data directory from the snapshot: copied beside it, then renamed into
 * place, so a start interrupted half-way leaves no half-copied database behind. False when the
 * directory already holds a database or there is no snapshot.
 */
export async function initialiseFromSnapshot(
  dataDir: string,
  snapshot = PGLITE_SNAPSHOT_DIR,
): Promise<boolean> {
  if (isDataDirectory(dataDir) || !isDataDirectory(snapshot)) return false;
  const partial = `${dataDir}.partial-${process.pid}`;
  await mkdir(path.dirname(dataDir), { recursive: true });
  await cp(snapshot, partial, { recursive: true });
  if (existsSync(dataDir)) await rmdir(dataDir); // an empty directory made by someone else; else fails
  await rename(partial, dataDir);
  return true;
}

/** openDatabase, initialising a new embedded data directory from the snapshot when there is one. */
export async function openDatabaseFast(options: TDatabaseOptions): Promise<TDatabase> {
  if (options.kind === 'pglite' && options.dataDir) await initialiseFromSnapshot(options.dataDir);
  return openDatabase(options);
}
