import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DICTATION_MAX_STREAM_SECONDS } from '@ris/domain';
import { readFileVariables } from './config-files.ts';
import { booleanString, hostList, httpUrl, mailAddressOf, postgresUrl, trustProxy } from './config-values.ts';
import { s3ConfigOf, s3Issues, type TS3Config } from './files/s3-settings.ts';
import {
  DEFAULT_RENDER_SETTINGS,
  defaultRenderThreads,
  type TRenderSettings,
} from './documents/render-settings.ts';

/** Directory the repository's npm command was started from, so relative paths mean what the user typed. */
const invocationDir = process.env.INIT_CWD ?? process.cwd();
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Every environment variable the server reads, validated once at start-up. Documented in
 * `.env.example`; a bad value stops the process with a message naming the variable.
 */
export const ZConfigEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('localhost'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_PRETTY: booleanString.optional(),
  DATABASE_URL: postgresUrl.optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DATA_DIR: z.string().min(1).default('./data'),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/i,
      'must be a bucket name (3-63 letters, digits, dots, hyphens or underscores)',
    )
    .optional(),
  S3_ENDPOINT: httpUrl.optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{2,40}$/i, 'must be a region name such as eu-west-1')
    .optional(),
  S3_ACCESS_KEY_ID: z.string().max(256).optional(),
  S3_SECRET_ACCESS_KEY: z.string().max(1024).optional(),
  S3_FORCE_PATH_STYLE: booleanString.optional(),
  S3_PREFIX: z
    .string()
    .regex(
      /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*\/?$/,
      'must be folder names joined by "/" (letters, digits, . _ -; no leading dot or slash), e.g. ris/files',
    )
    .optional(),
  WEB_DIST_DIR: z.string().min(1).optional(),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  TRUST_PROXY: trustProxy.default(false),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  RIS_SEED_DEMO: z.enum(['auto', 'true', 'false']).default('auto'),
  RIS_DEMO_PASSWORD: z.string().min(8, 'must be at least 8 characters').default('demo-radiology'),
  AUTH_TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters (use 32+ random bytes)').optional(),
  AUTH_ID_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  AUTH_REFRESH_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  AUTH_REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(10).default(10),
  AUTH_PASSWORD_MIN_LENGTH: z.coerce
    .number()
    .int()
    .min(6, 'must be at least 6 (the least any deployment may require)')
    .max(128)
    .default(8),
  AUTH_SIGNUP_ENABLED: booleanString.default(true),
  AUTH_EMAIL_LINK_ENABLED: booleanString.default(true),
  AUTH_REVEAL_ACCOUNT_ERRORS: booleanString.default(false),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  AUTH_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  AUTH_MAX_FAILURES_ALL_IPS: z.coerce.number().int().min(1).default(50),
  AUTH_MAX_ACCOUNTS_PER_IP: z.coerce.number().int().min(1).default(20),
  AUTH_FAILURE_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
  AUTH_BACKOFF_BASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
  AUTH_BACKOFF_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  AUTH_DEVICE_COOKIE_DAYS: z.coerce.number().int().min(1).max(400).default(180),
  AUTH_RESET_TOKEN_TTL_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
  AUTH_EMAIL_LINK_TTL_MINUTES: z.coerce.number().int().min(5).max(1440).default(15),
  SMTP_URL: z
    .string()
    .url()
    .refine((value) => /^smtps?:\/\//.test(value), 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('RIS <no-reply@localhost>'),
  REDIS_URL: z
    .string()
    .url()
    .refine((value) => /^rediss?:\/\//.test(value), 'must be a redis:// or rediss:// URL')
    .optional(),
  COLLAB_STORE_DEBOUNCE_MS: z.coerce.number().int().min(10).max(60_000).default(2_000),
  COLLAB_STORE_MAX_DEBOUNCE_MS: z.coerce.number().int().min(10).max(300_000).default(10_000),
  VIEWER_OHIF_URL: httpUrl.optional(),
  VIEWER_OHIF_DIST_DIR: z.string().min(1).optional(),
  VIEWER_SESSION_HOURS: z.coerce.number().min(0.05).max(24).default(8),
  PACS_DICOMWEB_URL: httpUrl.optional(),
  PACS_ALLOWED_HOSTS: hostList,
  SUPPORT_EMAIL: z.email().optional(),
  WHATSAPP_API_URL: httpUrl.default('https://graph.facebook.com'),
  WHATSAPP_API_VERSION: z
    .string()
    .regex(/^v[0-9]+\.[0-9]+$/, 'must look like v21.0')
    .default('v21.0'),
  WHATSAPP_PHONE_NUMBER_ID: z
    .string()
    .regex(/^[0-9]+$/, 'must be the numeric phone number id')
    .optional(),
  WHATSAPP_ACCESS_TOKEN: z.string().min(10).optional(),
  FINAL_REPORT_WEBHOOK_URL: httpUrl.optional(),
  FINAL_REPORT_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  JOBS_ENABLED: booleanString.default(true),
  JOBS_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  JOBS_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  JOBS_RETRY_MAX_MS: z.coerce.number().int().min(10).max(86_400_000).default(3_600_000),
  // At least a minute: leases are renewed every third of it while a job runs (jobs/job-runner.ts).
  JOBS_LEASE_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  // Seconds between turnaround-breach passes (features/home/turnaround-breaches.ts); 0: no passes.
  TURNAROUND_BREACH_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),
  SPEECH_ALLOWED_HOSTS: hostList,
  SPEECH_MAX_STREAM_SECONDS: z.coerce.number().int().min(1).max(DICTATION_MAX_STREAM_SECONDS).optional(),
  SPEECH_ENGINE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  SPEECH_IDLE_SECONDS: z.coerce.number().int().min(1).max(3_600).default(30),
  SPEECH_STREAMS_PER_USER: z.coerce.number().int().min(1).max(20).default(2),
  SPEECH_STREAMS_PER_SERVER: z.coerce.number().int().min(1).max(1_000).default(64),
  REPORT_DOWNLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(30).max(3_600).default(300),
  RENDER_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  RENDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_RENDER_SETTINGS.timeoutMs),
  RENDER_MEMORY_MB: z.coerce.number().int().min(64).max(16_384).default(DEFAULT_RENDER_SETTINGS.memoryMb),
  RENDER_QUEUE_MAX: z.coerce.number().int().min(0).max(10_000).default(DEFAULT_RENDER_SETTINGS.maxQueue),
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .max(512)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
});

