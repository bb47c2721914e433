// PACS benchmark (issue 14), against a real Orthanc started here:
// 1. catch-up: N synthetic studies stored in Orthanc, then synchronised by sync passes run back to
//    back (Orthanc /changes → QIDO → import): studies per second;
// 2. latency: with the archive's job chain polling every second, single studies are stored one at a
//    time; from the moment Orthanc reports the study stable (its IsStable flag, polled every 20 ms)
//    to the moment an admin's open worklist socket receives the new item.
// Run: node apps/server/dist/bench/pacs-bench.js (after npm run build), or from the sources:
// npx tsx --conditions=ris-source apps/server/src/bench/pacs-bench.ts. BENCH_PACS_STUDIES (200),
// BENCH_PACS_SAMPLES (10); BENCH_DATABASE_URL=postgres://… runs on PostgreSQL instead of PGlite, in
// a database of its own (ris_bench_pacs, made afresh) on that server.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LISTEN_TOPIC_EVENT, REALTIME_MESSAGE_EVENT, SOCKET_PATH, type TRealtimeMessage } from '@ris/domain';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { io } from 'socket.io-client';
import { buildApp } from '../app.ts';
import { issueSession } from '../auth/sign-in.ts';
import { loadConfig } from '../config.ts';
import { runMigrations } from '../db/migrate.ts';
import { openDatabaseFast } from '../db/pglite-snapshot.ts';
import {
  facilities,
  organisations,
  pacsArchiveFacilities,
  pacsArchives,
  studies,
  users,
} from '../db/schema/index.ts';
import { syncArchive } from '../features/pacs/sync/sync-archive.ts';
import { ensureSyncChains } from '../features/pacs/sync/sync-jobs.ts';
import { LocalDiskBlobStore } from '../files/local-disk-store.ts';
import { startLocalOrthanc, uploadInstances } from '../integrations/pacs/local-orthanc.ts';
import { syntheticStudy } from '../integrations/pacs/synthetic-dicom.ts';

const STUDIES = Number(process.env.BENCH_PACS_STUDIES ?? 200);
const SAMPLES = Number(process.env.BENCH_PACS_SAMPLES ?? 10);
const ADMIN_URL = process.env.BENCH_DATABASE_URL;
const DB_NAME = 'ris_bench_pacs';

