// The worklist benchmark's HTTP server, in its own process (spawned by worklist-bench.ts), so the
// throughput measured is the server's alone: the load generator neither shares its event loop nor
// its process. Reads BENCH_SERVER_DATABASE_URL, BENCH_SERVER_TOKEN_SECRET, BENCH_SERVER_POOL_SIZE
// (default 10) and BENCH_SERVER_COUNT_CACHE (`off` measures without the worklist count cache),
// listens on 127.0.0.1:<random port> and prints `listening <address>` on stdout; ends on SIGTERM.
import { mkdtemp, rm } from 'node:fs/promises';
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
