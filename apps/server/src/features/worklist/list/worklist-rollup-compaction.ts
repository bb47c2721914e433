// Folds the studies' count deltas (appended by the triggers of migrations 0014 and 0029) into the day
// rollups. One statement: the deltas it deletes and the sums it adds commit together, so a count
// (rollup + deltas) reads the same number before and after. Writers keep appending meanwhile; deltas committed
// after the statement started are left for the next run.
import { sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client.ts';
import { queryRows } from '../../../db/rows.ts';

/** How often each replica folds the deltas (one at a time across replicas: an advisory lock). */
export const COMPACTION_INTERVAL_MS = 10_000;

// Any constant works; the same on every replica.
const COMPACTION_LOCK_KEY = 725_471_094;

/** Folds the committed deltas into the rollups; how many delta rows it folded (0 when another ran). */
export async function compactWorklistCounts(db: TDb): Promise<number> {
  return db.transaction(async (tx) => {
    const [lock] = await queryRows<{ locked: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${COMPACTION_LOCK_KEY}) as locked`,
    );
    if (!lock?.locked) return 0;
    // The keys are written in order (facility rows, organisation rows, then assignee rows), and only here.
    const [moved] = await queryRows<{ rows: number }>(
      tx,
      sql`with moved as (delete from study_count_deltas returning *),
        facility_rows as (
          insert into study_facility_day_counts as c
            (organisation_id, facility_id, day, status, modality_group, priority_tag, study_count)
          select organisation_id, facility_id, day, status, modality_group, priority_tag, sum(study_count)::int
            from moved group by 1, 2, 3, 4, 5, 6 having sum(study_count) <> 0 order by 2, 3, 4, 5, 6
          on conflict (facility_id, day, status, modality_group, priority_tag)
            do update set study_count = c.study_count + excluded.study_count
          returning 1),
        organisation_rows as (
          insert into study_organisation_day_counts as c
            (organisation_id, day, status, modality_group, priority_tag, study_count)
          select organisation_id, day, status, modality_group, priority_tag, sum(study_count)::int
            from moved group by 1, 2, 3, 4, 5 having sum(study_count) <> 0 order by 1, 2, 3, 4, 5
          on conflict (organisation_id, day, status, modality_group, priority_tag)
            do update set study_count = c.study_count + excluded.study_count
          returning 1),
        moved_assigned as (delete from study_assignee_count_deltas returning *),
        assignee_rows as (
          insert into study_assignee_day_counts as c
            (organisation_id, facility_id, last_assigned_user_id, day, status, modality_group, priority_tag, study_count)
          select organisation_id, facility_id, last_assigned_user_id, day, status, modality_group, priority_tag,
              sum(study_count)::int
            from moved_assigned group by 1, 2, 3, 4, 5, 6, 7 having sum(study_count) <> 0 order by 3, 4, 2, 5, 6, 7
          on conflict (last_assigned_user_id, day, facility_id, status, modality_group, priority_tag)
            do update set study_count = c.study_count + excluded.study_count
          returning 1)
        select ((select count(*) from moved) + (select count(*) from moved_assigned))::int as rows`,
    );
    return moved?.rows ?? 0;
  });
}

/**
 * Folds the deltas every COMPACTION_INTERVAL_MS until stopped (the stop waits for a run under way).
 * A failed run is logged and retried at the next tick: the deltas stay counted meanwhile.
 */
export function startCountCompaction(
  db: TDb,
  log: { warn(object: object, message: string): void },
  intervalMs = COMPACTION_INTERVAL_MS,
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() =>
      compactWorklistCounts(db).catch((error: unknown) =>
        log.warn({ err: error }, 'worklist count compaction failed'),
      ),
    );
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
