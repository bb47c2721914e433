// Worklist benchmark on PostgreSQL (runs only with BENCH_DATABASE_URL or TEST_DATABASE_URL): creates
// the database ris_bench_worklist (BENCH_DB_NAME), loads 1,000,000 studies over 100 facilities (BENCH_STUDIES to
// change), then measures GET /worklist and GET /worklist/status/count in-process (app.inject,
// sequential: server-side latency, with and without the count cache) and over HTTP (throughput):
// the server runs in a process of its own (worklist-bench-server.ts) and wrk, else autocannon, loads
// it from another (worklist-bench-http.ts; BENCH_HTTP_TOOL=wrk|autocannon|both,
// BENCH_HTTP_UNCACHED=1 also measures the server with the count cache off). Drops the database after
// (BENCH_KEEP_DB=1 keeps it; with BENCH_REUSE_DB=1 a database kept by an earlier run is measured
// again without reloading; BENCH_LOAD_ONLY=1 with BENCH_KEEP_DB=1 only loads it). BENCH_MATRIX=1 first
// measures the filter matrix of issue 15 (worklist-bench-matrix.ts; with BENCH_LATENCY=0 BENCH_HTTP=0
// only it); BENCH_FUZZ=1 a round of random filter combinations (worklist-bench-fuzz.ts).
// Run: node apps/server/dist/bench/worklist-bench.js  (after npm run build). Prints tables.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { issueSession } from '../auth/sign-in.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { runMigrations } from '../db/migrate.ts';
import { queryRows } from '../db/rows.ts';
import { users } from '../db/schema/index.ts';
import { worklistCountCacheOf } from '../features/worklist/list/worklist-list.routes.ts';
import { compactWorklistCounts } from '../features/worklist/list/worklist-rollup-compaction.ts';
import { LocalDiskBlobStore } from '../files/local-disk-store.ts';
import { generateWorklistData, loadedBenchIds, markPastTurnaroundBreaches } from './worklist-bench-data.ts';
import { fuzzRound } from './worklist-bench-fuzz.ts';
import { explainTable, matrixTable, runMatrix, type TMatrixRow } from './worklist-bench-matrix.ts';
import { httpTransport, injectTransport, matrixTransportKind } from './worklist-bench-transport.ts';
import {
  childrenCpuMs,
  cpuMs,
  cpuSpent,
  loadTools,
  runLoad,
  startBenchServer,
} from './worklist-bench-http.ts';
import { adminStatement, benchDatabaseName, databaseExists, percentile } from './bench-support.ts';

const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const STUDIES = Number(process.env.BENCH_STUDIES ?? 1_000_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const HTTP_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 6);
const HTTP_CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 32);
/** Study changes per second made through the API during the "with writes" throughput rows. */
const HTTP_WRITES_PER_SECOND = Number(process.env.BENCH_HTTP_WRITES_PER_SECOND ?? 10);
const DB_NAME = benchDatabaseName('ris_bench_worklist');
const TOKEN_SECRET = 'bench-secret-bench-secret-bench-secret-0123';

if (!baseUrl) {
  process.stdout.write('\nWorklist benchmark skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL.\n');
  process.exit(0);
}

