import type { SQL } from 'drizzle-orm';
import type { TDbOrTx } from './client.ts';

/**
 * Runs raw SQL and returns its rows. Both drivers answer `{ rows }`; the shared database type cannot
 * know that, so this is the one place that says it.
 */
export async function queryRows<TRow>(db: TDbOrTx, query: SQL): Promise<TRow[]> {
  const result = (await db.execute(query)) as { rows: TRow[] };
  return result.rows;
}
