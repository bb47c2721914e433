import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../../../db/client.ts';
import { queryRows } from '../../../db/rows.ts';
import { createTestDatabase } from '../../../test/test-database.ts';
import { closeWorklistPools, hotRows, worklistPoolOf } from './worklist-sql.ts';

type TSetting = { setting: string };

describe('the worklist statements runner', () => {
  let database: TDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await closeWorklistPools(database);
    await database.close();
  });

  /** A setting as the worklist's pool of that plan has it (hotRows picks the pool by the plan). */
  const setting = async (name: string, plan: 'custom' | 'generic') => {
    if (!database.pool) throw new Error('PostgreSQL only');
    const pool = await worklistPoolOf(database.pool, plan);
    const result = await pool.query<TSetting>('select current_setting($1) as setting', [name]);
    return result.rows[0]?.setting;
  };

  it('runs a prepared statement again with its new parameters, under either plan', async () => {
    for (const plan of ['custom', 'generic'] as const) {
      for (const value of [1, 2, 3]) {
        const rows = await hotRows<{ doubled: number }>(database, sql`select ${value}::int * 2 as doubled`, {
          prepare: true,
          plan,
        });
        expect(rows).toEqual([{ doubled: value * 2 }]);
      }
    }
  });

  // PostgreSQL only (CI runs it): PGlite has one in-process connection and no parallel workers.
  if (process.env.TEST_DATABASE_URL) {
    it('plans each statement as asked, with neither parallel workers nor JIT', async () => {
      expect(await setting('plan_cache_mode', 'custom')).toBe('force_custom_plan');
      expect(await setting('plan_cache_mode', 'generic')).toBe('force_generic_plan');
      for (const plan of ['custom', 'generic'] as const) {
        expect(await setting('max_parallel_workers_per_gather', plan)).toBe('0');
        expect(await setting('jit', plan)).toBe('off');
      }
    });

    it('opens at most as many connections again as the application pool', async () => {
      await Promise.all(Array.from({ length: 12 }, () => setting('jit', 'custom')));
      await Promise.all(Array.from({ length: 12 }, () => setting('jit', 'generic')));
      const rows = await queryRows<{ count: number }>(
        database.db,
        sql`
        select count(*)::int as count from pg_stat_activity
        where application_name = 'ris-worklist' and datname = current_database()`,
      );
      // The test database's pool holds 4: two for each of the worklist's pools.
      expect(rows[0]?.count).toBe(4);
    });
  }
});
