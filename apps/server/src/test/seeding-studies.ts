// Thousands of studies seeded for the worklist's route tests, with the search indexes built once
// after the rows are in. Those indexes are GIN over each study's search keys (fastupdate off, as
// migrated): kept up row by row they cost about 1.2 ms a study, and a build over the same rows about
// 0.4 ms, so a seed of 25,000 studies took 33 s where a build takes 10. The indexes are dropped, the
// seed runs, and each is created again from its own definition (pg_indexes): the database ends as a
// migrated one holding the same rows would, whatever the seed threw.
import { sql } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client.ts';
import { queryRows } from '../db/rows.ts';

/** Runs `seed` with the studies' GIN indexes dropped, then builds them again. Nested calls build once. */
export async function seedingStudies<T>(db: TDbOrTx, seed: () => Promise<T>): Promise<T> {
  const indexes = await queryRows<{ name: string; definition: string }>(
    db,
    sql`select indexname as name, indexdef as definition from pg_indexes
      where schemaname = current_schema() and tablename = 'studies' and indexdef like '% USING gin %'
      order by indexname`,
  );
  for (const index of indexes) await db.execute(sql.raw(`drop index "${index.name}"`));
  try {
    return await seed();
  } finally {
    for (const index of indexes) await db.execute(sql.raw(index.definition));
  }
}
