import type { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type pg from 'pg';
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

/**
 * Opens PostgreSQL (DATABASE_URL) through node-postgres, or the embedded PGlite engine. Only the
 * driver in use is loaded: each costs a few hundred milliseconds of start-up.
 */
export async function openDatabase(options: TDatabaseOptions): Promise<TDatabase> {
  if (options.kind === 'postgres') {
    const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
    ]);
    // node-postgres returns bigint (int8) as strings by default; our counts and sizes fit in a number.
    pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      application_name: 'ris',
      // Named prepared statements (the worklist's hot reads) skip parsing, but are planned for their
      // parameters on every run: a generic plan cannot know a date range or a facility list, and
      // PostgreSQL's default may switch to one that is 30x slower (see BENCHMARKS.md, worklist).
      // No JIT: it pays off for long analytical queries, never for these short ones, and it
      // triggers on the planner's cost alone: a worklist page whose statement holds a branch it
      // never runs (worklist-list.queries.ts) spent 25 ms compiling for a 1 ms read.
      options: '-c plan_cache_mode=force_custom_plan -c jit=off',
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    const db = drizzlePg({ client: pool, schema, casing: 'snake_case' });
    return { kind: 'postgres', db, pglite: null, pool, close: () => pool.end() };
  }
  const [{ PGlite }, { pg_trgm }, { unaccent }, { drizzle: drizzlePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite/contrib/unaccent'),
    import('drizzle-orm/pglite'),
  ]);
  const client = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: { pg_trgm, unaccent },
  });
  const db = drizzlePglite({ client, schema, casing: 'snake_case' });
  return { kind: 'pglite', db, pglite: client, pool: null, close: () => client.close() };
}
