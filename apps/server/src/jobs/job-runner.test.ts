import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../db/client.ts';
import { jobs } from '../db/schema/index.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { JobRunner } from './job-runner.ts';
import type { TJobOutcomeListener, TJobRunnerLogger, TJobRunnerOptions } from './job-runner-types.ts';
import { enqueueJob, PermanentJobError, retryDelayMs, type TJobHandlers, type TJobOutcome } from './jobs.ts';

let database: TDatabase;
const runners: JobRunner[] = [];
const silent: TJobRunnerLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silent,
};

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
});
afterAll(async () => {
  await database.close();
});

const BASE_MS = 100;

async function startRunner(
  handlers: TJobHandlers,
  options: Partial<TJobRunnerOptions> = {},
  setup: { log?: TJobRunnerLogger; onOutcome?: TJobOutcomeListener } = {},
) {
  const runner = new JobRunner(
    database,
    {
      handlers,
      concurrency: 2,
      pollIntervalMs: 50,
      retryBaseMs: BASE_MS,
      retryMaxMs: 400,
      leaseMs: 60_000,
      stopTimeoutMs: 5_000,
      ...options,
    },
    setup.log ?? silent,
  );
  if (setup.onOutcome) runner.onOutcome(setup.onOutcome);
  runners.push(runner);
  await runner.start();
  return runner;
}

const enqueue = (queue: string, payload: Record<string, unknown> = {}, extra = {}) =>
  database.db.transaction((tx) => enqueueJob(tx, { queue, payload, ...extra }));

async function jobRow(id: string) {
  const [row] = await database.db.select().from(jobs).where(eq(jobs.id, id));
  if (!row) throw new Error(`no job ${id}`);
  return row;
}

const finished = async (id: string) => {
  const row = await jobRow(id);
  return row.status === 'succeeded' || row.status === 'failed' ? row : null;
};
const untilFinished = (id: string, timeout = 10_000) =>
  expect.poll(() => finished(id), { timeout, interval: 20 }).not.toBeNull();

describe('retryDelayMs', () => {
  it('doubles from the base, is capped, and stays between half and all of the step', () => {
    const options = { baseMs: 100, maxMs: 1_000 };
    expect(retryDelayMs(1, options, () => 0)).toBe(50);
    expect(retryDelayMs(1, options, () => 1)).toBe(100);
    expect(retryDelayMs(3, options, () => 1)).toBe(400);
    expect(retryDelayMs(10, options, () => 1)).toBe(1_000);
    expect(retryDelayMs(10, options, () => 0)).toBe(500);
  });
});