async function adminStatement(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

let DATABASE_URL: string | undefined;
if (ADMIN_URL) {
  await adminStatement(`drop database if exists ${DB_NAME} with (force)`);
  await adminStatement(`create database ${DB_NAME}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  DATABASE_URL = url.toString();
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ris-pacs-bench-'));
const orthanc = await startLocalOrthanc({ storageDir: path.join(dataDir, 'orthanc'), stableAgeSeconds: 1 });
const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  HOST: '127.0.0.1',
  PORT: '0',
  DATA_DIR: dataDir,
  AUTH_TOKEN_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  JOBS_POLL_INTERVAL_MS: '250',
  ...(DATABASE_URL ? { DATABASE_URL } : {}),
});
const database = await openDatabaseFast(
  DATABASE_URL
    ? { kind: 'postgres', url: DATABASE_URL, poolSize: 10 }
    : { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') },
);
try {
  await runMigrations(database);
  const db = database.db;
  const [organisation] = await db
    .insert(organisations)
    .values({ name: 'Bench', slug: `bench-pacs-${Date.now()}` })
    .returning();
  if (!organisation) throw new Error('no organisation');
  const [facility] = await db
    .insert(facilities)
    .values({ organisationId: organisation.id, name: 'Bench Hospital', code: 'BENCH' })
    .returning();
  if (!facility) throw new Error('no facility');
  const [admin] = await db
    .insert(users)
    .values({
      email: `pacs-admin-${Date.now()}@bench.test`,
      role: 'ADMIN',
      organisationId: organisation.id,
      firstName: 'Bench',
      lastName: 'Admin',
    })
    .returning();
  if (!admin) throw new Error('no admin');
  const app = await buildApp({
    config,
    database,
    blobs: new LocalDiskBlobStore(path.join(dataDir, 'files')),
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  // Added after the app is ready, so no job chain runs it until step 2 starts one.
  const [archive] = await db
    .insert(pacsArchives)
    .values({
      organisationId: organisation.id,
      name: 'Bench Orthanc',
      kind: 'orthanc',
      dicomwebUrl: orthanc.dicomwebUrl,
      orthancUrl: orthanc.restUrl,
      authKind: 'basic',
      username: orthanc.username,
      secretSealed: app.secretBox.seal(orthanc.password),
      defaultFacilityId: facility.id,
      pollIntervalSeconds: 1,
      changesCursor: 0,
      polledUntil: new Date(),
    })
    .returning();
  if (!archive) throw new Error('no archive');
  await db.insert(pacsArchiveFacilities).values({ archiveId: archive.id, facilityId: facility.id });

  // 1. Catch-up.
  const uploadStarted = performance.now();
  for (let index = 0; index < STUDIES; index += 1) {
    const study = syntheticStudy({
      patientName: `Bench^Patient^${index}`,
      patientId: `MRN-B${index}`,
      accessionNumber: `ACC-B${index}`,
      studyDescription: 'CT CHEST',
      modalities: ['CT', 'CT'],
      instancesPerSeries: 2,
      institutionName: 'Bench Hospital',
      size: 32,
    });
    await uploadInstances(orthanc, study.instances);
  }
  const uploadSeconds = (performance.now() - uploadStarted) / 1000;
  // Wait until Orthanc has called every study stable (its /changes then holds every StableStudy).
  for (;;) {
    const response = await fetch(`${orthanc.restUrl}/tools/find`, {
      method: 'POST',
      headers: { authorization: orthanc.authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ Level: 'Study', Query: {}, Expand: true }),
    });
    const found = (await response.json()) as { IsStable: boolean }[];
    if (found.length >= STUDIES && found.every((study) => study.IsStable)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const syncStarted = performance.now();
  let added = 0;
  for (let pass = 0; pass < 1_000 && added < STUDIES; pass += 1) {
    const result = await syncArchive({ db, box: app.secretBox }, archive.id);
    if (!result?.ok) throw new Error(`sync pass failed: ${result?.error ?? 'no archive'}`);
    added += result.added;
    if (result.added === 0 && result.updated === 0) break;
  }
  const syncSeconds = (performance.now() - syncStarted) / 1000;
  const count = await db.$count(studies, eq(studies.organisationId, organisation.id));

  // 2. Latency through the job chain to an open worklist.
  const session = await issueSession(app.identity.context, admin, 'password', {
    ip: '127.0.0.1',
    userAgent: 'bench',
  });
  const socket = io(url, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    auth: { token: session.body.id_token },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  await socket.emitWithAck(LISTEN_TOPIC_EVENT, { topic: 'worklist' });
  const arrivals = new Map<string, number>();
  socket.on(REALTIME_MESSAGE_EVENT, (message: TRealtimeMessage) => {
    if (message.type !== 'worklist-status-update' || message.data.action !== 'upsert') return;
    const item = message.data.item as { study_uid?: unknown };
    if (typeof item.study_uid === 'string' && !arrivals.has(item.study_uid))
      arrivals.set(item.study_uid, performance.now());
  });
  await ensureSyncChains(db, { archiveId: archive.id });
  const latencies: number[] = [];
  for (let sample = 0; sample < SAMPLES; sample += 1) {
    const study = syntheticStudy({
      patientName: `Latency^${sample}`,
      patientId: `MRN-L${sample}`,
      modalities: ['MR'],
      instancesPerSeries: 3,
      institutionName: 'Bench Hospital',
      size: 32,
    });
    await uploadInstances(orthanc, study.instances);
    const lookup = await fetch(`${orthanc.restUrl}/tools/lookup`, {
      method: 'POST',
      headers: { authorization: orthanc.authorization },
      body: study.studyUid,
    });
    const [{ ID: orthancId } = { ID: '' }] = (await lookup.json()) as { ID: string }[];
    let stableAt = 0;
    while (!stableAt) {
      const state = (await (
        await fetch(`${orthanc.restUrl}/studies/${orthancId}`, {
          headers: { authorization: orthanc.authorization },
        })
      ).json()) as { IsStable: boolean };
      if (state.IsStable) stableAt = performance.now();
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const deadline = performance.now() + 30_000;
    while (!arrivals.has(study.studyUid) && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const arrivedAt = arrivals.get(study.studyUid);
    if (arrivedAt === undefined)
      throw new Error(`study ${study.studyUid} did not reach the worklist in 30 s`);
    latencies.push(Math.max(0, arrivedAt - stableAt));
  }
  socket.close();
  await app.close();

  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  console.log(
    `PACS bench (${DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, Orthanc 1.10 on 127.0.0.1; load ${load}; ${os.cpus().length} cores)`,
  );
  console.log(`| measure | value |\n|---|---|`);
  console.log(
    `| studies stored in Orthanc (2 series × 2 instances) | ${STUDIES} in ${uploadSeconds.toFixed(1)} s |`,
  );
  console.log(`| catch-up sync: items created | ${count} |`);
  console.log(
    `| catch-up sync throughput | ${(added / syncSeconds).toFixed(1)} studies/s (${syncSeconds.toFixed(1)} s) |`,
  );
  console.log(
    `| stable → on an open worklist, p50 / p95 / max (${SAMPLES} studies, poll 1 s) | ${percentile(latencies, 50).toFixed(0)} / ${percentile(latencies, 95).toFixed(0)} / ${Math.max(...latencies).toFixed(0)} ms |`,
  );
} finally {
  await database.close();
  await orthanc.stop();
  await rm(dataDir, { recursive: true, force: true });
  if (ADMIN_URL) await adminStatement(`drop database if exists ${DB_NAME} with (force)`);
}
