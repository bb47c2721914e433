import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.ts';
import { runMigrations } from '../db/migrate.ts';
import { writePgliteSnapshot } from '../db/pglite-snapshot.ts';
import { migrationsFingerprint } from './migrations-fingerprint.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase:
      | { kind: 'postgres'; adminUrl: string; template: string; prefix: string }
      | { kind: 'pglite'; dumpPath: string };
  }
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * Prepares one migrated database that every test file clones: on PostgreSQL a template database
 * (named after the migrations' fingerprint, so it is rebuilt when they change); on PGlite a dump of a
 * migrated data directory. Test files then start from a clean, fully migrated database in
 * milliseconds instead of migrating their own.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const template = `ris_tpl_${await migrationsFingerprint()}`;
    const prefix = `ris_t_${randomBytes(4).toString('hex')}_`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (exists.rowCount === 0) {
        const building = `${template}_build_${randomBytes(3).toString('hex')}`;
        await admin.query(`CREATE DATABASE "${building}"`);
        const database = await openDatabase({
          kind: 'postgres',
          url: withDatabase(url, building),
          poolSize: 1,
        });
        try {
          await runMigrations(database);
        } finally {
          await database.close();
        }
        // Renaming makes the template appear complete or not at all, even if two runs race.
        await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`).catch(async () => {
          await admin.query(`DROP DATABASE IF EXISTS "${building}"`);
        });
      }
    } finally {
      await admin.end();
    }
    project.provide('testDatabase', { kind: 'postgres', adminUrl: url, template, prefix });
    return async () => {
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      try {
        const left = await cleanup.query<{ datname: string }>(
          'SELECT datname FROM pg_database WHERE datname LIKE $1',
          [`${prefix}%`],
        );
        for (const row of left.rows)
          await cleanup.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
      } finally {
        await cleanup.end();
      }
    };
  }

  const dir = await mkdtemp(path.join(os.tmpdir(), 'ris-pglite-'));
  const dumpPath = path.join(dir, 'migrated.tar.gz');
  await writePgliteSnapshot(dumpPath);
  project.provide('testDatabase', { kind: 'pglite', dumpPath });
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