export type TConfig = {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  logLevel: z.infer<typeof ZConfigEnv>['LOG_LEVEL'];
  logPretty: boolean;
  database: { kind: 'postgres'; url: string; poolSize: number } | { kind: 'pglite'; dataDir: string | null };
  dataDir: string;
  /** Files in an S3-compatible store (S3_*); null: on the local disk under DATA_DIR/files. */
  s3: TS3Config | null;
  webDistDir: string;
  bodyLimitBytes: number;
  /** Fastify's trustProxy: true (every hop), false, or the proxies' addresses and ranges. */
  trustProxy: boolean | string[];
  shutdownTimeoutMs: number;
  seedDemo: 'auto' | 'true' | 'false';
  demoPassword: string;
  auth: TAuthConfig;
  mail: { smtpUrl: string | null; from: string };
  /** Redis for the socket.io adapter (events reach sockets on every replica); null: this process only. */
  redisUrl: string | null;
  /** Collaborative documents (apps/server/src/collaboration). */
  collaboration: {
    /** A document is stored this long after its last change… */
    storeDebounceMs: number;
    /** …and at least this often while changes keep coming. */
    storeMaxDebounceMs: number;
  };
  /** External image viewers (features/viewers); null: that viewer cannot be opened (409). */
  viewers: {
    /** The OHIF viewer's root, e.g. https://viewer.example/ohif (VIEWER_OHIF_URL). */
    ohifUrl: string | null;
    /** The server-wide default archive's DICOMweb root (PACS_DICOMWEB_URL). */
    dicomwebUrl: string | null;
    /** The built OHIF served at /viewer/ (VIEWER_OHIF_DIST_DIR; default vendor/ohif, scripts/fetch-ohif.mjs). */
    ohifDistDir: string;
    /** How long the built-in viewer's cookie lets a browser tab read images (VIEWER_SESSION_HOURS). */
    sessionSeconds: number;
  };
  /**
   * The hosts an organisation's archive URLs may name (PACS_ALLOWED_HOSTS: 'pacs.example',
   * '*.hospital.example', '10.0.0.5'); null: any. A hosted RIS sets it, so an organisation's admin
   * cannot point the server at its own network.
   */
  pacsAllowedHosts: readonly string[] | null;
  /** Where support-form mail goes (SUPPORT_EMAIL; default: the MAIL_FROM address). */
  supportEmail: string;
  /** WhatsApp Business Cloud API; null: WhatsApp messages stay in the outbox. */
  whatsapp: { apiUrl: string; apiVersion: string; phoneNumberId: string; accessToken: string } | null;
  /** Finalized reports are posted here, HMAC-SHA256 signed with the secret; null: no webhook. */
  finalReportWebhook: { url: string; secret: string } | null;
  /** Durable background jobs (apps/server/src/jobs): this replica runs workers when enabled. */
  jobs: {
    enabled: boolean;
    pollIntervalMs: number;
    /** Jobs one replica runs at once (JOBS_CONCURRENCY). */
    concurrency: number;
    /** Retry back-off: base × 2^(attempt-1) with jitter, at most max (JOBS_RETRY_BASE_MS / _MAX_MS). */
    retryBaseMs: number;
    retryMaxMs: number;
    /** A running job whose worker has been silent this long is taken back (JOBS_LEASE_SECONDS). */
    leaseMs: number;
    /** Seconds between turnaround-breach passes; 0 runs none (TURNAROUND_BREACH_INTERVAL_SECONDS). */
    turnaroundBreachIntervalSeconds: number;
  };
  /** Lifetime of a signed report download URL (pdf_url). */
  reportDownloadUrlTtlSeconds: number;
  /** PDF/DOCX rendering in worker threads: threads, time and memory budget, queue (RENDER_*). */
  rendering: TRenderSettings;
  /**
   * Prometheus metrics (features/metrics): GET /metrics with `Authorization: Bearer <token>`, and/or
   * a listener of its own on HOST:port without a token. Both null: no metrics (404).
   */
  metrics: { token: string | null; port: number | null };
  /** Dictation (features/dictation): engine hosts, stream length, time-outs and concurrency (SPEECH_*). */
  speech: {
    /** Hosts an organisation's Augnito server_url may name (SPEECH_ALLOWED_HOSTS); null: any. */
    allowedHosts: readonly string[] | null;
    maxStreamSeconds: number;
    /** How long an engine may stay silent (opening, or after end of speech) before ENGINE_TIMEOUT. */
    engineTimeoutMs: number;
    /** A started dictation that receives no audio this long is ended (its client went away). */
    idleSeconds: number;
    streamsPerUser: number;
    streamsPerServer: number;
  };
};

