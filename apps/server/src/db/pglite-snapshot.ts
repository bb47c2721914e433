import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, type TDatabase, type TDatabaseOptions } from './client.ts';
import { runMigrations } from './migrate.ts';

/**
 * A migrated, empty PGlite data directory, made once by `npm run build` (part of `npm install`).
 * A first start unpacks it instead of running initdb (about 3 s in WebAssembly); migrations added
 * after the snapshot was made are still applied at start-up as usual.
 */
export const PGLITE_SNAPSHOT_PATH = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'dist',
  'pglite-snapshot.tar.gz',
);

export async function writePgliteSnapshot(target = PGLITE_SNAPSHOT_PATH): Promise<void> {
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

/** The snapshot to initialise a new data directory from; null when the directory already exists. */
export async function pgliteSnapshotFor(dataDir: string): Promise<Blob | null> {
  if (existsSync(path.join(dataDir, 'PG_VERSION')) || !existsSync(PGLITE_SNAPSHOT_PATH)) return null;
  return new Blob([await readFile(PGLITE_SNAPSHOT_PATH)]);
}

/** openDatabase, initialising a new embedded data directory from the snapshot when there is one. */
export async function openDatabaseFast(options: TDatabaseOptions): Promise<TDatabase> {
  if (options.kind === 'pglite' && options.dataDir) {
    const snapshot = await pgliteSnapshotFor(options.dataDir);
    if (snapshot) return openDatabase({ ...options, loadDataDir: snapshot });
  }
  return openDatabase(options);
}
