import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type TSchema = typeof schema;
/** The Drizzle database both drivers share; features are written against this type only. */
export type TDb = PgDatabase<PgQueryResultHKT, TSchema, ExtractTablesWithRelations<TSchema>>;
export type TTx = PgTransaction<PgQueryResultHKT, TSchema, ExtractTablesWithRelations<TSchema>>;
/** Either the database or an open transaction: commands take this so callers choose the boundary. */
export type TDbOrTx = TDb | TTx;

export type TDatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'pglite'; dataDir: string | null; loadDataDir?: Blob };

export type TDatabase = {
  kind: 'postgres' | 'pglite';
  db: TDb;
  /** Embedded engine, when kind is pglite (tests dump it; migrations run on it directly). */
  pglite: PGlite | null;
  /** Connection pool, when kind is postgres. */
  pool: pg.Pool | null;
  close(): Promise<void>;
};

export const PGLITE_EXTENSIONS = { pg_trgm, unaccent };

// node-postgres returns bigint (int8) as strings by default; our counts and sizes fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/** Opens PostgreSQL (DATABASE_URL) through node-postgres, or the embedded PGlite engine. */
export async function openDatabase(options: TDatabaseOptions): Promise<TDatabase> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      application_name: 'ris',
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    const db = drizzlePg({ client: pool, schema, casing: 'snake_case' });
    return { kind: 'postgres', db, pglite: null, pool, close: () => pool.end() };
  }
  const client = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: PGLITE_EXTENSIONS,
  });
  const db = drizzlePglite({ client, schema, casing: 'snake_case' });
  return { kind: 'pglite', db, pglite: client, pool: null, close: () => client.close() };
}
