import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Directory the repository's npm command was started from, so relative paths mean what the user typed. */
const invocationDir = process.env.INIT_CWD ?? process.cwd();
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const postgresUrl = z
  .string()
  .url()
  .refine((value) => /^postgres(ql)?:\/\//.test(value), 'must be a postgres:// or postgresql:// URL');

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
  WEB_DIST_DIR: z.string().min(1).optional(),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  TRUST_PROXY: booleanString.default(false),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  RIS_SEED_DEMO: z.enum(['auto', 'true', 'false']).default('auto'),
  RIS_DEMO_PASSWORD: z.string().min(8, 'must be at least 8 characters').default('demo-radiology'),
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
  webDistDir: string;
  bodyLimitBytes: number;
  trustProxy: boolean;
  shutdownTimeoutMs: number;
  seedDemo: 'auto' | 'true' | 'false';
  demoPassword: string;
};

export class ConfigError extends Error {
  readonly issues: string[];

  constructor(issues: string[]) {
    super(`Invalid configuration:\n${issues.map((issue) => `  - ${issue}`).join('\n')}`);
    this.issues = issues;
    this.name = 'ConfigError';
  }
}

/** Parses an environment (process.env by default). Throws ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): TConfig {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = ZConfigEnv.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
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
    webDistDir: e.WEB_DIST_DIR
      ? path.resolve(invocationDir, e.WEB_DIST_DIR)
      : path.resolve(serverRoot, '..', 'web', 'dist'),
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    trustProxy: e.TRUST_PROXY,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    seedDemo: e.RIS_SEED_DEMO,
    demoPassword: e.RIS_DEMO_PASSWORD,
  };
}
