import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../../../db/client.ts';
import { queryPooled, STATEMENTS_PER_CONNECTION } from '../../../db/prepared-statements.ts';
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

    it('keeps the most recently used statements prepared on a connection, at most STATEMENTS_PER_CONNECTION', async () => {
      if (!database.pool) throw new Error('PostgreSQL only');
      // Distinct texts (a marker column each), as many more than fit as a connection would meet.
      const statement = (index: number) =>
        sql`select ${index}::int as value, ${sql.raw(`${index}`)} as "bound_${sql.raw(`${index}`)}"`;
      const run = async (index: number) =>
        hotRows<{ value: number }>(database, statement(index), { prepare: true, plan: 'generic' });
      const count = STATEMENTS_PER_CONNECTION + 30;
      for (let index = 0; index < count; index += 1)
        expect(await run(index)).toEqual([expect.objectContaining({ value: index })]);
      // Every connection of the pool, held at once, says what it holds prepared.
      const pool = await worklistPoolOf(database.pool, 'generic');
      const clients = await Promise.all([pool.connect(), pool.connect()]);
      try {
        const held = await Promise.all(
          clients.map(async (client) => {
            const result = await client.query<{ statement: string }>(
              `select statement from pg_prepared_statements where name like 'worklist\\_%'`,
            );
            return result.rows.map((row) => row.statement);
          }),
        );
        for (const statements of held)
          expect(statements.length).toBeLessThanOrEqual(STATEMENTS_PER_CONNECTION);
        const all = held.flat();
        // The last one run is held; the first was deallocated to make room.
        expect(all.some((text) => text.includes(`"bound_${count - 1}"`))).toBe(true);
        expect(all.some((text) => text.includes('"bound_0"'))).toBe(false);
      } finally {
        for (const client of clients) client.release();
      }
      // Deallocated, it is prepared again when it comes back.
      expect(await run(0)).toEqual([expect.objectContaining({ value: 0 })]);
      expect(await run(count - 1)).toEqual([expect.objectContaining({ value: count - 1 })]);
    });

    it('prepares a deallocated statement again, and deallocates the least recently used first', async () => {
      if (!database.pool) throw new Error('PostgreSQL only');
      // One connection, so every statement meets the same one.
      const pool = new pg.Pool({ connectionString: database.pool.options.connectionString, max: 1 });
      const statement = (index: number) => ({
        name: `worklist_lru_${index}`,
        text: `select $1::int as value, ${index} as marker`,
        values: [index],
      });
      const run = (index: number) => queryPooled<{ value: number }>(pool, statement(index));
      const held = async () =>
        (
          await pool.query<{ name: string }>(
            `select name from pg_prepared_statements where name like 'worklist\\_lru\\_%' order by name`,
          )
        ).rows.map((row) => row.name);
      try {
        for (let index = 0; index < STATEMENTS_PER_CONNECTION; index += 1) await run(index);
        // The first is used again: the second is now the least recently used, and makes room.
        expect(await run(0)).toEqual([{ value: 0, marker: 0 }]);
        expect(await run(STATEMENTS_PER_CONNECTION)).toEqual([
          { value: STATEMENTS_PER_CONNECTION, marker: STATEMENTS_PER_CONNECTION },
        ]);
        let names = await held();
        expect(names).toHaveLength(STATEMENTS_PER_CONNECTION);
        expect(names).toContain('worklist_lru_0');
        expect(names).not.toContain('worklist_lru_1');
        // Back again: prepared anew (the driver no longer takes it for held), in place of the third.
        expect(await run(1)).toEqual([{ value: 1, marker: 1 }]);
        names = await held();
        expect(names).toContain('worklist_lru_1');
        expect(names).not.toContain('worklist_lru_2');
        expect(names).toHaveLength(STATEMENTS_PER_CONNECTION);
      } finally {
        await pool.end();
      }
    });
  }
});
