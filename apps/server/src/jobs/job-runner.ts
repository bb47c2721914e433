// The worker of one server process: claims due jobs of the queues it has handlers for, runs them,
// and records each outcome (succeeded, retried with back-off, failed).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { TDatabase } from '../db/client.ts';
import { listenToChannel } from '../db/pg-channel-listener.ts';
import { queryRows } from '../db/rows.ts';
import {
  errorText,
  JOBS_CHANNEL,
  PermanentJobError,
  retryDelayMs,
  type TJob,
  type TJobOutcome,
  type TJobPayload,
} from './jobs.ts';
import type { TJobOutcomeListener, TJobRunnerLogger, TJobRunnerOptions } from './job-runner-types.ts';

type TClaimedRow = {
  id: string;
  queue: string;
  payload: TJobPayload;
  attempts: number;
  max_attempts: number;
  result: TJobPayload | null;
};

/**
 * Claims with `FOR UPDATE SKIP LOCKED` in a short transaction (status running, attempts + 1,
 * locked_at/by), runs the handler outside it, then settles in a second transaction that only applies
 * while this worker still holds the job. Wakes on NOTIFY ris_jobs (enqueueJob), on a poll interval,
 * and at the due time of a retry it scheduled itself. Works on PostgreSQL and PGlite alike.
 */
export class JobRunner {
  readonly workerId: string;
  readonly #database: TDatabase;
  readonly #options: TJobRunnerOptions;
  readonly #log: TJobRunnerLogger;
  readonly #queues: string[];
  readonly #running = new Set<Promise<void>>();
  readonly #abort = new AbortController();
  #stopListening: (() => Promise<void>) | null = null;
  #pollTimer: NodeJS.Timeout | null = null;
  readonly #wakeTimers = new Set<NodeJS.Timeout>();
  readonly #outcomeListeners = new Set<TJobOutcomeListener>();
  #claiming: Promise<void> | null = null;
  #wakeAgain = false;
  #started = false;
  #stopped = false;

  constructor(database: TDatabase, options: TJobRunnerOptions, log: TJobRunnerLogger) {
    this.#database = database;
    this.#options = options;
    this.#log = log;
    this.#queues = Object.keys(options.handlers);
    this.workerId = options.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  }

