import type pg from 'pg';

/**
 * At most this many named statements stay prepared on one connection; to prepare another, the one
 * used least recently is deallocated. PostgreSQL keeps a prepared statement (its parse tree, and
 * under force_generic_plan its plan) in the backend's memory until the connection closes: the
 * worklist's statements held about 0.45 MiB each, and a server clicked through the worklist's filters,
 * sorts and pages met 2,084 distinct statements in 6,000 requests, still about 190 new ones in every
 * thousand (BENCHMARKS.md). Kept without a bound, one connection grew to 909 MiB; kept as the first
 * 200 statements the process met, whatever was clicked later ran unprepared for the process's life.
 */
export const STATEMENTS_PER_CONNECTION = 100;

/** The names a connection holds prepared, least recently used first (a Map keeps insertion order). */
const preparedOn = new WeakMap<pg.PoolClient, Map<string, true>>();

/**
 * node-pg's own record of the statements a connection has parsed: it sends Parse only for a name it
 * does not hold. Not in the driver's types, so read with checks; null if a driver version lacks it,
 * and then nothing is deallocated (a full connection runs other statements unnamed).
 */
function parsedStatementsOf(client: pg.PoolClient): Record<string, string> | null {
  const connection: unknown = Reflect.get(client, 'connection');
  if (typeof connection !== 'object' || connection === null) return null;
  const parsed: unknown = Reflect.get(connection, 'parsedStatements');
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : null;
}

/**
 * Whether `name` may be used on the client: it is held already (now the most recently used), or room
 * was made for it by deallocating the least recently used. False when the client is full and the
 * driver's record cannot be updated.
 */
async function roomFor(client: pg.PoolClient, name: string): Promise<boolean> {
  let names = preparedOn.get(client);
  if (!names) {
    names = new Map();
    preparedOn.set(client, names);
  }
  if (names.delete(name)) {
    names.set(name, true);
    return true;
  }
  if (names.size >= STATEMENTS_PER_CONNECTION) {
    const parsed = parsedStatementsOf(client);
    const [oldest] = names.keys();
    if (parsed === null || oldest === undefined) return false;
    // A statement whose Parse failed was never prepared: nothing to deallocate.
    if (parsed[oldest] !== undefined) {
      await client.query(`deallocate "${oldest.replaceAll('"', '""')}"`);
      Reflect.deleteProperty(parsed, oldest);
    }
    names.delete(oldest);
  }
  names.set(name, true);
  return true;
}

/**
 * Runs a statement on one of the pool's connections, as a named prepared statement when `name` is
 * given (at most STATEMENTS_PER_CONNECTION kept per connection), else unnamed. As pg-pool's own
 * query does, a connection whose statement failed is closed rather than returned to the pool.
 */
export async function queryPooled<TRow>(
  pool: pg.Pool,
  statement: { name: string | undefined; text: string; values: unknown[] },
): Promise<TRow[]> {
  const { name, text, values } = statement;
  if (name === undefined) return (await pool.query({ text, values })).rows as TRow[];
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    const named = await roomFor(client, name);
    const result = await client.query(named ? { name, text, values } : { text, values });
    return result.rows as TRow[];
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(failure);
  }
}
