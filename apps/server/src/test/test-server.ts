import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import type { Identity } from '../auth/identity.ts';
import { loadConfig } from '../config.ts';
import type { TDatabase, TDb } from '../db/client.ts';
import { openBlobStore } from '../files/open-blob-store.ts';
import { createTestDatabase } from './test-database.ts';

export const TEST_INDEX_HTML = '<!doctype html><html><body><div id="root">RIS test shell</div></body></html>';

export type TTestResponse = {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: unknown;
};

export type TRequestOptions = {
  body?: unknown;
  rawBody?: string | Buffer;
  token?: string;
  headers?: Record<string, string>;
};

export type TTestServer = {
  url: string;
  app: FastifyInstance;
  database: TDatabase;
  db: TDb;
  dataDir: string;
  /** The server's identity module (commands' context, verifier, mailer, settled()). */
  identity: Identity;
  request(method: string, path: string, options?: TRequestOptions): Promise<TTestResponse>;
  close(): Promise<void>;
};

/**
 * The real server on a free port of 127.0.0.1 with its own fresh database, data directory and a
 * minimal built web app; requests go over real HTTP with fetch.
 */
export type TTestServerOptions = {
  env?: Record<string, string>;
  /** Extra routes for probing shared HTTP behaviour (validation, body limits) before any feature has them. */
  routes?: (app: FastifyInstance) => void | Promise<void>;
  /** Probe routes inside /api/v1 behind the authenticate hook (request.principal is set). */
  securedRoutes?: (secured: FastifyInstance) => void | Promise<void>;
  /** The server's clock (app.deps.clock), e.g. a fixed instant for date presets. */
  clock?: () => Date;
};

/**
 * Every test comes from 127.0.0.1, so the per-IP limits would trip across unrelated tests of a file;
 * tests of those limits set them low again through `env`.
 */
const TEST_DEFAULT_ENV = {
  AUTH_RATE_LIMIT_PER_MINUTE: '100000',
  AUTH_MAX_ACCOUNTS_PER_IP: '100000',
  // No turnaround-breach passes: they would notify about other tests' old studies (their tests run passes).
  TURNAROUND_BREACH_INTERVAL_SECONDS: '0',
};

export async function startTestServer(options: TTestServerOptions = {}): Promise<TTestServer> {
  const env = options.env ?? {};
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ris-test-'));
  const webDir = path.join(dataDir, 'web');
  await mkdir(path.join(webDir, 'assets'), { recursive: true });
  await writeFile(path.join(webDir, 'index.html'), TEST_INDEX_HTML);
  await writeFile(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log("ris");');
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: webDir,
    ...TEST_DEFAULT_ENV,
    ...env,
  });
  const database = await createTestDatabase();
  // DATA_DIR/files, or the bucket that S3_* variables in `env` name.
  const blobs = openBlobStore(config);
  const app = await buildApp({
    config,
    database,
    blobs,
    clock: options.clock,
    beforeReady: options.routes,
    beforeReadySecured: options.securedRoutes,
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });

  async function request(
    method: string,
    urlPath: string,
    options: TRequestOptions = {},
  ): Promise<TTestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | Buffer | undefined = options.rawBody;
    if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.body);
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(`${address}${urlPath}`, { method, headers, body });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  return {
    url: address,
    app,
    database,
    db: database.db,
    dataDir,
    identity: app.identity,
    request,
    async close() {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
