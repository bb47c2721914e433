// Metrics' part of the app (issue 18), wired by app.ts before any route: with METRICS_TOKEN and/or
// METRICS_PORT set, a registry for this app, the HTTP hook that counts answers by route template,
// the job outcome listener, and GET /metrics. With neither, nothing at all: /metrics is unknown (404).
import type { FastifyInstance } from 'fastify';
import { listenForMetrics } from './metrics-listener.ts';
import { readArchiveLags, readQueueDepths } from './metrics-queries.ts';
import { createMetrics, type TMetrics } from './metrics-registry.ts';
import { METRICS_PATH, metricsRoutes } from './metrics.routes.ts';

/** The route label of requests no route matched (unknown paths, the web app's deep links). */
export const UNMATCHED_ROUTE = 'unmatched';

export type TMetricsWiring = {
  /** Job queue → delivery channel, so their failures count as delivery failures of that channel. */
  deliveryChannels: Readonly<Record<string, string>>;
};

/**
 * Call after the job runner and before the routes: Fastify gives a hook to the routes registered
 * after it. The gauges read the realtime, collaboration and dictation servers at scrape time, when
 * they exist.
 */
export async function registerMetrics(app: FastifyInstance, wiring: TMetricsWiring): Promise<void> {
  const { config, database } = app.deps;
  const { token, port } = config.metrics;
  if (token === null && port === null) return;
  const log = app.log.child({ component: 'metrics' });
  const metrics = createMetrics({
    database: { kind: database.kind, pool: database.pool },
    realtimeSockets: () => app.realtime.of('/').sockets.size,
    collaboration: () => ({
      documents: app.collaboration.getDocumentsCount(),
      connections: app.collaboration.getConnectionsCount(),
    }),
    dictationStreams: () => app.dictation.openStreams(),
    queueDepths: () => readQueueDepths(database.db),
    archiveLags: () => readArchiveLags(database.db),
    onCollectError: (collector, error) => log.warn({ err: error, collector }, 'a metric could not be read'),
  });
  countResponses(app, metrics);
  countJobOutcomes(app, metrics, wiring.deliveryChannels);
  if (token !== null) await app.register(metricsRoutes(metrics, token));
  if (port !== null) {
    let close: (() => Promise<void>) | null = null;
    app.addHook('onReady', async () => {
      close = await listenForMetrics(metrics, { host: config.host, port }, log);
    });
    app.addHook('onClose', async () => close?.());
  }
}

/** Every answer but the scraper's own, by route template (never the raw URL: ids would explode it). */
function countResponses(app: FastifyInstance, metrics: TMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    if (route === METRICS_PATH) return;
    const labels = { method: request.method, route };
    metrics.httpRequests.inc({ ...labels, status: String(reply.statusCode) });
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1_000);
  });
}

function countJobOutcomes(
  app: FastifyInstance,
  metrics: TMetrics,
  deliveryChannels: TMetricsWiring['deliveryChannels'],
): void {
  const stop = app.jobs?.onOutcome((job, outcome) => {
    const failed = outcome.kind === 'failed';
    const final = failed && !outcome.willRetry;
    metrics.jobAttempts.inc({
      queue: job.queue,
      outcome: failed ? (final ? 'failed' : 'retry') : 'succeeded',
    });
    if (!failed) return;
    metrics.jobFailures.inc({ queue: job.queue, final: String(final) });
    const channel = deliveryChannels[job.queue];
    if (channel) metrics.deliveryFailures.inc({ channel, final: String(final) });
  });
  if (stop) app.addHook('onClose', async () => stop());
}
