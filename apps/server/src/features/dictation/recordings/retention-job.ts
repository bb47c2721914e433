// Recordings are kept for the organisation's retention (recording_retention_days): a durable chain of
// passes, an hour apart, removes those past expires_at (row, stored file and bytes).
import { sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client.ts';
import { queryRows } from '../../../db/rows.ts';
import type { DomainEvents } from '../../../events/domain-events.ts';
import type { BlobStore } from '../../../files/blob-store.ts';
import { enqueueJob, type TJobHandler } from '../../../jobs/jobs.ts';
import { removeRecordings } from './remove-recordings.ts';

export const RECORDING_RETENTION_QUEUE = 'dictation.recording-retention';

const PASS_INTERVAL_MS = 60 * 60 * 1000;

/** One pass: removes every expired recording (in batches); answers how many. */
export async function removeExpiredRecordings(
  db: TDb,
  blobs: BlobStore,
  events: DomainEvents,
): Promise<number> {
  let total = 0;
  for (;;) {
    const removed = await removeRecordings(db, blobs, sql`expires_at < now()`);
    total += removed.length;
    const reports = new Map(removed.map((row) => [row.reportId, row.organisationId]));
    for (const [reportId] of reports) {
      const [report] = await queryRows<{ study_id: string; organisation_id: string }>(
        db,
        sql`select study_id, organisation_id from reports where id = ${reportId}`,
      );
      if (report)
        events.emit('dictation.recordings.changed', {
          reportId,
          studyId: report.study_id,
          organisationId: report.organisation_id,
        });
    }
    if (removed.length === 0) return total;
  }
}

/** The queue's handler: one pass, then the next in an hour. */
export function recordingRetentionHandler(deps: {
  db: TDb;
  blobs: BlobStore;
  events: DomainEvents;
}): TJobHandler {
  return {
    async run() {
      return { removed: await removeExpiredRecordings(deps.db, deps.blobs, deps.events) };
    },
    async settle(tx, job, outcome) {
      if (outcome.kind === 'failed' && outcome.willRetry) return;
      await tx.execute(
        sql`delete from jobs where queue = ${RECORDING_RETENTION_QUEUE} and status in ('succeeded', 'failed')
          and id <> ${job.id}`,
      );
      await enqueueJob(tx, {
        queue: RECORDING_RETENTION_QUEUE,
        payload: {},
        idempotencyKey: `${RECORDING_RETENTION_QUEUE}:after:${job.id}`,
        runAt: new Date(Date.now() + PASS_INTERVAL_MS),
        maxAttempts: 3,
      });
    },
  };
}

/**
 * Starts the chain when there are recordings and no pass is waiting or running (at start, and after
 * an upload). Its first pass comes an interval later: a server that starts often does no work at
 * each start, and an organisation that never records has no job at all.
 */
export async function ensureRetentionChain(db: TDb): Promise<void> {
  const [any] = await queryRows<{ id: string }>(db, sql`select id from dictation_recordings limit 1`);
  if (!any) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${RECORDING_RETENTION_QUEUE}, 0))`);
    const live = await queryRows<{ id: string }>(
      tx,
      sql`select id from jobs where queue = ${RECORDING_RETENTION_QUEUE} and status in ('pending', 'running') limit 1`,
    );
    if (live.length > 0) return;
    await enqueueJob(tx, {
      queue: RECORDING_RETENTION_QUEUE,
      payload: {},
      idempotencyKey: `${RECORDING_RETENTION_QUEUE}:start:${Date.now()}`,
      runAt: new Date(Date.now() + PASS_INTERVAL_MS),
      maxAttempts: 3,
    });
  });
}
