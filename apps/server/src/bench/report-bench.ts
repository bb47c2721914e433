// Report save benchmark, in-process (app.inject: server-side latency without a network): PUT
// /worklist/report/{id} with a ~2-page report whose text changes on every save (sanitise, version
// check, new version row, report row), sequentially and with 8 writers on 8 reports at once; and
// GET /worklist/{id}/report. PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set (database
// ris_bench_report, dropped after), else an in-memory-like PGlite in a temporary directory.
// Run: node apps/server/dist/bench/report-bench.js  (after npm run build). Prints a table.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { issueSession } from '../auth/sign-in.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, type TDatabase } from '../db/client.ts';
import { openDatabaseFast } from '../db/pglite-snapshot.ts';
import { runMigrations } from '../db/migrate.ts';
import * as t from '../db/schema/index.ts';
import { LocalDiskBlobStore } from '../files/local-disk-store.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 400);
const WRITERS = 8;
const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const DB_NAME = 'ris_bench_report';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
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

/** About two printed pages: headings, paragraphs, a list and a table. */
function reportHtml(revision: number): string {
  const paragraph =
    '<p>The lungs are clear without focal consolidation, effusion or pneumothorax. The cardiomediastinal silhouette is within normal limits. No acute osseous abnormality is seen in the visualised skeleton.</p>';
  const rows = Array.from(
    { length: 8 },
    (_, i) => `<tr><td>Segment ${i + 1}</td><td>${(12.5 + i).toFixed(1)} mm</td><td>stable</td></tr>`,
  ).join('');
  return [
    '<h2 style="text-align: center">CT CHEST WITH CONTRAST</h2>',
    '<h3>Clinical history</h3><p>Cough for three weeks; follow-up of a known nodule.</p>',
    '<h3>Findings</h3>',
    ...Array.from({ length: 14 }, () => paragraph),
    `<table><tbody><tr><th>Site</th><th>Size</th><th>Change</th></tr>${rows}</tbody></table>`,
    '<ul><li><p>No lymphadenopathy.</p></li><li><p>No pleural effusion.</p></li></ul>',
    `<h3>Impression</h3><p>Stable appearances (revision ${revision}).</p>`,
  ].join('');
}