  /** Starts listening and polling; the first check runs at once. */
  async start(): Promise<void> {
    if (this.#started || this.#stopped || this.#queues.length === 0) return;
    this.#started = true;
    this.#stopListening = await listenToChannel(
      this.#database,
      JOBS_CHANNEL,
      (queue) => {
        if (queue === undefined || this.#queues.includes(queue)) this.wake();
      },
      this.#log,
      {
        applicationName: 'ris-jobs-listen',
        lostMessage: 'job listener lost its connection; polling until it is back',
        onListening: () => this.wake(),
      },
    );
    const poll = () => {
      this.#pollTimer = setTimeout(() => {
        void this.#recoverStale().finally(() => {
          this.wake();
          if (!this.#stopped) poll();
        });
      }, this.#options.pollIntervalMs);
      this.#pollTimer.unref();
    };
    poll();
    await this.#recoverStale();
    this.wake();
  }

  /** Looks for due jobs now (coalesced: one claim at a time, repeated if woken meanwhile). */
  wake(): void {
    if (!this.#started || this.#stopped) return;
    if (this.#claiming) {
      this.#wakeAgain = true;
      return;
    }
    this.#claiming = this.#claimLoop().finally(() => {
      this.#claiming = null;
    });
  }

  /** Adds a listener of attempt outcomes; returns its removal. */
  onOutcome(listener: TJobOutcomeListener): () => void {
    this.#outcomeListeners.add(listener);
    return () => this.#outcomeListeners.delete(listener);
  }

  #announce(job: Pick<TJob, 'id' | 'queue' | 'attempt'>, outcome: TJobOutcome): void {
    for (const listener of this.#outcomeListeners) {
      try {
        listener(job, outcome);
      } catch (error) {
        this.#log.error({ err: error, jobId: job.id }, 'a job outcome listener failed');
      }
    }
  }

  /** Jobs this runner is running right now. */
  get busy(): number {
    return this.#running.size;
  }

  /**
   * Stops claiming and waits for running handlers, at most stopTimeoutMs; then aborts them (their
   * jobs stay running and are taken back once the lease expires).
   */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    if (this.#pollTimer) clearTimeout(this.#pollTimer);
    for (const timer of this.#wakeTimers) clearTimeout(timer);
    this.#wakeTimers.clear();
    await this.#stopListening?.();
    await this.#claiming;
    const all = Promise.allSettled([...this.#running]);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.#options.stopTimeoutMs);
    });
    const outcome = await Promise.race([all, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      this.#log.warn({ running: this.#running.size }, 'jobs still running at shutdown were abandoned');
      this.#abort.abort(new Error('the server is shutting down'));
    }
  }

  async #claimLoop(): Promise<void> {
    do {
      this.#wakeAgain = false;
      while (!this.#stopped && this.#running.size < this.#options.concurrency) {
        let claimed: TClaimedRow[];
        try {
          claimed = await this.#claim(this.#options.concurrency - this.#running.size);
        } catch (error) {
          this.#log.error({ err: error }, 'claiming jobs failed');
          return;
        }
        if (claimed.length === 0) break;
        for (const row of claimed) this.#track(this.#execute(row));
      }
    } while (this.#wakeAgain && !this.#stopped);
  }

  #track(running: Promise<void>): void {
    this.#running.add(running);
    void running.finally(() => {
      this.#running.delete(running);
      // A slot is free: there may be more due jobs.
      this.wake();
    });
  }

  async #claim(limit: number): Promise<TClaimedRow[]> {
    const queues = sql.join(
      this.#queues.map((queue) => sql`${queue}`),
      sql`, `,
    );
    return this.#database.db.transaction((tx) =>
      queryRows<TClaimedRow>(
        tx,
        sql`with due as (
            select id from jobs
            where status = 'pending' and queue in (${queues}) and run_at <= now()
            order by run_at
            limit ${limit}
            for update skip locked
          )
          update jobs set status = 'running', attempts = jobs.attempts + 1, locked_at = now(),
            locked_by = ${this.workerId}, updated_at = now()
          from due where jobs.id = due.id
          returning jobs.id, jobs.queue, jobs.payload, jobs.attempts, jobs.max_attempts, jobs.result`,
      ),
    );
  }

  async #execute(row: TClaimedRow): Promise<void> {
    const handler = this.#options.handlers[row.queue];
    const job = jobOf(row);
    let outcome: TJobOutcome;
    const log = this.#log.child({ jobId: job.id, queue: job.queue });
    const startedAt = performance.now();
    log.debug({ attempt: job.attempt }, 'job started');
    const stopRenewing = this.#renewLease(job.id, log);
    try {
      if (!handler) throw new PermanentJobError(`no handler for queue ${row.queue}`);
      const result = await handler.run({
        job,
        log,
        signal: this.#abort.signal,
        saveProgress: async (patch) => {
          Object.assign(job.progress, patch);
          await this.#database.db.execute(
            sql`update jobs set result = coalesce(result, '{}'::jsonb) || ${JSON.stringify(patch)}::jsonb,
              updated_at = now() where id = ${job.id} and locked_by = ${this.workerId}`,
          );
        },
      });
      outcome = { kind: 'succeeded', result: { ...job.progress, ...(result ?? {}) } };
    } catch (error) {
      const permanent = error instanceof PermanentJobError;
      outcome = {
        kind: 'failed',
        error: errorText(error),
        willRetry: !permanent && job.attempt < job.maxAttempts,
        cause: error,
      };
      const fields = { err: error, attempt: job.attempt, willRetry: outcome.willRetry };
      if (outcome.willRetry) log.warn(fields, 'job attempt failed');
      else log.error(fields, 'job attempt failed');
    } finally {
      await stopRenewing();
    }
    if (outcome.kind === 'succeeded') {
      log.debug({ attempt: job.attempt, ms: Math.round(performance.now() - startedAt) }, 'job succeeded');
    }
    try {
      await this.#settle(job, outcome);
    } catch (error) {
      // The job stays running under this worker; the lease gives it back later.
      log.error({ err: error }, 'recording a job outcome failed');
    }
    this.#announce(job, outcome);
  }

  /**
   * Keeps this worker's lease on a running job: locked_at = now() every lease/3 while the handler
   * runs, so a handler slower than the lease (an SMTP timeout) is not taken back and run twice.
   * Returns the stop function, which also waits for a renewal in flight.
   */
  #renewLease(jobId: string, log: TJobRunnerLogger): () => Promise<void> {
    let inFlight: Promise<unknown> = Promise.resolve();
    const timer = setInterval(
      () => {
        inFlight = this.#database.db
          .execute(sql`update jobs set locked_at = now() where ${heldBy(jobId, this.workerId)}`)
          .catch((error: unknown) => {
            log.warn({ err: error }, 'renewing a job lease failed');
          });
      },
      Math.max(1, Math.floor(this.#options.leaseMs / 3)),
    );
    timer.unref();
    return async () => {
      clearInterval(timer);
      await inFlight;
    };
  }

  async #settle(job: TJob, outcome: TJobOutcome): Promise<void> {
    const handler = this.#options.handlers[job.queue];
    let retryInMs: number | null = null;
    await this.#database.db.transaction(async (tx) => {
      const mine = heldBy(job.id, this.workerId);
      if (outcome.kind === 'succeeded') {
        const updated = await queryRows<{ id: string }>(
          tx,
          sql`update jobs set status = 'succeeded', result = ${JSON.stringify(outcome.result)}::jsonb,
            last_error = null, locked_at = null, locked_by = null, updated_at = now()
            where ${mine} returning id`,
        );
        if (updated.length === 0) return;
      } else if (outcome.willRetry) {
        retryInMs = retryDelayMs(job.attempt, {
          baseMs: this.#options.retryBaseMs,
          maxMs: this.#options.retryMaxMs,
        });
        const updated = await queryRows<{ id: string }>(
          tx,
          sql`update jobs set status = 'pending', last_error = ${outcome.error},
            run_at = now() + make_interval(secs => ${retryInMs / 1000}),
            locked_at = null, locked_by = null, updated_at = now()
            where ${mine} returning id`,
        );
        if (updated.length === 0) return;
      } else {
        const updated = await queryRows<{ id: string }>(
          tx,
          sql`update jobs set status = 'failed', last_error = ${outcome.error},
            locked_at = null, locked_by = null, updated_at = now()
            where ${mine} returning id`,
        );
        if (updated.length === 0) return;
      }
      await handler?.settle?.(tx, job, outcome);
    });
    if (retryInMs !== null && retryInMs < this.#options.pollIntervalMs) this.#wakeIn(retryInMs);
  }

  /** A retry due before the next poll: wake for it on time. */
  #wakeIn(ms: number): void {
    const timer = setTimeout(() => {
      this.#wakeTimers.delete(timer);
      this.wake();
    }, ms + 5);
    timer.unref();
    this.#wakeTimers.add(timer);
  }

  /**
   * Jobs left running by a worker that died (locked_at older than the lease) go back to pending, or
   * fail when they have used up their attempts. Any replica may do this for all.
   */
  async #recoverStale(): Promise<void> {
    if (this.#stopped) return;
    try {
      const lost = await this.#database.db.transaction((tx) =>
        queryRows<{ id: string; queue: string; status: string; attempts: number }>(
          tx,
          sql`update jobs set
              status = (case when attempts >= max_attempts then 'failed' else 'pending' end)::job_status,
              last_error = ${ABANDONED},
              locked_at = null, locked_by = null, run_at = now(), updated_at = now()
            where id in (
              select id from jobs where status = 'running'
                and locked_at < now() - make_interval(secs => ${this.#options.leaseMs / 1000})
              for update skip locked
            )
            returning id, queue, status, attempts`,
        ),
      );
      for (const job of lost) {
        this.#log.warn({ jobId: job.id, queue: job.queue, status: job.status }, 'took back an abandoned job');
      }
      const failed = lost.filter((job) => job.status === 'failed');
      await this.#settleAbandonedFailures(failed.map((job) => job.id));
      for (const job of failed) {
        this.#announce(
          { id: job.id, queue: job.queue, attempt: job.attempts },
          { kind: 'failed', error: ABANDONED, willRetry: false },
        );
      }
    } catch (error) {
      this.#log.error({ err: error }, 'recovering abandoned jobs failed');
    }
  }

  /** Handlers hear about jobs that failed by losing their last lease, like any other failure. */
  async #settleAbandonedFailures(ids: string[]): Promise<void> {
    for (const id of ids) {
      await this.#database.db.transaction(async (tx) => {
        const [row] = await queryRows<TClaimedRow & { last_error: string }>(
          tx,
          sql`select id, queue, payload, attempts, max_attempts, result, last_error from jobs where id = ${id}`,
        );
        const handler = row ? this.#options.handlers[row.queue] : undefined;
        if (!row || !handler?.settle) return;
        await handler.settle(tx, jobOf(row), { kind: 'failed', error: row.last_error, willRetry: false });
      });
    }
  }
}

/** jobs.last_error of a job whose worker stopped renewing its lease. */
const ABANDONED = 'the worker running this job stopped answering (lease expired)';

/** The condition that this worker still holds the job (it was not taken back meanwhile). */
function heldBy(jobId: string, workerId: string) {
  return sql`id = ${jobId} and status = 'running' and locked_by = ${workerId}`;
}

/** The job a claimed (or taken back) row describes, as handlers see it. */
function jobOf(row: TClaimedRow): TJob {
  return {
    id: row.id,
    queue: row.queue,
    payload: row.payload,
    attempt: row.attempts,
    maxAttempts: row.max_attempts,
    progress: row.result ?? {},
  };
}
