// Realtime benchmark: 1,000 sockets subscribed to the worklist of one facility (1,000 users, each
// authenticated and authorised like a browser), then status changes published as the routes do
// (app.events after commit). Latency = from the publish to each socket's receipt of the message,
// clients in a worker thread. Target (issue 4): p99 ≤ 100 ms to all 1,000.
// Run: node apps/server/dist/bench/realtime-bench.js (after npm run build), or from the sources:
// npx tsx --conditions=ris-source apps/server/src/bench/realtime-bench.ts. BENCH_REDIS_URL=redis://…
// measures through the Redis adapter. Prints a table.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { SOCKET_PATH } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { issueSession } from '../auth/sign-in.ts';
import { loadConfig } from '../config.ts';
import { runMigrations } from '../db/migrate.ts';
import { openDatabaseFast } from '../db/pglite-snapshot.ts';
import { facilities, organisations, patients, studies, userFacilities, users } from '../db/schema/index.ts';
import { presentWorklistRows, selectWorklistRows } from '../features/studies/study.queries.ts';
import { LocalDiskBlobStore } from '../files/local-disk-store.ts';
import type { TClientsInput, TClientsToMain, TMainToClients } from './realtime-bench-clients.ts';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 50);
const WARMUP = 5;
const REDIS_URL = process.env.BENCH_REDIS_URL;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const now = () => performance.timeOrigin + performance.now();
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ris-realtime-bench-'));
const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  HOST: '127.0.0.1',
  PORT: '0',
  DATA_DIR: dataDir,
  AUTH_TOKEN_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  ...(REDIS_URL ? { REDIS_URL } : {}),
});
const database = await openDatabaseFast({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
try {
  await runMigrations(database);
  const db = database.db;
  const [organisation] = await db.insert(organisations).values({ name: 'Bench', slug: 'bench' }).returning();
  if (!organisation) throw new Error('no organisation');
  const [facility] = await db
    .insert(facilities)
    .values({ organisationId: organisation.id, name: 'Bench Facility', code: 'BENCH' })
    .returning();
  if (!facility) throw new Error('no facility');
  const people = await db
    .insert(users)
    .values(
      Array.from({ length: SOCKETS }, (_, i) => ({
        email: `reader-${i}@bench.test`,
        firstName: 'Reader',
        lastName: String(i),
        displayName: `Reader ${i}`,
        role: 'TRANSCRIPTIONIST' as const,
        organisationId: organisation.id,
      })),
    )
    .returning();
  await db
    .insert(userFacilities)
    .values(people.map((user) => ({ userId: user.id, facilityId: facility.id })));
  const [patient] = await db
    .insert(patients)
    .values({
      name: 'Bench Patient',
      patientIdentifier: 'MRN-BENCH',
      organisationId: organisation.id,
      facilityId: facility.id,
    })
    .returning();
  if (!patient) throw new Error('no patient');
  const [study] = await db
    .insert(studies)
    .values({
      accessionNumber: 'SMBENCH001',
      patientName: patient.name,
      patientIdentifier: patient.patientIdentifier,
      modality: 'CT',
      modalityGroup: 'CT',
      studyDescription: 'CT Brain Plain',
      organisationId: organisation.id,
      facilityId: facility.id,
      patientId: patient.id,
    })
    .returning();
  if (!study) throw new Error('no study');
  const [item] = await presentWorklistRows(db, await selectWorklistRows(db).where(eq(studies.id, study.id)));
  if (!item) throw new Error('no item');

  const app = await buildApp({
    config,
    database,
    blobs: new LocalDiskBlobStore(path.join(dataDir, 'files')),
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const tokens: string[] = [];
  for (const user of people) {
    const session = await issueSession(app.identity.context, user, 'password', {
      ip: '127.0.0.1',
      userAgent: 'bench',
    });
    tokens.push(session.body.id_token);
  }

  const connectStarted = performance.now();
  const workerFile = import.meta.url.endsWith('.ts')
    ? './realtime-bench-clients.ts'
    : './realtime-bench-clients.js';
  const worker = new Worker(new URL(workerFile, import.meta.url), {
    workerData: { url, path: SOCKET_PATH, tokens, concurrency: 50 } satisfies TClientsInput,
  });
  const waiters = new Map<string, (message: TClientsToMain) => void>();
  worker.on('message', (message: TClientsToMain) => {
    const key = message.type === 'event-done' ? `event-done:${message.seq}` : message.type;
    waiters.get(key)?.(message);
    waiters.delete(key);
  });
  worker.on('error', (error) => {
    throw error;
  });
  const next = (key: string) => new Promise<TClientsToMain>((resolve) => waiters.set(key, resolve));
  const ready = await next('ready');
  if (ready.type === 'ready' && ready.refused > 0) throw new Error(`${ready.refused} sockets were refused`);
  const connectSeconds = (performance.now() - connectStarted) / 1000;

  const published: number[] = [];
  const emitMicros: number[] = [];
  for (let seq = 0; seq < WARMUP + EVENTS; seq++) {
    const done = next(`event-done:${seq}`);
    const changed = {
      ...item,
      status: seq % 2 ? ('ASSIGNED' as const) : ('TO_READ' as const),
      study: `bench-${seq}`,
    };
    published[seq] = now();
    const cpu = process.cpuUsage();
    app.events.emit('worklist.item.changed', { organisationId: organisation.id, item: changed });
    const used = process.cpuUsage(cpu);
    if (seq >= WARMUP) emitMicros.push(used.user + used.system);
    await done;
  }
  const reportPromise = next('receipts');
  worker.postMessage({ type: 'report' } satisfies TMainToClients);
  const report = await reportPromise;
  if (report.type !== 'receipts') throw new Error('no receipts');
  const perSocket: number[] = [];
  const toAll: number[] = [];
  for (let seq = WARMUP; seq < WARMUP + EVENTS; seq++) {
    const start = published[seq] ?? Number.NaN;
    const latencies = (report.receipts[seq] ?? []).map((at) => at - start);
    perSocket.push(...latencies);
    toAll.push(Math.max(...latencies));
  }
  worker.postMessage({ type: 'close' } satisfies TMainToClients);
  await app.close();

  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const rows: [string, string][] = [
    [`Sockets connected, authenticated and subscribed`, `${SOCKETS} in ${connectSeconds.toFixed(1)} s`],
    [`Delivery latency per socket, p50 (${perSocket.length} deliveries)`, ms(percentile(perSocket, 50))],
    [`Delivery latency per socket, p99`, ms(percentile(perSocket, 99))],
    [`Until all ${SOCKETS} sockets had it, p50 of ${EVENTS} changes`, ms(percentile(toAll, 50))],
    [`Until all ${SOCKETS} sockets had it, p99 (target ≤ 100 ms)`, ms(percentile(toAll, 99))],
    [`Server CPU to send one change to all ${SOCKETS}, p50`, ms(percentile(emitMicros, 50) / 1000)],
    [
      `Load average (1 min) while measuring, on ${os.availableParallelism()} cores`,
      os.loadavg()[0]?.toFixed(1) ?? '?',
    ],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const mode = REDIS_URL ? 'through the Redis adapter' : 'in-process adapter';
  process.stdout.write(
    `\nRealtime fan-out (${mode}, clients in a worker thread, Node ${process.version})\n\n`,
  );
  process.stdout.write(
    `| ${'Case'.padEnd(width)} | Result           |\n| ${'-'.repeat(width)} | ---------------: |\n`,
  );
  for (const [label, value] of rows)
    process.stdout.write(`| ${label.padEnd(width)} | ${value.padStart(16)} |\n`);
  process.stdout.write('\n');
} finally {
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
}