describe('JobRunner', () => {
  it('retries a failing job with back-off, then records its success', async () => {
    const attempts: number[] = [];
    const outcomes: TJobOutcome[] = [];
    await startRunner({
      flaky: {
        async run({ job }) {
          attempts.push(Date.now());
          if (job.attempt < 3) throw new Error(`provider down (attempt ${job.attempt})`);
          return { delivered: true };
        },
        async settle(_tx, _job, outcome) {
          outcomes.push(outcome);
        },
      },
    });
    const id = await enqueue('flaky', { n: 1 });
    await untilFinished(id);
    const row = await jobRow(id);
    expect(row).toMatchObject({ status: 'succeeded', attempts: 3, lastError: null, lockedBy: null });
    expect(row.result).toEqual({ delivered: true });
    expect(outcomes.map((o) => (o.kind === 'failed' ? `retry:${o.willRetry}` : o.kind))).toEqual([
      'retry:true',
      'retry:true',
      'succeeded',
    ]);
    // Each retry waited at least half its back-off step (base × 2^(n-1)).
    expect((attempts[1] ?? 0) - (attempts[0] ?? 0)).toBeGreaterThanOrEqual(BASE_MS / 2 - 5);
    expect((attempts[2] ?? 0) - (attempts[1] ?? 0)).toBeGreaterThanOrEqual(BASE_MS - 5);
  });

  it('fails a job for good after max_attempts, keeping the last error', async () => {
    const outcomes: TJobOutcome[] = [];
    await startRunner({
      broken: {
        async run({ job }) {
          throw new Error(`still broken at attempt ${job.attempt}`);
        },
        async settle(_tx, _job, outcome) {
          outcomes.push(outcome);
        },
      },
    });
    const id = await enqueue('broken', {}, { maxAttempts: 3 });
    await untilFinished(id);
    expect(await jobRow(id)).toMatchObject({
      status: 'failed',
      attempts: 3,
      lastError: 'still broken at attempt 3',
    });
    expect(outcomes.at(-1)).toMatchObject({
      kind: 'failed',
      error: 'still broken at attempt 3',
      willRetry: false,
    });
    // Handlers get the thrown error itself (to decide what a user may read of it).
    const last = outcomes.at(-1);
    expect(last?.kind === 'failed' ? last.cause : null).toBeInstanceOf(Error);
    expect(outcomes).toHaveLength(3);
  });

  it('fails at once on a PermanentJobError', async () => {
    await startRunner({
      refused: {
        async run() {
          throw new PermanentJobError('the number is not on WhatsApp');
        },
      },
    });
    const id = await enqueue('refused');
    await untilFinished(id);
    expect(await jobRow(id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'the number is not on WhatsApp',
    });
  });

  it("logs a job's lines, its handler's too, with its jobId, and tells listeners each outcome", async () => {
    const lines: { fields: Record<string, unknown>; message: string }[] = [];
    const capture = (bindings: Record<string, unknown>): TJobRunnerLogger => {
      const write = (object: object, message: string) =>
        lines.push({ fields: { ...bindings, ...object }, message });
      return {
        debug: write,
        info: write,
        warn: write,
        error: write,
        child: (more) => capture({ ...bindings, ...more }),
      };
    };
    const outcomes: string[] = [];
    await startRunner(
      {
        'logged.refused': {
          async run({ log }) {
            log.info({}, 'asking the provider');
            throw new PermanentJobError('refused');
          },
        },
      },
      {},
      { log: capture({}), onOutcome: (job, outcome) => outcomes.push(`${job.id}:${outcome.kind}`) },
    );
    const id = await enqueue('logged.refused');
    await untilFinished(id);
    const about = (message: string) => lines.find((line) => line.message === message)?.fields;
    expect(about('asking the provider')).toMatchObject({ jobId: id, queue: 'logged.refused' });
    expect(about('job attempt failed')).toMatchObject({
      jobId: id,
      queue: 'logged.refused',
      willRetry: false,
    });
    await expect.poll(() => outcomes).toEqual([`${id}:failed`]);
  });

  it('never lets two runners run the same job', async () => {
    const runs = new Map<string, number>();
    const handler = {
      async run({ job }: { job: { id: string } }) {
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        // Hold the slot over a few turns of the event loop so the claims interleave.
        for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
        return undefined;
      },
    };
    const ids = await database.db.transaction(async (tx) => {
      const created: string[] = [];
      for (let i = 0; i < 24; i++) created.push(await enqueueJob(tx, { queue: 'race', payload: { i } }));
      return created;
    });
    await Promise.all([
      startRunner({ race: handler }, { workerId: 'a' }),
      startRunner({ race: handler }, { workerId: 'b' }),
      startRunner({ race: handler }, { workerId: 'c' }),
    ]);
    for (const id of ids) await untilFinished(id);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(runs.size).toBe(24);
    const rows = await database.db.select().from(jobs).where(eq(jobs.queue, 'race'));
    expect(rows.every((row) => row.status === 'succeeded' && row.attempts === 1)).toBe(true);
  });

  it('yields one job per idempotency key', async () => {
    const first = await enqueue('once', { v: 1 }, { idempotencyKey: 'outbound:test-key' });
    const second = await enqueue('once', { v: 2 }, { idempotencyKey: 'outbound:test-key' });
    expect(second).toBe(first);
    const rows = await database.db.select().from(jobs).where(eq(jobs.idempotencyKey, 'outbound:test-key'));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.payload).toEqual({ v: 1 });
  });

  it('takes back a job whose worker died (lease expired) and fails one that used its last attempt', async () => {
    const ran: string[] = [];
    const settled: string[] = [];
    const outcomes: string[] = [];
    const [dead, exhausted] = await database.db
      .insert(jobs)
      .values([
        { queue: 'orphan', status: 'running', attempts: 1, lockedBy: 'dead:1', maxAttempts: 5 },
        { queue: 'orphan', status: 'running', attempts: 5, lockedBy: 'dead:1', maxAttempts: 5 },
      ])
      .returning();
    if (!dead || !exhausted) throw new Error('insert failed');
    await database.db.execute(
      sql`update jobs set locked_at = now() - interval '1 hour' where id in (${dead.id}, ${exhausted.id})`,
    );
    await startRunner(
      {
        orphan: {
          async run({ job }) {
            ran.push(job.id);
            return undefined;
          },
          async settle(_tx, job, outcome) {
            settled.push(`${job.id}:${outcome.kind}`);
          },
        },
      },
      { leaseMs: 5_000 },
      { onOutcome: (job, outcome) => outcomes.push(`${job.id}:${outcome.kind}`) },
    );
    await untilFinished(dead.id);
    await untilFinished(exhausted.id);
    expect(await jobRow(dead.id)).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(await jobRow(exhausted.id)).toMatchObject({ status: 'failed', attempts: 5 });
    expect((await jobRow(exhausted.id)).lastError).toMatch(/lease expired/);
    expect(ran).toEqual([dead.id]);
    expect(settled.sort()).toEqual([`${dead.id}:succeeded`, `${exhausted.id}:failed`].sort());
    await expect
      .poll(() => outcomes.sort())
      .toEqual([`${dead.id}:succeeded`, `${exhausted.id}:failed`].sort());
  });

  it('leaves a running job alone while its lease lasts', async () => {
    const [held] = await database.db
      .insert(jobs)
      .values({ queue: 'held', status: 'running', attempts: 1, lockedBy: 'alive:1' })
      .returning();
    if (!held) throw new Error('insert failed');
    await database.db.execute(sql`update jobs set locked_at = now() where id = ${held.id}`);
    const ran: string[] = [];
    await startRunner({ held: { run: async ({ job }) => void ran.push(job.id) } }, { leaseMs: 60_000 });
    // A marker job of the same queue enqueued after it runs: the runner has looked at the queue.
    const marker = await enqueue('held');
    await untilFinished(marker);
    expect(ran).toEqual([marker]);
    expect(await jobRow(held.id)).toMatchObject({ status: 'running', lockedBy: 'alive:1' });
  });

  it('renews the lease of a job running longer than the lease, so no worker takes it back', async () => {
    const LEASE_MS = 1_500;
    let release: () => void = () => undefined;
    const started: string[] = [];
    const runner = await startRunner(
      {
        long: {
          async run({ job }) {
            started.push(job.id);
            await new Promise<void>((resolve) => {
              release = resolve;
            });
            return undefined;
          },
        },
      },
      { leaseMs: LEASE_MS },
    );
    const id = await enqueue('long');
    await expect.poll(() => started.length).toBe(1);
    const claimedAt = (await jobRow(id)).lockedAt;
    if (!claimedAt) throw new Error('the running job has no locked_at');
    // The job has now run longer than its lease, and its locked_at moved with it.
    await expect
      .poll(async () => ((await jobRow(id)).lockedAt?.getTime() ?? 0) - claimedAt.getTime(), {
        timeout: 15_000,
        interval: 50,
      })
      .toBeGreaterThan(LEASE_MS);
    // Another worker starting now looks for abandoned jobs first (start awaits it): not this one.
    await startRunner({ other: { run: async () => undefined } }, { leaseMs: LEASE_MS });
    expect(await jobRow(id)).toMatchObject({ status: 'running', lockedBy: runner.workerId, attempts: 1 });
    release();
    await untilFinished(id);
    expect(await jobRow(id)).toMatchObject({ status: 'succeeded', attempts: 1, lockedAt: null });
    expect(started).toEqual([id]);
  });

  it('wakes on NOTIFY at commit, without waiting for the poll', async () => {
    const ran: string[] = [];
    await startRunner(
      { notified: { run: async ({ job }) => void ran.push(job.id) } },
      { pollIntervalMs: 60_000 },
    );
    const id = await enqueue('notified');
    await untilFinished(id, 5_000);
    expect(ran).toEqual([id]);
  });

  it('keeps progress across attempts (a retry does not redo a finished step)', async () => {
    let uploads = 0;
    await startRunner({
      stepwise: {
        async run({ job, saveProgress }) {
          if (!job.progress.media_id) {
            uploads += 1;
            await saveProgress({ media_id: 'media-1' });
          }
          if (job.attempt === 1) throw new Error('send failed after the upload');
          return { message_id: `sent-with-${String(job.progress.media_id)}` };
        },
      },
    });
    const id = await enqueue('stepwise');
    await untilFinished(id);
    expect(uploads).toBe(1);
    expect((await jobRow(id)).result).toEqual({ media_id: 'media-1', message_id: 'sent-with-media-1' });
  });

  it('stops cleanly: waits for the running handler, then claims nothing more', async () => {
    let release: () => void = () => undefined;
    const started: string[] = [];
    const runner = await startRunner({
      slow: {
        async run({ job }) {
          started.push(job.id);
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          return undefined;
        },
      },
    });
    const first = await enqueue('slow');
    await expect.poll(() => started.length).toBe(1);
    const stopping = runner.stop();
    const second = await enqueue('slow');
    release();
    await stopping;
    expect(await jobRow(first)).toMatchObject({ status: 'succeeded' });
    expect(await jobRow(second)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(started).toEqual([first]);
    await database.db.delete(jobs).where(eq(jobs.id, second));
  });
});