const dbUrl = new URL(baseUrl);
dbUrl.pathname = `/${DB_NAME}`;
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ris-worklist-bench-'));
const reuse = process.env.BENCH_REUSE_DB === '1' && (await databaseExists(baseUrl, DB_NAME));
if (!reuse) {
  await adminStatement(baseUrl, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await adminStatement(baseUrl, `CREATE DATABASE ${DB_NAME}`);
}
const database = await openDatabase({ kind: 'postgres', url: dbUrl.toString(), poolSize: 10 });
try {
  await runMigrations(database);
  const loadStarted = performance.now();
  const ids = reuse ? await loadedBenchIds(database.db) : await generateWorklistData(database.db, STUDIES);
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  // The load's triggers appended ~10,000 count deltas (and the assignee rollup's): folded and vacuumed
  // here, as the app's compaction and autovacuum would (autovacuum is off on some test servers: the
  // deleted deltas stayed and every count read their 460 dead heap pages, 0.7-0.8 ms a request).
  await compactWorklistCounts(database.db);
  await database.db.execute(sql`vacuum analyze study_count_deltas`);
  await database.db.execute(sql`vacuum analyze study_assignee_count_deltas`);
  const breachesStarted = performance.now();
  const breaches = await markPastTurnaroundBreaches(database.db, new Date());
  if (breaches > 0) {
    // Vacuumed as autovacuum would after such an update (its dead tuples otherwise sit in every index).
    await database.db.execute(sql`vacuum analyze studies`);
    process.stderr.write(
      `Marked ${breaches.toLocaleString('en')} past turnaround breaches as notified in ${((performance.now() - breachesStarted) / 1000).toFixed(1)} s.\n`,
    );
  }
  if (process.env.BENCH_LOAD_ONLY === '1') {
    process.stdout.write(
      `\nLoaded ${STUDIES.toLocaleString('en')} studies into ${DB_NAME} in ${loadSeconds.toFixed(1)} s.\n`,
    );
    process.exit(0);
  }

  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    AUTH_TOKEN_SECRET: TOKEN_SECRET,
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
  const radiologistToken = await tokenOf(ids.radiologistId);
  const reporterToken = await tokenOf(ids.reporterId);
  const allMixes = [
    { name: 'admin, all facilities, today', token: adminToken, query: 'limit=25' },
    {
      name: 'radiologist, 5 facilities, last week, CT+MR',
      token: radiologistToken,
      query: 'limit=25&date_range_type=LAST_1_WEEK&modalities=CT&modalities=MRI',
    },
    {
      name: 'reporter (own studies), last week',
      token: reporterToken,
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
  // BENCH_MIXES=radiologist,reporter measures only the mixes whose names contain one of the words;
  // BENCH_LATENCY=0 skips the in-process latency table, BENCH_HTTP=0 the throughput table.
  const only = (process.env.BENCH_MIXES ?? '').split(',').filter((word) => word !== '');
  const mixes =
    only.length === 0 ? allMixes : allMixes.filter((mix) => only.some((word) => mix.name.includes(word)));
  // BENCH_ENDPOINTS=list (or counts) measures that endpoint only, e.g. to profile it alone.
  const endpoints = [
    { label: 'GET /worklist', path: '/api/v1/worklist', name: 'list' },
    { label: 'GET /worklist/status/count', path: '/api/v1/worklist/status/count', name: 'counts' },
  ].filter((endpoint) => (process.env.BENCH_ENDPOINTS ?? endpoint.name).split(',').includes(endpoint.name));
  if (endpoints.length === 0) throw new Error(`BENCH_ENDPOINTS names no endpoint (list, counts)`);
  const countCache = worklistCountCacheOf(app.deps);
  if (!countCache) throw new Error('the worklist count cache is not registered');
  /** ITERATIONS sequential requests after 30 to warm up: p50 and p99 in ms, and the total answered. */
  async function latency(url: string, token: string) {
    const headers = { authorization: `Bearer ${token}` };
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
    return { total, p50: percentile(times, 50).toFixed(1), p99: percentile(times, 99).toFixed(1) };
  }
  // BENCH_MATRIX=1: the filter matrix (worklist-bench-matrix.ts), count cache off.
  let matrixRows: TMatrixRow[] = [];
  if (process.env.BENCH_MATRIX === '1') {
    const fiveFacilitiesOf = async (userId: string | null) =>
      (
        await queryRows<{ id: string }>(
          database.db,
          userId === null
            ? sql`select id from facilities where organisation_id = ${ids.organisationId} order by code limit 5`
            : sql`select f.id from user_facilities uf join facilities f on f.id = uf.facility_id
                  where uf.user_id = ${userId} order by f.code limit 5`,
        )
      ).map((row) => row.id);
    const [changed] = await queryRows<{ id: string }>(
      database.db,
      sql`select id from studies where status = 'TO_READ' and deleted_at is null order by id limit 1`,
    );
    if (!changed) throw new Error('no TO_READ study to change during the matrix');
    const write = { adminToken, study: changed.id };
    // The in-process app answers EXPLAIN's requests (BENCH_MATRIX_EXPLAIN) only: uncached, so each
    // runs its statements. With the inject transport it also answers the matrix, cache as each mode says.
    countCache.enabled = false;
    matrixRows = await runMatrix({
      app,
      dbUrl: dbUrl.toString(),
      radiologistId: ids.radiologistId,
      transport:
        matrixTransportKind() === 'inject'
          ? injectTransport(app, countCache, write)
          : httpTransport({ databaseUrl: dbUrl.toString(), tokenSecret: TOKEN_SECRET }, write),
      callers: [
        { name: 'admin', token: adminToken, facilityIds: await fiveFacilitiesOf(null) },
        {
          name: 'radiologist (5 facilities)',
          token: radiologistToken,
          facilityIds: await fiveFacilitiesOf(ids.radiologistId),
          scopeSearch: 'garcia',
        },
        {
          name: 'reporter',
          token: reporterToken,
          facilityIds: await fiveFacilitiesOf(ids.reporterId),
          scopeSearch: 'rossi',
        },
      ],
    });
  }
  // BENCH_FUZZ=1: random combinations of every filter (worklist-bench-fuzz.ts), count cache off.
  const fuzzLines =
    process.env.BENCH_FUZZ === '1'
      ? await fuzzRound(database.db, {
          organisationId: ids.organisationId,
          server: { databaseUrl: dbUrl.toString(), tokenSecret: TOKEN_SECRET },
          callers: [
            { name: 'admin', token: adminToken },
            { name: 'radiologist', token: radiologistToken },
            { name: 'reporter', token: reporterToken },
          ],
        })
      : [];
  const latencyRows: string[] = [];
  for (const mix of process.env.BENCH_LATENCY === '0' ? [] : mixes) {
    for (const endpoint of endpoints) {
      const url = `${endpoint.path}?${mix.query}`;
      countCache.enabled = false;
      const uncached = await latency(url, mix.token);
      countCache.enabled = true;
      const cached = await latency(url, mix.token);
      latencyRows.push(
        `| ${mix.name} | ${endpoint.label} | ${uncached.total} | ${uncached.p50} / ${uncached.p99} | ${cached.p50} / ${cached.p99} |`,
      );
    }
  }
  await app.close();

  // Throughput: the server in a process of its own, the load generator in another.
  const backends = async () =>
    (
      await queryRows<{ pid: number }>(
        database.db,
        sql`select pid from pg_stat_activity where datname = ${DB_NAME} and pid <> pg_backend_pid()`,
      )
    ).map((row) => row.pid);
  const perRequest = (spent: number | null, requests: number) =>
    spent === null || requests === 0 ? '–' : (spent / requests).toFixed(2);
  const httpRows: string[] = [];
  const [written] = await queryRows<{ id: string }>(
    database.db,
    sql`select id from studies where status = 'TO_READ' and deleted_at is null limit 1`,
  );
  if (!written) throw new Error('no TO_READ study to change during the load');
  /**
   * Changes one study's priority tag through the API every 1/rate s while `during` runs: each change
   * is announced and evicts the organisation's cached counts and pages, as a busy group's would.
   */
  async function withWrites<T>(address: string, rate: number, during: () => Promise<T>): Promise<T> {
    if (rate <= 0) return during();
    let tag = 0;
    let failures = 0;
    const write = () =>
      fetch(`${address}/api/v1/worklist/assign/priority-tag`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ worklist_ids: [written?.id], priority_tag: ++tag % 2 ? 'URGENT' : 'ROUTINE' }),
      }).then(
        (response) => {
          if (!response.ok) failures += 1;
        },
        () => {
          failures += 1;
        },
      );
    const timer = setInterval(() => void write(), 1000 / rate);
    let result: T;
    try {
      result = await during();
    } finally {
      clearInterval(timer);
    }
    if (failures > 0) throw new Error(`${failures} writes failed during the load`);
    return result;
  }
  // BENCH_HTTP_MODES=off,off+writes,on,on+writes picks the server's modes (count cache off or on,
  // with or without BENCH_HTTP_WRITES_PER_SECOND writes); by default on, on+writes, and off with
  // BENCH_HTTP_UNCACHED=1.
  const modeNames = (
    process.env.BENCH_HTTP_MODES ?? `on,on+writes${process.env.BENCH_HTTP_UNCACHED === '1' ? ',off' : ''}`
  ).split(',');
  const cacheModes = modeNames
    .filter((name) => HTTP_WRITES_PER_SECOND > 0 || !name.endsWith('+writes'))
    .map((name) => ({
      cache: name.startsWith('off') ? 'off' : 'on',
      writes: name.endsWith('+writes') ? HTTP_WRITES_PER_SECOND : 0,
    }));
  for (const { cache: cacheMode, writes } of process.env.BENCH_HTTP === '0' ? [] : cacheModes) {
    const server = await startBenchServer({
      BENCH_SERVER_DATABASE_URL: dbUrl.toString(),
      BENCH_SERVER_TOKEN_SECRET: TOKEN_SECRET,
      BENCH_SERVER_COUNT_CACHE: cacheMode,
    });
    try {
      for (const tool of loadTools()) {
        for (const mix of mixes) {
          for (const endpoint of endpoints) {
            const url = `${server.address}${endpoint.path}?${mix.query}`;
            await runLoad(tool, url, mix.token, 1, HTTP_CONNECTIONS); // warm-up: pool connections, caches
            const postgres = await backends();
            const [serverBefore, postgresBefore] = [cpuMs([server.pid]), cpuMs(postgres)];
            const generatorBefore = childrenCpuMs();
            const result = await withWrites(server.address, writes, () =>
              runLoad(tool, url, mix.token, HTTP_SECONDS, HTTP_CONNECTIONS),
            );
            if (result.non2xx > 0) throw new Error(`${mix.name}: ${result.non2xx} non-2xx answers`);
            const generatorAfter = childrenCpuMs();
            const cpu = [
              perRequest(cpuSpent(serverBefore, cpuMs([server.pid])), result.requests),
              perRequest(cpuSpent(postgresBefore, cpuMs(postgres)), result.requests),
              perRequest(
                generatorBefore === null || generatorAfter === null ? null : generatorAfter - generatorBefore,
                result.requests,
              ),
            ];
            httpRows.push(
              `| ${mix.name} | ${endpoint.label} | ${tool} | ${cacheMode}${writes > 0 ? `, ${writes} writes/s` : ''} | ${result.perSecond.toFixed(0)} | ${result.p99Ms.toFixed(0)} | ${cpu.join(' | ')} |`,
            );
          }
        }
      }
    } finally {
      await server.stop();
    }
  }

  const out = process.stdout;
  const load = os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
  out.write(
    `\nWorklist (PostgreSQL, ${STUDIES.toLocaleString('en')} studies / 100 facilities, Node ${process.version}, ${os.cpus().length} CPUs, load ${load})\n\n`,
  );
  out.write(
    `Load (INSERT … SELECT generate_series, index rebuild, VACUUM ANALYZE): ${loadSeconds.toFixed(1)} s\n\n`,
  );
  if (matrixRows.length > 0) {
    out.write(
      `Filter matrix, ${matrixTransportKind() === 'inject' ? 'app.inject' : 'HTTP to the server process'}, sequential (mode: count cache off/on, +writes; slowest first):\n\n`,
    );
    out.write(`${matrixTable(matrixRows)}\n`);
    const explained = explainTable(matrixRows);
    if (explained.plans !== '') {
      out.write(
        `Plans of the matrix (EXPLAIN ANALYZE, BUFFERS; worst estimate first):\n\n${explained.table}\n`,
      );
      const file = process.env.BENCH_MATRIX_EXPLAIN_FILE;
      if (file) await writeFile(file, explained.plans);
    }
  }
  if (fuzzLines.length > 0) out.write(`${fuzzLines.join('\n')}\n\n`);
  out.write(`Server-side latency, app.inject, sequential, ${ITERATIONS} requests each (ms, p50 / p99):\n\n`);
  out.write(
    '| Mix | Endpoint | Total | No cache | Cache (counts and pages) |\n| --- | --- | --: | --: | --: |\n',
  );
  out.write(`${latencyRows.join('\n')}\n\n`);
  out.write(
    `HTTP throughput, ${HTTP_CONNECTIONS} connections × ${HTTP_SECONDS} s per row; CPU ms per request of the server process, the PostgreSQL backends and the load generator:\n\n`,
  );
  out.write(
    '| Mix | Endpoint | Tool | Cache | req/s | p99 ms | Server CPU | PostgreSQL CPU | Generator CPU |\n| --- | --- | --- | --- | --: | --: | --: | --: | --: |\n',
  );
  out.write(`${httpRows.join('\n')}\n\n`);
} finally {
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
  if (process.env.BENCH_KEEP_DB !== '1')
    await adminStatement(baseUrl, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
}