/** Identity settings (apps/server/src/auth); documented in .env.example. */
export type TAuthConfig = {
  /** null: a secret generated once and kept in DATA_DIR (single replica only). */
  tokenSecret: string | null;
  idTokenTtlSeconds: number;
  refreshTtlDays: number;
  /** How long after its rotation a refresh cookie may come back without ending the session (0-10 s). */
  refreshReuseGraceSeconds: number;
  passwordMinLength: number;
  signupEnabled: boolean;
  emailLinkEnabled: boolean;
  revealAccountErrors: boolean;
  rateLimitPerMinute: number;
  /** Failed sign-ins per account from one source (an IP, or one of its device cookies) before delays. */
  maxFailuresPerAccount: number;
  /** Failed sign-ins per account from every browser without its device cookie before delays. */
  maxFailuresPerAccountAllIps: number;
  /** Accounts failing from one IP (browsers without a device cookie) before delays: spraying. */
  maxAccountsPerIp: number;
  failureWindowMinutes: number;
  /** The first delay past a limit; each further failure doubles it, up to backoffMaxSeconds. */
  backoffBaseSeconds: number;
  backoffMaxSeconds: number;
  /** Lifetime of the device cookie a successful sign-in leaves in the browser. */
  deviceCookieDays: number;
  resetTokenTtlMinutes: number;
  emailLinkTtlMinutes: number;
};

