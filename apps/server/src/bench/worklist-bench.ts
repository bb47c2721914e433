// Worklist benchmark on PostgreSQL (runs only with BENCH_DATABASE_URL or TEST_DATABASE_URL): creates
// the database ris_bench_worklist, loads 1,000,000 studies over 100 facilities (BENCH_STUDIES to
// change), then measures GET /worklist and GET /worklist/status/count in-process (app.inject,
// sequential: server-side latency) and over HTTP (autocannon in a child process against a listening
// server on 127.0.0.1: throughput). Drops the database after (BENCH_KEEP_DB=1 keeps it; with
// BENCH_REUSE_DB=1 a database kept by an earlier run is measured again without reloading).
// Run: node apps/server/dist/bench/worklist-bench.js  (after npm run build). Prints a table.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { issueSession } from '../auth/sign-in.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { runMigrations } from '../db/migrate.ts';
import { users } from '../db/schema/index.ts';
import { LocalDiskBlobStore } from '../files/local-disk-store.ts';
import { generateWorklistData, loadedBenchIds } from './worklist-bench-data.ts';

const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const STUDIES = Number(process.env.BENCH_STUDIES ?? 1_000_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const HTTP_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 6);
const DB_NAME = 'ris_bench_worklist';

if (!baseUrl) {
  process.stdout.write('\nWorklist benchmark skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL.\n');
  process.exit(0);
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

type TAutocannonResult = { requests: { average: number }; latency: { p99: number }; non2xx: number };

/** autocannon in a child process, so the load generator does not share the server's event loop. */
function autocannon(url: string, token: string): Promise<TAutocannonResult> {
  const bin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  const args = [
    bin,
    '-c',
    '32',
    '-d',
    String(HTTP_SECONDS),
    '-j',
    '-H',
    `authorization=Bearer ${token}`,
    url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(output) as TAutocannonResult);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

async function databaseExists(): Promise<boolean> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    const result = await client.query('select 1 from pg_database where datname = $1', [DB_NAME]);
    return result.rowCount === 1;
  } finally {
    await client.end();
  }
}

const dbUrl = new URL(baseUrl);
dbUrl.pathname = `/${DB_NAME}`;
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ris-worklist-bench-'));
const reuse = process.env.BENCH_REUSE_DB === '1' && (await databaseExists());
if (!reuse) {
  await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DB_NAME}`);
}
const database = await openDatabase({ kind: 'postgres', url: dbUrl.toString(), poolSize: 10 });
try {
  await runMigrations(database);
  const loadStarted = performance.now();
  const ids = reuse ? await loadedBenchIds(database.db) : await generateWorklistData(database.db, STUDIES);
  const loadSeconds = (performance.now() - loadStarted) / 1000;

  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    AUTH_TOKEN_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  });
  const app = await buildApp({
    config,
    database,
    blobs: new LocalDiskBlobStore(path.join(dataDir, 'files')),
  });
  await app.ready();
  async function tokenOf(userId: string): Promise<string> {
    const [row] = await database.db.select().from(users).where(eq(users.id, userId));
    if (!row) throw new Error(`no user ${userId}`);
    const session = await issueSession(app.identity.context, row, 'password', {
      ip: '127.0.0.1',
      userAgent: 'bench',
    });
    return session.body.id_token;
  }
  const adminToken = await tokenOf(ids.adminId);
  const mixes = [
    { name: 'admin, all facilities, today', token: adminToken, query: 'limit=25' },
    {
      name: 'radiologist, 5 facilities, last week, CT+MR',
      token: await tokenOf(ids.radiologistId),
      query: 'limit=25&date_range_type=LAST_1_WEEK&modalities=CT&modalities=MRI',
    },
    {
      name: 'reporter (own studies), last week',
      token: await tokenOf(ids.reporterId),
      query: 'limit=25&date_range_type=LAST_1_WEEK',
    },
    {
      name: 'admin, patient name search "FERNÁND", last month',
      token: adminToken,
      query: `limit=25&date_range_type=LAST_1_MONTH&search=${encodeURIComponent('FERNÁND')}`,
    },
    {
      name: 'admin, full name search "fernandez jos", last month',
      token: adminToken,
      query: `limit=25&date_range_type=LAST_1_MONTH&search=${encodeURIComponent('fernandez jos')}`,
    },
  ];
  const endpoints = [
    { label: 'GET /worklist', path: '/api/v1/worklist' },
    { label: 'GET /worklist/status/count', path: '/api/v1/worklist/status/count' },
  ];
  const latencyRows: string[] = [];
  for (const mix of mixes) {
    for (const endpoint of endpoints) {
      const url = `${endpoint.path}?${mix.query}`;
      const headers = { authorization: `Bearer ${mix.token}` };
      const times: number[] = [];
      let total = '';
      for (let i = 0; i < ITERATIONS + 30; i++) {
        const started = performance.now();
        const response = await app.inject({ method: 'GET', url, headers });
        const elapsed = performance.now() - started;
        if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
        if (i >= 30) times.push(elapsed);
        if (i === 0) {
          const body = response.json<{ total?: number; groups?: { ALL: number } }>();
          total = String(body.total ?? body.groups?.ALL ?? '');
        }
      }
      latencyRows.push(
        `| ${mix.name} | ${endpoint.label} | ${total} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 99).toFixed(1)} |`,
      );
    }
  }

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const httpRows: string[] = [];
  for (const mix of mixes) {
    for (const endpoint of endpoints) {
      const result = await autocannon(`${address}${endpoint.path}?${mix.query}`, mix.token);
      if (result.non2xx > 0) throw new Error(`${mix.name}: ${result.non2xx} non-2xx answers`);
      httpRows.push(
        `| ${mix.name} | ${endpoint.label} | ${result.requests.average.toFixed(0)} | ${result.latency.p99.toFixed(0)} |`,
      );
    }
  }
  await app.close();

  const out = process.stdout;
  out.write(
    `\nWorklist (PostgreSQL, ${STUDIES.toLocaleString('en')} studies / 100 facilities, Node ${process.version}, ${os.cpus().length} CPUs)\n\n`,
  );
  out.write(
    `Load (INSERT … SELECT generate_series, index rebuild, VACUUM ANALYZE): ${loadSeconds.toFixed(1)} s\n\n`,
  );
  out.write(`Server-side latency, app.inject, sequential, ${ITERATIONS} requests each (ms):\n\n`);
  out.write('| Mix | Endpoint | Total | p50 | p99 |\n| --- | --- | --: | --: | --: |\n');
  out.write(`${latencyRows.join('\n')}\n\n`);
  out.write(`HTTP throughput, autocannon 32 connections × ${HTTP_SECONDS} s per row:\n\n`);
  out.write('| Mix | Endpoint | req/s | p99 ms |\n| --- | --- | --: | --: |\n');
  out.write(`${httpRows.join('\n')}\n\n`);
} finally {
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
  if (process.env.BENCH_KEEP_DB !== '1') await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
}
