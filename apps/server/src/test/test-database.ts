import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type TDatabase } from '../db/client.ts';

/**
 * A fresh, migrated database for one test file: a clone of the template on PostgreSQL
 * (TEST_DATABASE_URL), or an in-memory PGlite loaded from the migrated dump. `close()` drops it.
 */
export async function createTestDatabase(): Promise<TDatabase> {
  const target = inject('testDatabase');
  if (target.kind === 'pglite') {
    const dump = await readFile(target.dumpPath);
    return openDatabase({ kind: 'pglite', dataDir: null, loadDataDir: new Blob([dump]) });
  }
  const name = `${target.prefix}${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: target.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${target.template}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(target.adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 });
  const close = database.close;
  return {
    ...database,
    async close() {
      await close();
      const dropper = new pg.Client({ connectionString: target.adminUrl });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
