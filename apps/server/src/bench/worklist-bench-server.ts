// The worklist benchmark's HTTP server, in its own process (spawned by worklist-bench.ts), so the
// throughput measured is the server's alone: the load generator neither shares its event loop nor
// its process. Reads BENCH_SERVER_DATABASE_URL, BENCH_SERVER_TOKEN_SECRET, BENCH_SERVER_POOL_SIZE
// (default 10), BENCH_SERVER_COUNT_CACHE (`off` measures without the worklist count cache) and
// BENCH_SERVER_TIMING (`1` adds a Server-Timing header to every response, serverTiming below);
// listens on 127.0.0.1:<random port> and prints `listening <address>` on stdout; ends on SIGTERM.
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { worklistCountCacheOf } from '../features/worklist/list/worklist-list.routes.ts';
import { LocalDiskBlobStore } from '../files/local-disk-store.ts';

const url = process.env.BENCH_SERVER_DATABASE_URL;
const secret = process.env.BENCH_SERVER_TOKEN_SECRET;
if (!url || !secret) throw new Error('BENCH_SERVER_DATABASE_URL and BENCH_SERVER_TOKEN_SECRET are required');

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ris-worklist-bench-server-'));
const poolSize = Number(process.env.BENCH_SERVER_POOL_SIZE ?? 10);
const database = await openDatabase({ kind: 'postgres', url, poolSize });
const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
  AUTH_TOKEN_SECRET: secret,
});
const app = await buildApp({ config, database, blobs: new LocalDiskBlobStore(path.join(dataDir, 'files')) });
await app.ready();
if (process.env.BENCH_SERVER_TIMING === '1') serverTiming(app.server);
const countCache = worklistCountCacheOf(app.deps);
if (countCache && process.env.BENCH_SERVER_COUNT_CACHE === 'off') countCache.enabled = false;
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening ${address}\n`);

process.once('SIGTERM', () => {
  void (async () => {
    await app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  })();
});

/**
 * `Server-Timing: app;dur=<ms>` on every response: from the request's headers parsed to its head
 * written (routing, hooks, handler, PostgreSQL, the body built), so the matrix can tell the server's
 * time from the time the request spent on the way and in the client's own pauses (its collections).
 */
function serverTiming(server: Server): void {
  server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    const started = performance.now();
    const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
    response.writeHead = ((...args: unknown[]) => {
      response.setHeader('server-timing', `app;dur=${(performance.now() - started).toFixed(3)}`);
      return writeHead(...args);
    }) as ServerResponse['writeHead'];
  });
}
