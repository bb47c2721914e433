// The database reads of a scrape: job queue depths and archive sync lag. Each is one small
// aggregate bounded by a statement timeout (and a timer, for the embedded engine), so a slow database
// costs a scrape at most a couple of seconds, never a pile-up.
import { sql } from 'drizzle-orm';
import type { TDb, TTx } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';

/** Longest a scrape's query may run. */
export const SCRAPE_QUERY_TIMEOUT_MS = 2_000;

export type TQueueDepth = {
  queue: string;
  state: 'due' | 'scheduled' | 'running';
  jobs: number;
  /** Seconds since the earliest run_at of these jobs (for due jobs: the longest wait). */
  oldest_seconds: number;
};

export type TArchiveLag = { archive_id: string; name: string; lag_seconds: number; failure_count: number };

/**
 * Pending and running jobs by queue. Two halves, each served by its partial index (pending: an
 * index-only scan; running): one `status in (...)` read every finished job too (0.2 ms against 60 ms
 * with 300,000 finished jobs).
 */
export function readQueueDepths(db: TDb): Promise<TQueueDepth[]> {
  return bounded(db, (tx) =>
    queryRows<TQueueDepth>(
      tx,
      sql`select queue, case when run_at <= now() then 'due' else 'scheduled' end as state,
          count(*)::int as jobs, extract(epoch from now() - min(run_at))::float8 as oldest_seconds
        from jobs where status = 'pending'
        group by 1, 2
        union all
        select queue, 'running', count(*)::int, extract(epoch from now() - min(run_at))::float8
        from jobs where status = 'running'
        group by 1`,
    ),
  );
}

/** Enabled archives and the time since their last successful sync (or since they were added). */
export function readArchiveLags(db: TDb): Promise<TArchiveLag[]> {
  return bounded(db, (tx) =>
    queryRows<TArchiveLag>(
      tx,
      sql`select id as archive_id, name,
          extract(epoch from now() - coalesce(last_success_at, created_at))::float8 as lag_seconds,
          failure_count
        from pacs_archives where enabled
        order by id limit 1000`,
    ),
  );
}

/** A read in its own transaction with a statement timeout, abandoned by a timer if it overruns. */
async function bounded<T>(db: TDb, read: (tx: TTx) => Promise<T>): Promise<T> {
  const work = db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local statement_timeout = ${SCRAPE_QUERY_TIMEOUT_MS}`));
    return read(tx);
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`metrics query took longer than ${SCRAPE_QUERY_TIMEOUT_MS} ms`)),
      SCRAPE_QUERY_TIMEOUT_MS + 250,
    );
  });
  // A read the timer gave up on may still fail later: nobody waits for it any more.
  void work.catch(() => undefined);
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
