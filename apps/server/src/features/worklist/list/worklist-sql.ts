import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';
import type { TDatabase } from '../../../db/client.ts';
import { compileSql } from '../../../db/compile-sql.ts';
import { queryPooled } from '../../../db/prepared-statements.ts';
import { queryRows } from '../../../db/rows.ts';

/**
 * A statement's name: a hash of its text, so every process and connection names it alike. The names
 * of recent texts are remembered (up to REMEMBERED_NAMES, then forgotten at once); hashing a text
 * again takes about 10 µs. How many stay prepared on a connection is queryPooled's bound.
 */
const REMEMBERED_NAMES = 1_000;
const statementNames = new Map<string, string>();

function statementName(text: string): string {
  const known = statementNames.get(text);
  if (known) return known;
  if (statementNames.size >= REMEMBERED_NAMES) statementNames.clear();
  const name = `worklist_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  statementNames.set(text, name);
  return name;
}

/**
 * How PostgreSQL plans a prepared statement. `custom`: for its parameters on every run (the pool's
 * setting, see db/client.ts), as a statement whose best plan depends on them needs. `generic`: once
 * per connection, then reused, which halves the cost of a worklist page (planning is half of it) but
 * is only safe for statements with one sensible plan whatever the parameters (see
 * worklist-plan-mode.ts).
 */
export type TPlanMode = 'custom' | 'generic';

/**
 * The worklist's own pools beside the application's, per application pool: `generic` plans prepared
 * statements generically; `custom` for its parameters, as the application's pool does. Neither starts
 * parallel workers. A generic plan's estimates once planned a Gather for a count of a few hundred
 * index entries, and starting the workers cost 25 ms. A search's collect (every match of "sm" over an
 * admin's all dates, 12,000 rows) ran 98 ms with two workers, 34 ms without: on a server's few cores,
 * shared by every user's requests, the workers wait for the CPU the request itself would use.
 */
type TWorklistPools = Record<TPlanMode, pg.Pool>;
const worklistPools = new WeakMap<pg.Pool, TWorklistPools>();

export async function worklistPoolOf(pool: pg.Pool, plan: TPlanMode): Promise<pg.Pool> {
  let pools = worklistPools.get(pool);
  if (!pools) {
    // Loaded here, not at the top: PGlite installations never load the PostgreSQL driver.
    const { default: driver } = await import('pg');
    const existing = worklistPools.get(pool);
    if (existing) return existing[plan];
    const size = pool.options.max ?? 10;
    const open = (mode: TPlanMode, max: number) => {
      const opened = new driver.Pool({
        ...pool.options,
        max,
        application_name: 'ris-worklist',
        options: `-c plan_cache_mode=force_${mode}_plan -c jit=off -c max_parallel_workers_per_gather=0`,
      });
      opened.on('error', () => undefined);
      return opened;
    };
    // Half the application's pool each: up to as many connections again as DATABASE_POOL_SIZE (README).
    const half = Math.max(2, Math.ceil(size / 2));
    pools = { generic: open('generic', half), custom: open('custom', half) };
    worklistPools.set(pool, pools);
  }
  return pools[plan];
}

/** Closes the worklist's pools of the database, if they were opened (the application's onClose). */
export async function closeWorklistPools(database: TDatabase): Promise<void> {
  const pools = database.pool ? worklistPools.get(database.pool) : undefined;
  if (!pools) return;
  worklistPools.delete(database.pool as pg.Pool);
  await Promise.all([pools.generic.end(), pools.custom.end()]);
}

/** A statement as hotRows sends it to PostgreSQL, for benchmarks that explain what ran. */
export type TWorklistStatement = { text: string; params: unknown[]; plan: TPlanMode };
let statementObserver: ((statement: TWorklistStatement) => void) | null = null;

/** Benchmarks only: sees every statement hotRows runs on PostgreSQL (null stops). */
export function observeWorklistStatements(observer: ((statement: TWorklistStatement) => void) | null): void {
  statementObserver = observer;
}

/**
 * Runs one of the worklist's hot statements. On PostgreSQL, straight on one of the worklist's pools
 * (not through Drizzle's session, whose per-query wrapping cost more than the driver call; the pool
 * by how the statement is planned, worklistPoolOf), and with `prepare` as
 * a named prepared statement: a connection parses and analyses its text once while it holds it (the
 * most recently used STATEMENTS_PER_CONNECTION, queryPooled); `plan` chooses how it is planned.
 * PGlite runs it through Drizzle (one process, no round trip to save).
 */
export async function hotRows<TRow>(
  database: TDatabase,
  query: SQL,
  options: { prepare: boolean; plan?: TPlanMode },
): Promise<TRow[]> {
  const pool = database.pool;
  if (!pool) return queryRows<TRow>(database.db, query);
  const { sql: text, params } = compileSql(query);
  const name = options.prepare ? statementName(text) : undefined;
  const generic = name !== undefined && options.plan === 'generic';
  statementObserver?.({ text, params, plan: generic ? 'generic' : 'custom' });
  const target = await worklistPoolOf(pool, generic ? 'generic' : 'custom');
  return queryPooled<TRow>(target, { name, text, values: params });
}

/** ORDER BY a column of `table` (an alias, or "" for unqualified) in the page's direction, ties by id. */
export function orderBy(page: { sort_order?: 'asc' | 'desc' | undefined }, column: string, table = ''): SQL {
  const direction = page.sort_order === 'asc' ? 'asc' : 'desc';
  const of = table === '' ? '' : `${table}.`;
  return sql.raw(`order by ${of}"${column}" ${direction}, ${of}"id" ${direction}`);
}
