// Synchronisation as durable jobs: each enabled archive has one chain of `pacs.sync` jobs. A job
// runs one pass (sync-archive.ts) and, in the transaction that settles it, enqueues its successor
// (idempotency key = its own id, so exactly one) after the archive's poll interval, or later with
// back-off while the archive fails. The chain survives restarts (the jobs table is the schedule);
// ensureSyncChains starts chains that are missing (new or re-enabled archives, first start).
import { and, eq, sql } from 'drizzle-orm';
import type { TDb, TDbOrTx } from '../../../db/client.ts';
import { pacsArchives } from '../../../db/schema/index.ts';
import { queryRows } from '../../../db/rows.ts';
import {
  enqueueJob,
  JOBS_CHANNEL,
  type TJob,
  type TJobHandler,
  type TJobOutcome,
} from '../../../jobs/jobs.ts';
import type { SecretBox } from '../../../integrations/sealed-secrets.ts';
import { syncArchive, type TSyncPass } from './sync-archive.ts';

export const PACS_SYNC_QUEUE = 'pacs.sync';
/** Longest wait between passes while an archive keeps failing. */
const MAX_BACKOFF_SECONDS = 300;

function archiveIdOf(job: Pick<TJob, 'payload'>): string {
  const id = job.payload['archive_id'];
  if (typeof id !== 'string') throw new Error('pacs.sync job without archive_id');
  return id;
}

/** Seconds until the next pass: the poll interval, doubled per consecutive failure up to 5 min. */
export function nextPassDelaySeconds(pollIntervalSeconds: number, failureCount: number): number {
  if (failureCount <= 0) return pollIntervalSeconds;
  return Math.min(
    MAX_BACKOFF_SECONDS,
    Math.max(pollIntervalSeconds, 5) * 2 ** Math.min(failureCount - 1, 10),
  );
}

export type TPassResult = Omit<TSyncPass, 'changedStudyIds'>;

export function pacsSyncHandler(deps: {
  db: TDb;
  box: SecretBox;
  /** Announces committed worklist changes (worklist.item.changed / deleted). */
  publish: (organisationId: string, studyIds: readonly string[]) => Promise<void>;
}): TJobHandler {
  return {
    async run({ job, signal }) {
      const pass = await syncArchive(deps, archiveIdOf(job), signal);
      if (!pass) return { archive_missing: true };
      const { changedStudyIds, ...result } = pass;
      if (changedStudyIds.length > 0) await deps.publish(pass.organisationId, [...new Set(changedStudyIds)]);
      return result;
    },
    async settle(tx, job, outcome: TJobOutcome) {
      if (outcome.kind === 'failed' && outcome.willRetry) return;
      const archiveId = archiveIdOf(job);
      const [archive] = await tx
        .select({
          enabled: pacsArchives.enabled,
          interval: pacsArchives.pollIntervalSeconds,
          failures: pacsArchives.failureCount,
        })
        .from(pacsArchives)
        .where(eq(pacsArchives.id, archiveId));
      // Earlier finished passes of this archive: the chain keeps only its last few rows.
      await tx.execute(
        sql`delete from jobs where queue = ${PACS_SYNC_QUEUE} and payload->>'archive_id' = ${archiveId}
          and status in ('succeeded', 'failed') and id <> ${job.id}
          and updated_at < now() - interval '1 minute'`,
      );
      if (!archive?.enabled) return;
      const delay = nextPassDelaySeconds(
        archive.interval,
        archive.failures + (outcome.kind === 'failed' ? 1 : 0),
      );
      await enqueueJob(tx, {
        queue: PACS_SYNC_QUEUE,
        payload: { archive_id: archiveId },
        idempotencyKey: `${PACS_SYNC_QUEUE}:after:${job.id}`,
        runAt: new Date(Date.now() + delay * 1_000),
        maxAttempts: 3,
      });
    },
  };
}

/** The archive's waiting or running pass, if its chain is alive. */
async function liveJob(db: TDbOrTx, archiveId: string) {
  const [row] = await queryRows<{ id: string; status: string }>(
    db,
    sql`select id, status from jobs where queue = ${PACS_SYNC_QUEUE} and payload->>'archive_id' = ${archiveId}
      and status in ('pending', 'running') order by status desc, run_at limit 1`,
  );
  return row ?? null;
}

/**
 * Starts the chain of each enabled archive that has none (all archives, one organisation's, or one);
 * serialised per archive by an advisory lock, so replicas starting together make one chain.
 * `runNow` also brings a waiting pass forward to now. Answers the archive's live job per archive.
 */
export async function ensureSyncChains(
  db: TDb,
  filter: { organisationId?: string; archiveId?: string; runNow?: boolean } = {},
): Promise<Map<string, { jobId: string; status: string }>> {
  const archives = await db
    .select({ id: pacsArchives.id })
    .from(pacsArchives)
    .where(
      and(
        eq(pacsArchives.enabled, true),
        filter.organisationId ? eq(pacsArchives.organisationId, filter.organisationId) : undefined,
        filter.archiveId ? eq(pacsArchives.id, filter.archiveId) : undefined,
      ),
    );
  const live = new Map<string, { jobId: string; status: string }>();
  for (const { id } of archives) {
    const job = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`pacs.sync:${id}`}, 0))`);
      const existing = await liveJob(tx, id);
      if (existing) {
        if (filter.runNow && existing.status === 'pending') {
          await tx.execute(
            sql`update jobs set run_at = now() where id = ${existing.id} and status = 'pending'`,
          );
          await tx.execute(sql`select pg_notify(${JOBS_CHANNEL}, ${PACS_SYNC_QUEUE})`);
        }
        return existing;
      }
      const jobId = await enqueueJob(tx, {
        queue: PACS_SYNC_QUEUE,
        payload: { archive_id: id },
        idempotencyKey: `${PACS_SYNC_QUEUE}:start:${id}:${Date.now()}`,
        maxAttempts: 3,
      });
      return { id: jobId, status: 'pending' };
    });
    live.set(id, { jobId: job.id, status: job.status });
  }
  return live;
}

export type TJobState = { status: string; result: Record<string, unknown> | null; lastError: string | null };

export async function jobState(db: TDbOrTx, jobId: string): Promise<TJobState | null> {
  const [row] = await queryRows<{
    status: string;
    result: Record<string, unknown> | null;
    last_error: string | null;
  }>(db, sql`select status, result, last_error from jobs where id = ${jobId}`);
  return row ? { status: row.status, result: row.result, lastError: row.last_error } : null;
}