async function openBenchDatabase(dataDir: string): Promise<{ database: TDatabase; engine: string }> {
  if (!baseUrl) {
    const database = await openDatabaseFast({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
    return { database, engine: 'PGlite' };
  }
  await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DB_NAME}`);
  const url = new URL(baseUrl);
  url.pathname = `/${DB_NAME}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 10 });
  return { database, engine: 'PostgreSQL' };
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ris-report-bench-'));
const { database, engine } = await openBenchDatabase(dataDir);
try {
  await runMigrations(database);
  const db = database.db;
  const [organisation] = await db
    .insert(t.organisations)
    .values({ name: 'Bench', slug: 'bench' })
    .returning();
  if (!organisation) throw new Error('no organisation');
  const [facility] = await db
    .insert(t.facilities)
    .values({ organisationId: organisation.id, name: 'Bench Facility', code: 'BENCH' })
    .returning();
  if (!facility) throw new Error('no facility');
  const [radiologist] = await db
    .insert(t.users)
    .values({
      email: 'rad@bench.test',
      role: 'RADIOLOGIST',
      organisationId: organisation.id,
      displayName: 'Dr Bench',
    })
    .returning();
  if (!radiologist) throw new Error('no user');
  const radiologistId = radiologist.id;
  await db.insert(t.radiologistDetails).values({ userId: radiologistId });
  await db.insert(t.userFacilities).values({ userId: radiologist.id, facilityId: facility.id });
  const [patient] = await db
    .insert(t.patients)
    .values({
      organisationId: organisation.id,
      facilityId: facility.id,
      patientIdentifier: 'B1',
      name: 'Bench Patient',
    })
    .returning();
  if (!patient) throw new Error('no patient');
  const studyIds: string[] = [];
  for (let i = 0; i < WRITERS; i++) {
    const [study] = await db
      .insert(t.studies)
      .values({
        organisationId: organisation.id,
        facilityId: facility.id,
        patientId: patient.id,
        accessionNumber: `BENCH${i}`,
        studyUid: `1.2.3.${i}`,
        patientName: patient.name,
        status: 'ASSIGNED',
        lastAssignedUserId: radiologist.id,
      })
      .returning();
    if (!study) throw new Error('no study');
    studyIds.push(study.id);
  }

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
  const [row] = await db.select().from(t.users).where(eq(t.users.id, radiologist.id));
  if (!row) throw new Error('no user row');
  const session = await issueSession(app.identity.context, row, 'password', {
    ip: '127.0.0.1',
    userAgent: 'bench',
  });
  const headers = { authorization: `Bearer ${session.body.id_token}` };

  const reports: { id: string; version: number }[] = [];
  for (const studyId of studyIds) {
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/worklist/report',
      headers,
      payload: { worklist_id: studyId, content: reportHtml(0), by_user_id: radiologistId },
    });
    if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode} ${created.body}`);
    const report = created.json<{ id: string; version: number }>();
    reports.push({ id: report.id, version: report.version });
  }

  let revision = 1;
  async function save(report: { id: string; version: number }): Promise<number> {
    const started = performance.now();
    const response = await app.inject({
      method: 'PUT',
      url: `/api/v1/worklist/report/${report.id}`,
      headers,
      payload: { content: reportHtml(revision++), version: report.version, by_user_id: radiologistId },
    });
    const elapsed = performance.now() - started;
    if (response.statusCode !== 200) throw new Error(`save: ${response.statusCode} ${response.body}`);
    report.version = response.json<{ version: number }>().version;
    return elapsed;
  }

  const first = reports[0];
  if (!first) throw new Error('no report');
  for (let i = 0; i < 50; i++) await save(first);
  const sequential: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) sequential.push(await save(first));

  const concurrent: number[] = [];
  const concurrentStarted = performance.now();
  await Promise.all(
    reports.map(async (report) => {
      for (let i = 0; i < ITERATIONS / WRITERS; i++) concurrent.push(await save(report));
    }),
  );
  const concurrentSeconds = (performance.now() - concurrentStarted) / 1000;

  const reads: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const started = performance.now();
    const response = await app.inject({
      method: 'GET',
      url: `/api/v1/worklist/${studyIds[0]}/report`,
      headers,
    });
    reads.push(performance.now() - started);
    if (response.statusCode !== 200) throw new Error(`read: ${response.statusCode}`);
  }
  await app.close();

  const ms = (value: number) => value.toFixed(1).padStart(6);
  const bytes = Buffer.byteLength(reportHtml(1));
  process.stdout.write(
    `\nReporting on ${engine}, in-process, report of ${(bytes / 1024).toFixed(1)} KB HTML\n`,
  );
  process.stdout.write('| Operation                                  | p50 ms | p99 ms |\n');
  process.stdout.write('| ------------------------------------------ | -----: | -----: |\n');
  process.stdout.write(
    `| PUT /worklist/report/{id}, sequential      | ${ms(percentile(sequential, 50))} | ${ms(percentile(sequential, 99))} |\n`,
  );
  process.stdout.write(
    `| PUT /worklist/report/{id}, ${WRITERS} writers at once | ${ms(percentile(concurrent, 50))} | ${ms(percentile(concurrent, 99))} |\n`,
  );
  process.stdout.write(
    `| GET /worklist/{id}/report                  | ${ms(percentile(reads, 50))} | ${ms(percentile(reads, 99))} |\n`,
  );
  process.stdout.write(
    `Saves with ${WRITERS} writers: ${(concurrent.length / concurrentSeconds).toFixed(0)} per second\n`,
  );
} finally {
  await database.close();
  if (baseUrl) await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await rm(dataDir, { recursive: true, force: true });
}
