// "Sync from PACS" (GET /worklist/populate/worklist): bring each archive's next pass forward to now
// and wait for it, so the answer says what it added. The pass runs as the chain's own job: one pass
// at a time per archive, whichever replica runs it.
import type { TArchiveSyncOutcome, TPopulateResult } from '@ris/domain';
import { eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client.ts';
import { pacsArchives } from '../../../db/schema/index.ts';
import { ensureSyncChains, jobState, type TJobState } from './sync-jobs.ts';

const POLL_MS = 100;

async function waitForJob(db: TDb, jobId: string, deadline: number): Promise<TJobState | null> {
  for (;;) {
    const state = await jobState(db, jobId);
    if (!state || state.status === 'succeeded' || state.status === 'failed') return state;
    if (state.status === 'pending' && state.lastError !== null) return state; // failed once, retrying later
    if (Date.now() > deadline) return state;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function numberOf(result: Record<string, unknown> | null, key: string): number {
  const value = result?.[key];
  return typeof value === 'number' ? value : 0;
}

/** One archive: a pass that starts now (after the one running, if any), and its outcome. */
async function syncOne(
  db: TDb,
  archive: { id: string; name: string },
  deadline: number,
): Promise<TArchiveSyncOutcome> {
  const outcome = (state: TJobState | null): TArchiveSyncOutcome => {
    const done = state?.status === 'succeeded';
    const error = done
      ? typeof state.result?.['error'] === 'string'
        ? state.result['error']
        : null
      : state?.lastError
        ? 'The sync failed; it is retried in the background.'
        : 'The sync is still running; it goes on in the background and the worklist updates as studies arrive.';
    return {
      id: archive.id,
      name: archive.name,
      ok: done && state.result?.['ok'] !== false,
      error,
      added: numberOf(state?.result ?? null, 'added'),
      updated: numberOf(state?.result ?? null, 'updated'),
      deleted: numberOf(state?.result ?? null, 'deleted'),
    };
  };
  // A manual pull also re-reads the archive's recent days (new studies missed, deletions).
  await db.update(pacsArchives).set({ polledUntil: null }).where(eq(pacsArchives.id, archive.id));
  let live = (await ensureSyncChains(db, { archiveId: archive.id, runNow: true })).get(archive.id);
  if (!live) return { ...outcome(null), ok: false, error: 'The archive is disabled.' };
  if (live.status === 'running') {
    // The pass in progress may have started before the study the user waits for arrived.
    const running = await waitForJob(db, live.jobId, deadline);
    if (running?.status !== 'succeeded' && running?.status !== 'failed') return outcome(running);
    live = (await ensureSyncChains(db, { archiveId: archive.id, runNow: true })).get(archive.id);
    if (!live) return outcome(running);
  }
  return outcome(await waitForJob(db, live.jobId, deadline));
}

export async function syncNow(
  db: TDb,
  archives: readonly { id: string; name: string }[],
  timeoutMs = 60_000,
): Promise<TPopulateResult> {
  const deadline = Date.now() + timeoutMs;
  const outcomes = await Promise.all(archives.map((archive) => syncOne(db, archive, deadline)));
  return {
    added: outcomes.reduce((sum, item) => sum + item.added, 0),
    updated: outcomes.reduce((sum, item) => sum + item.updated, 0),
    deleted: outcomes.reduce((sum, item) => sum + item.deleted, 0),
    archives: outcomes,
  };
}
