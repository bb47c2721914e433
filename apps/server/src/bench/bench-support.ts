// What the benchmarks that own a PostgreSQL database share: its name (checked), statements on the
// server's maintenance connection, and percentiles.
import pg from 'pg';

/** The benchmark's own database (BENCH_DB_NAME or the default): a plain identifier, never `postgres`. */
export function benchDatabaseName(fallback: string): string {
  const name = process.env.BENCH_DB_NAME ?? fallback;
  if (!/^[a-z_][a-z0-9_]*$/.test(name) || name === 'postgres') {
    throw new Error(`BENCH_DB_NAME must be a plain identifier other than postgres: ${name}`);
  }
  return name;
}

/** Runs one statement (CREATE / DROP DATABASE …) over a connection of its own to `url`. */
export async function adminStatement(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Whether the database `name` exists on the server of `url`. */
export async function databaseExists(url: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

/** The p-th percentile (nearest rank) of `values`; 0 when there are none. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
