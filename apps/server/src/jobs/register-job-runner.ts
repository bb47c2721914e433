import type { FastifyInstance } from 'fastify';
import { JobRunner } from './job-runner.ts';
import type { TJobHandlers } from './jobs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's job worker; null when JOBS_ENABLED is false (jobs wait for another replica). */
    jobs: JobRunner | null;
  }
}

/**
 * Runs the job worker of this process with the given handlers (when config.jobs.enabled): it starts
 * once the app is ready and stops on close, before the mailer and the database do, waiting for
 * running jobs at most half the shutdown timeout (what is still running then is taken back by
 * another worker once its lease expires).
 */
export function registerJobRunner(app: FastifyInstance, handlers: TJobHandlers): JobRunner | null {
  const { config, database } = app.deps;
  if (!config.jobs.enabled) {
    app.decorate('jobs', null);
    return null;
  }
  const runner = new JobRunner(
    database,
    {
      handlers,
      concurrency: config.jobs.concurrency,
      pollIntervalMs: config.jobs.pollIntervalMs,
      retryBaseMs: config.jobs.retryBaseMs,
      retryMaxMs: config.jobs.retryMaxMs,
      leaseMs: config.jobs.leaseMs,
      // Half the shutdown budget, so closing the database and the process still fits in it.
      stopTimeoutMs: Math.floor(config.shutdownTimeoutMs / 2),
    },
    app.log.child({ component: 'jobs' }),
  );
  app.decorate('jobs', runner);
  app.addHook('onReady', async () => runner.start());
  app.addHook('onClose', async () => runner.stop());
  return runner;
}
