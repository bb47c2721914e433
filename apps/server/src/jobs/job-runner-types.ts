// The settings, logger and outcome listener a JobRunner (job-runner.ts) is given.
import type { TJob, TJobHandlers, TJobOutcome } from './jobs.ts';

export type TJobRunnerLogger = {
  debug(object: object, message: string): void;
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
  /** A logger whose every line carries these fields (a job's lines carry its jobId and queue). */
  child(bindings: Record<string, unknown>): TJobRunnerLogger;
};

/** Hears the outcome of every attempt this runner made or took back (metrics); must not throw. */
export type TJobOutcomeListener = (job: Pick<TJob, 'id' | 'queue' | 'attempt'>, outcome: TJobOutcome) => void;

export type TJobRunnerOptions = {
  handlers: TJobHandlers;
  /** Jobs run at once by this runner. */
  concurrency: number;
  /** Checks for due jobs this often even without a NOTIFY (retries, missed notifications). */
  pollIntervalMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** A running job locked longer than this is taken to be abandoned (its worker died). */
  leaseMs: number;
  /** How long stop() waits for running handlers before giving up on them (they are aborted). */
  stopTimeoutMs: number;
  /** Identifies this worker in jobs.locked_by. Default: host:pid:random. */
  workerId?: string;
};