export class ConfigError extends Error {
  readonly issues: string[];

  constructor(issues: string[]) {
    super(`Invalid configuration:\n${issues.map((issue) => `  - ${issue}`).join('\n')}`);
    this.issues = issues;
    this.name = 'ConfigError';
  }
}

/**
 * Parses an environment (process.env by default), each variable X also read from the file `X_FILE`
 * names (config-files.ts). Throws ConfigError naming each bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): TConfig {
  const files = readFileVariables(env, Object.keys(ZConfigEnv.shape));
  if (files.issues.length > 0) throw new ConfigError(files.issues);
  const parsed = ZConfigEnv.safeParse(files.env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.');
        return `${files.fromFiles.has(name) ? `${name} (read from ${name}_FILE)` : name}: ${issue.message}`;
      }),
    );
  }
  const e = parsed.data;
  const issues: string[] = [];
  if ((e.WHATSAPP_PHONE_NUMBER_ID === undefined) !== (e.WHATSAPP_ACCESS_TOKEN === undefined)) {
    issues.push('WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_ACCESS_TOKEN: set both or neither');
  }
  if (e.FINAL_REPORT_WEBHOOK_URL !== undefined && e.FINAL_REPORT_WEBHOOK_SECRET === undefined) {
    issues.push('FINAL_REPORT_WEBHOOK_SECRET: required when FINAL_REPORT_WEBHOOK_URL is set');
  }
  issues.push(...s3Issues(e, env));
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT) {
    issues.push('METRICS_PORT: must differ from PORT');
  }
  if (issues.length > 0) throw new ConfigError(issues);
  const dataDir = path.resolve(invocationDir, e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    logLevel: e.LOG_LEVEL,
    logPretty: e.LOG_PRETTY ?? (e.NODE_ENV === 'development' && process.stdout.isTTY === true),
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') },
    dataDir,
    s3: s3ConfigOf(e),
    webDistDir: e.WEB_DIST_DIR
      ? path.resolve(invocationDir, e.WEB_DIST_DIR)
      : path.resolve(serverRoot, '..', 'web', 'dist'),
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    trustProxy: e.TRUST_PROXY,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    seedDemo: e.RIS_SEED_DEMO,
    demoPassword: e.RIS_DEMO_PASSWORD,
    auth: {
      tokenSecret: e.AUTH_TOKEN_SECRET ?? null,
      idTokenTtlSeconds: e.AUTH_ID_TOKEN_TTL_SECONDS,
      refreshTtlDays: e.AUTH_REFRESH_TTL_DAYS,
      refreshReuseGraceSeconds: e.AUTH_REFRESH_REUSE_GRACE_SECONDS,
      passwordMinLength: e.AUTH_PASSWORD_MIN_LENGTH,
      signupEnabled: e.AUTH_SIGNUP_ENABLED,
      emailLinkEnabled: e.AUTH_EMAIL_LINK_ENABLED,
      revealAccountErrors: e.AUTH_REVEAL_ACCOUNT_ERRORS,
      rateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
      maxFailuresPerAccount: e.AUTH_MAX_FAILURES_PER_ACCOUNT,
      maxFailuresPerAccountAllIps: e.AUTH_MAX_FAILURES_ALL_IPS,
      maxAccountsPerIp: e.AUTH_MAX_ACCOUNTS_PER_IP,
      failureWindowMinutes: e.AUTH_FAILURE_WINDOW_MINUTES,
      backoffBaseSeconds: e.AUTH_BACKOFF_BASE_SECONDS,
      backoffMaxSeconds: e.AUTH_BACKOFF_MAX_SECONDS,
      deviceCookieDays: e.AUTH_DEVICE_COOKIE_DAYS,
      resetTokenTtlMinutes: e.AUTH_RESET_TOKEN_TTL_MINUTES,
      emailLinkTtlMinutes: e.AUTH_EMAIL_LINK_TTL_MINUTES,
    },
    mail: { smtpUrl: e.SMTP_URL ?? null, from: e.MAIL_FROM },
    redisUrl: e.REDIS_URL ?? null,
    collaboration: {
      storeDebounceMs: e.COLLAB_STORE_DEBOUNCE_MS,
      storeMaxDebounceMs: Math.max(e.COLLAB_STORE_MAX_DEBOUNCE_MS, e.COLLAB_STORE_DEBOUNCE_MS),
    },
    viewers: {
      ohifUrl: e.VIEWER_OHIF_URL?.replace(/\/+$/, '') ?? null,
      dicomwebUrl: e.PACS_DICOMWEB_URL?.replace(/\/+$/, '') ?? null,
      ohifDistDir: e.VIEWER_OHIF_DIST_DIR
        ? path.resolve(invocationDir, e.VIEWER_OHIF_DIST_DIR)
        : path.join(serverRoot, 'vendor', 'ohif'),
      sessionSeconds: Math.round(e.VIEWER_SESSION_HOURS * 3600),
    },
    pacsAllowedHosts: e.PACS_ALLOWED_HOSTS,
    supportEmail: e.SUPPORT_EMAIL ?? mailAddressOf(e.MAIL_FROM),
    whatsapp:
      e.WHATSAPP_PHONE_NUMBER_ID && e.WHATSAPP_ACCESS_TOKEN
        ? {
            apiUrl: e.WHATSAPP_API_URL.replace(/\/+$/, ''),
            apiVersion: e.WHATSAPP_API_VERSION,
            phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID,
            accessToken: e.WHATSAPP_ACCESS_TOKEN,
          }
        : null,
    finalReportWebhook:
      e.FINAL_REPORT_WEBHOOK_URL && e.FINAL_REPORT_WEBHOOK_SECRET
        ? { url: e.FINAL_REPORT_WEBHOOK_URL, secret: e.FINAL_REPORT_WEBHOOK_SECRET }
        : null,
    jobs: {
      enabled: e.JOBS_ENABLED,
      pollIntervalMs: e.JOBS_POLL_INTERVAL_MS,
      concurrency: e.JOBS_CONCURRENCY,
      retryBaseMs: e.JOBS_RETRY_BASE_MS,
      retryMaxMs: Math.max(e.JOBS_RETRY_MAX_MS, e.JOBS_RETRY_BASE_MS),
      leaseMs: e.JOBS_LEASE_SECONDS * 1000,
      turnaroundBreachIntervalSeconds: e.TURNAROUND_BREACH_INTERVAL_SECONDS,
    },
    reportDownloadUrlTtlSeconds: e.REPORT_DOWNLOAD_URL_TTL_SECONDS,
    metrics: { token: e.METRICS_TOKEN ?? null, port: e.METRICS_PORT ?? null },
    speech: {
      allowedHosts: e.SPEECH_ALLOWED_HOSTS,
      maxStreamSeconds: e.SPEECH_MAX_STREAM_SECONDS ?? DICTATION_MAX_STREAM_SECONDS,
      engineTimeoutMs: e.SPEECH_ENGINE_TIMEOUT_MS,
      idleSeconds: e.SPEECH_IDLE_SECONDS,
      streamsPerUser: e.SPEECH_STREAMS_PER_USER,
      streamsPerServer: e.SPEECH_STREAMS_PER_SERVER,
    },
    rendering: {
      threads: e.RENDER_THREADS ?? defaultRenderThreads(),
      timeoutMs: e.RENDER_TIMEOUT_MS,
      memoryMb: e.RENDER_MEMORY_MB,
      maxQueue: e.RENDER_QUEUE_MAX,
    },
  };
}
