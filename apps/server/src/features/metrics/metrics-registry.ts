// The Prometheus metrics of one app instance: a registry of its own (tests build several apps in one
// process, so never prom-client's global one), Node's default process metrics, and ours, prefixed
// `ris_`. Counters move where things happen (HTTP responses, job outcomes); gauges are read when
// Prometheus scrapes (collect callbacks), so no feature's code path is hooked for them.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TArchiveLag, TQueueDepth } from './metrics-queries.ts';

/** What the gauges read at scrape time; each source belongs to another part of the app. */
export type TMetricSources = {
  database: { kind: 'postgres' | 'pglite'; pool: TPoolCounts | null };
  realtimeSockets(): number;
  collaboration(): { documents: number; connections: number };
  dictationStreams(): number;
  queueDepths(): Promise<readonly TQueueDepth[]>;
  archiveLags(): Promise<readonly TArchiveLag[]>;
  /** A gauge whose source failed (a slow or unreachable database): counted, logged, left empty. */
  onCollectError(collector: string, error: unknown): void;
};

/** What node-postgres's Pool tells about itself. */
export type TPoolCounts = {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options: { max?: number | undefined };
};

export type TMetrics = ReturnType<typeof createMetrics>;
/** What the /metrics answers need: the exposition text and its content type. */
export type TScrape = Pick<TMetrics, 'scrape' | 'contentType'>;

/** Latency buckets (seconds): API answers take milliseconds, renders and proxied images seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The registry and the metrics that code updates (the gauges update themselves at scrape time). */
export function createMetrics(sources: TMetricSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const collectErrors = new Counter({
    name: 'ris_metrics_collect_errors_total',
    help: 'Scrapes in which a gauge could not be read (its samples are missing from that scrape)',
    labelNames: ['collector'] as const,
    registers,
  });
  // The gauges of one scrape share each database read (scrape() forgets them).
  let jobsRead: Promise<readonly TQueueDepth[]> | null = null;
  let pacsRead: Promise<readonly TArchiveLag[]> | null = null;
  const queueDepths = () => (jobsRead ??= sources.queueDepths());
  const archiveLags = () => (pacsRead ??= sources.archiveLags());
  const guarded = async (collector: string, read: () => Promise<void>) => {
    try {
      await read();
    } catch (error) {
      collectErrors.inc({ collector });
      sources.onCollectError(collector, error);
    }
  };

  // Scrapes that arrive while one is collecting share its answer: a flood of them (the tokenless
  // METRICS_PORT) costs one set of database reads, never a pool's worth of connections.
  let collecting: Promise<string> | null = null;
  const collect = async () => {
    try {
      return await registry.metrics();
    } finally {
      jobsRead = null;
      pacsRead = null;
      collecting = null;
    }
  };

  const metrics = {
    registry,
    /** The exposition text of every metric, read now (or by the scrape already under way). */
    scrape(): Promise<string> {
      return (collecting ??= collect());
    },
    contentType: registry.contentType,
    httpRequests: new Counter({
      name: 'ris_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status code',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'ris_http_request_duration_seconds',
      help: 'Time from receiving a request to the end of its answer, by method and route template',
      labelNames: ['method', 'route'] as const,
      buckets: HTTP_BUCKETS,
      registers,
    }),
    jobAttempts: new Counter({
      name: 'ris_job_attempts_total',
      help: 'Job attempts run by this process, by queue and outcome (succeeded, retry, failed)',
      labelNames: ['queue', 'outcome'] as const,
      registers,
    }),
    jobFailures: new Counter({
      name: 'ris_job_failures_total',
      help: 'Failed job attempts, by queue; final="true" when the job will not be tried again',
      labelNames: ['queue', 'final'] as const,
      registers,
    }),
    deliveryFailures: new Counter({
      name: 'ris_delivery_failures_total',
      help: 'Failed deliveries (e-mail, WhatsApp, webhook) by channel; final="true": given up',
      labelNames: ['channel', 'final'] as const,
      registers,
    }),
  };

  new Gauge({
    name: 'ris_database_info',
    help: 'The database engine in use (postgres, or the embedded pglite)',
    labelNames: ['kind'] as const,
    registers,
  }).set({ kind: sources.database.kind }, 1);
  const { pool } = sources.database;
  if (pool) {
    new Gauge({
      name: 'ris_db_pool_connections',
      help: 'Connections of the PostgreSQL pool, by state (idle, busy), and its maximum (max)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'busy' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'max' }, pool.options.max ?? 10);
      },
    });
    new Gauge({
      name: 'ris_db_pool_waiting',
      help: 'Queries waiting for a free connection of the PostgreSQL pool',
      registers,
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }

  new Gauge({
    name: 'ris_realtime_sockets',
    help: 'socket.io connections (/ws/) open on this process',
    registers,
    collect() {
      this.set(sources.realtimeSockets());
    },
  });
  new Gauge({
    name: 'ris_collaboration_documents',
    help: 'Collaborative report documents loaded on this process',
    registers,
    collect() {
      this.set(sources.collaboration().documents);
    },
  });
  new Gauge({
    name: 'ris_collaboration_connections',
    help: 'Collaboration (/collab) connections open on this process',
    registers,
    collect() {
      this.set(sources.collaboration().connections);
    },
  });
  new Gauge({
    name: 'ris_dictation_streams',
    help: 'Dictations streaming through the speech socket of this process',
    registers,
    collect() {
      this.set(sources.dictationStreams());
    },
  });

  new Gauge({
    name: 'ris_jobs',
    help: 'Jobs waiting or running (all processes), by queue and state: due, scheduled, running',
    labelNames: ['queue', 'state'] as const,
    registers,
    async collect() {
      this.reset();
      await guarded('jobs', async () => {
        for (const row of await queueDepths()) this.set({ queue: row.queue, state: row.state }, row.jobs);
      });
    },
  });
  new Gauge({
    name: 'ris_jobs_oldest_due_seconds',
    help: 'How long the oldest due job of each queue has been waiting for a worker',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      this.reset();
      await guarded('jobs', async () => {
        for (const row of await queueDepths()) {
          if (row.state === 'due') this.set({ queue: row.queue }, Math.max(0, row.oldest_seconds));
        }
      });
    },
  });
  new Gauge({
    name: 'ris_pacs_sync_lag_seconds',
    help: 'Seconds since the last successful sync of each enabled archive (since it was added, if none)',
    labelNames: ['archive_id', 'archive'] as const,
    registers,
    async collect() {
      this.reset();
      await guarded('pacs', async () => {
        for (const row of await archiveLags()) {
          this.set({ archive_id: row.archive_id, archive: row.name }, Math.max(0, row.lag_seconds));
        }
      });
    },
  });
  new Gauge({
    name: 'ris_pacs_sync_failures',
    help: 'Consecutive failed syncs of each enabled archive (0 after a success)',
    labelNames: ['archive_id', 'archive'] as const,
    registers,
    async collect() {
      this.reset();
      await guarded('pacs', async () => {
        for (const row of await archiveLags()) {
          this.set({ archive_id: row.archive_id, archive: row.name }, row.failure_count);
        }
      });
    },
  });
  return metrics;
}
