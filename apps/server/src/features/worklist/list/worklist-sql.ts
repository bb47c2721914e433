import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type pg from 'pg';
import type { TDatabase } from '../../../db/client.ts';
import { compileSql } from '../../../db/compile-sql.ts';
import { queryRows } from '../../../db/rows.ts';

/**
 * At most this many distinct statements are prepared by name; others run unnamed. Each pooled
 * connection keeps the statements it prepared (and their plans) until it closes, so the number of
 * shapes is bounded here: the worklist's shapes are few (which filters are present, sort column and
 * direction, count or not), far fewer than this.
 */
const MAX_NAMED_STATEMENTS = 200;
const statementNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  const known = statementNames.get(text);
  if (known) return known;
  if (statementNames.size >= MAX_NAMED_STATEMENTS) return undefined;
  const name = `worklist_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  statementNames.set(text, name);
  return name;
}

/**
 * How PostgreSQL plans a prepared statement. `custom`: for its parameters on every run (the pool's
 * setting, see db/client.ts), as a statement whose best plan depends on them needs. `generic`: once
 * per connection, then reused, which halves the cost of a worklist page (planning is half of it) but
 * is only safe for statements with one sensible plan whatever the parameters (see
 * worklist-list.queries.ts, planModeOf).
 */
export type TPlanMode = 'custom' | 'generic';

/** A small second pool whose connections plan prepared statements generically, per application pool. */
const genericPools = new WeakMap<pg.Pool, pg.Pool>();

async function genericPoolOf(pool: pg.Pool): Promise<pg.Pool> {
  let generic = genericPools.get(pool);
  if (!generic) {
    // Loaded here, not at the top: PGlite installations never load the PostgreSQL driver.
    const { default: driver } = await import('pg');
    const existing = genericPools.get(pool);
    if (existing) return existing;
    generic = new driver.Pool({
      ...pool.options,
      max: Math.max(2, Math.ceil((pool.options.max ?? 10) / 2)),
      application_name: 'ris-worklist',
      // No parallel workers: a generic plan's estimates once planned a Gather for a count of a few
      // hundred index entries, and starting the workers cost 25 ms.
      options: '-c plan_cache_mode=force_generic_plan -c jit=off -c max_parallel_workers_per_gather=0',
    });
    generic.on('error', () => undefined);
    genericPools.set(pool, generic);
  }
  return generic;
}

/** Closes the generic-plan pool of the database, if one was opened (the application's onClose). */
export async function closeWorklistPools(database: TDatabase): Promise<void> {
  const generic = database.pool ? genericPools.get(database.pool) : undefined;
  if (!generic) return;
  genericPools.delete(database.pool as pg.Pool);
  await generic.end();
}

/** A statement as hotRows sends it to PostgreSQL, for benchmarks that explain what ran. */
export type TWorklistStatement = { text: string; params: unknown[]; plan: TPlanMode };
let statementObserver: ((statement: TWorklistStatement) => void) | null = null;

/** Benchmarks only: sees every statement hotRows runs on PostgreSQL (null stops). */
export function observeWorklistStatements(observer: ((statement: TWorklistStatement) => void) | null): void {
  statementObserver = observer;
}

/**
 * Runs one of the worklist's hot statements. On PostgreSQL, straight on the pool (not through
 * Drizzle's session, whose per-query wrapping cost more than the driver call), and with `prepare` as
 * a named prepared statement: each connection parses and analyses its text once; `plan` chooses how
 * it is planned. PGlite runs it through Drizzle (one process, no round trip to save).
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
  const target = generic ? await genericPoolOf(pool) : pool;
  const result = await target.query(name ? { name, text, values: params } : { text, values: params });
  return result.rows as TRow[];
}
