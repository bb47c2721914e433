// Durable background jobs on the `jobs` table (db/schema/jobs.ts): enqueue inside the caller's
// transaction, so a job exists exactly when the change that asked for it committed.
import { sql } from 'drizzle-orm';
import type { TDbOrTx, TTx } from '../db/client.ts';
import { queryRows } from '../db/rows.ts';

/** NOTIFY channel on which an enqueue wakes the workers (payload: the queue), at commit. */
export const JOBS_CHANNEL = 'ris_jobs';

export type TJobPayload = Record<string, unknown>;

export type TEnqueueJob = {
  queue: string;
  payload: TJobPayload;
  /** One job per key: enqueueing the same key again returns the existing job's id. */
  idempotencyKey?: string | undefined;
  /** Not before this time (default: now). */
  runAt?: Date | undefined;
  /** Attempts before the job fails for good (default: the table's, 8). */
  maxAttempts?: number | undefined;
};

/**
 * Inserts a job in the caller's transaction (ON CONFLICT on the idempotency key: the existing job's
 * id is returned) and NOTIFYs the workers, who hear it when the transaction commits.
 */
export async function enqueueJob(tx: TDbOrTx, job: TEnqueueJob): Promise<string> {
  const key = job.idempotencyKey ?? null;
  const runAt = job.runAt ? job.runAt.toISOString() : null;
  const [inserted] = await queryRows<{ id: string }>(
    tx,
    sql`insert into jobs (queue, payload, idempotency_key, run_at, max_attempts)
      values (${job.queue}, ${JSON.stringify(job.payload)}::jsonb, ${key},
        coalesce(${runAt}::timestamptz, now()), coalesce(${job.maxAttempts ?? null}::int, 8))
      on conflict (idempotency_key) do nothing
      returning id`,
  );
  await tx.execute(sql`select pg_notify(${JOBS_CHANNEL}, ${job.queue})`);
  if (inserted) return inserted.id;
  const [existing] = await queryRows<{ id: string }>(
    tx,
    sql`select id from jobs where idempotency_key = ${key}`,
  );
  if (!existing) throw new Error(`job ${job.queue}: no job for idempotency key ${String(key)}`);
  return existing.id;
}

/** Thrown by a handler to fail the job at once, without further attempts (e.g. a refused number). */
export class PermanentJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

/** What a handler may log with (pino's logger, or anything shaped like it). */
export type TJobLogger = {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
};

/** A claimed job as its handler sees it. */
export type TJob = {
  id: string;
  queue: string;
  payload: TJobPayload;
  /** This attempt's number (1 for the first). */
  attempt: number;
  maxAttempts: number;
  /** What earlier attempts saved with saveProgress (e.g. an uploaded media id). */
  progress: TJobPayload;
};

export type TJobContext = {
  job: TJob;
  /** The runner's logger for this job: every line carries its jobId and queue. */
  log: TJobLogger;
  /** Merges into the job's progress at once (kept across attempts, visible as its result until done). */
  saveProgress(patch: TJobPayload): Promise<void>;
  /** Aborted when the runner stops before the handler has finished. */
  signal: AbortSignal;
};

export type TJobOutcome =
  | { kind: 'succeeded'; result: TJobPayload }
  /**
   * willRetry false: this was the last attempt, or the error was permanent. `error` is the raw text
   * (jobs.last_error, logs: may name internals); `cause` the thrown value, absent when the job's
   * lease expired.
   */
  | { kind: 'failed'; error: string; willRetry: boolean; cause?: unknown };

/**
 * The work of one queue. `run` does the outside work (outside any transaction); `settle` records its
 * outcome in the same transaction that marks the job succeeded, retried or failed.
 */
export type TJobHandler = {
  run(context: TJobContext): Promise<TJobPayload | undefined>;
  settle?(tx: TTx, job: TJob, outcome: TJobOutcome): Promise<void>;
};

export type TJobHandlers = Readonly<Record<string, TJobHandler>>;

/**
 * Delay before attempt `attempt + 1` after `attempt` failed: base × 2^(attempt-1), capped at max,
 * with "equal jitter" (half fixed, half random) so replicas retrying together spread out.
 */
export function retryDelayMs(
  attempt: number,
  options: { baseMs: number; maxMs: number },
  random: () => number = Math.random,
): number {
  const exponential = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/** A message fit for jobs.last_error and logs (not for users: it may name internals), bounded. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text || 'unknown error').slice(0, 2_000);
}
