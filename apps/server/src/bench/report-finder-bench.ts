// Report finder benchmark on PostgreSQL (runs only with BENCH_DATABASE_URL or TEST_DATABASE_URL):
// creates the database ris_bench_reports (BENCH_DB_NAME), loads the worklist benchmark's studies (100
// facilities over 90 days) with one report each, 1,000,000 by default (BENCH_REPORTS), and measures
// GET /report/search in-process (app.inject, sequential: server-side latency, BENCH_ITERATIONS each)
// for two-word queries within the last month and over all time, with their exact totals, and the
// home summary (GET /home/summary) of an admin and a radiologist on the same data; the search
// index's size per million reports; and the write cost the vector and its index add to a report save.
// Drops the database after (BENCH_KEEP_DB=1 keeps it; BENCH_REUSE_DB=1 measures a kept one again).
// Run: node apps/server/dist/bench/report-finder-bench.js  (after npm run build). Prints tables.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TReportSearchResponse } from '@ris/domain';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { issueSession } from '../auth/sign-in.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, type TDb } from '../db/client.ts';
import { runMigrations } from '../db/migrate.ts';
import { queryRows } from '../db/rows.ts';
import { users } from '../db/schema/index.ts';
import { LocalDiskBlobStore } from '../files/local-disk-store.ts';
import { generateReports } from './report-finder-bench-data.ts';
import { generateWorklistData, loadedBenchIds } from './worklist-bench-data.ts';
import { adminStatement, benchDatabaseName, databaseExists, percentile } from './bench-support.ts';

const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const REPORTS = Number(process.env.BENCH_REPORTS ?? 1_000_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
/** Single-row saves timed per table for the write cost. */
const WRITES = Number(process.env.BENCH_WRITES ?? 2_000);
const DB_NAME = benchDatabaseName('ris_bench_reports');
const TOKEN_SECRET = 'bench-secret-bench-secret-bench-secret-0123';

if (!baseUrl) {
  process.stdout.write('\nReport finder benchmark skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL.\n');
  process.exit(0);
}

const ms = (value: number) => value.toFixed(2).padStart(8);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * The time a report save spends on the vector and its index: the same single-row updates of
 * content_text (an addendum's sentence appended, as addAddendum does) on two copies of the same
 * reports, one with the generated search_vector and its GIN index, one without.
 */
async function writeCost(db: TDb): Promise<{ plain: number[]; searchable: number[]; rows: number }> {
  const rows = Math.max(WRITES, 10_000);
  await db.execute(sql`drop table if exists bench_write_plain, bench_write_searchable`);
  await db.execute(sql`create table bench_write_plain (id uuid primary key, content_text text not null)`);
  await db.execute(sql`create table bench_write_searchable (id uuid primary key, content_text text not null,
    search_vector tsvector generated always as (
      setweight(to_tsvector('public.ris_english'::regconfig, coalesce(content_text, '')), 'A') ||
      setweight(to_tsvector('public.ris_simple'::regconfig, coalesce(content_text, '')), 'B')) stored)`);
  await db.execute(
    sql`create index on bench_write_searchable using gin (search_vector) with (fastupdate = false)`,
  );
  for (const table of ['bench_write_plain', 'bench_write_searchable']) {
    await db.execute(
      sql.raw(`insert into ${table} (id, content_text) select id, content_text from reports limit ${rows}`),
    );
    await db.execute(sql.raw(`vacuum analyze ${table}`));
  }
  const ids = (
    await queryRows<{ id: string }>(db, sql`select id from bench_write_plain limit ${WRITES}`)
  ).map((row) => row.id);
  const timed = async (table: string) => {
    const times: number[] = [];
    for (const id of ids) {
      const started = performance.now();
      await db.execute(
        sql`update ${sql.identifier(table)} set content_text = content_text || ${'\n\nAddendum: the pleural effusion has resolved on the follow-up study.'} where id = ${id}::uuid`,
      );
      times.push(performance.now() - started);
    }
    return times;
  };
  const plain = await timed('bench_write_plain');
  const searchable = await timed('bench_write_searchable');
  await db.execute(sql`drop table bench_write_plain, bench_write_searchable`);
  return { plain, searchable, rows };
}

const dbUrl = new URL(baseUrl);
dbUrl.pathname = `/${DB_NAME}`;
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ris-report-finder-bench-'));
const reuse = process.env.BENCH_REUSE_DB === '1' && (await databaseExists(baseUrl, DB_NAME));
if (!reuse) {
  await adminStatement(baseUrl, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await adminStatement(baseUrl, `CREATE DATABASE ${DB_NAME}`);
}
const database = await openDatabase({ kind: 'postgres', url: dbUrl.toString(), poolSize: 10 });
const out = process.stdout;
try {
  await runMigrations(database);
  const db = database.db;
  const loadStarted = performance.now();
  let ids;
  if (reuse) {
    ids = await loadedBenchIds(db);
  } else {
    ids = await generateWorklistData(db, REPORTS);
    await generateReports(db, ids.organisationId);
  }
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const [counts] = await queryRows<{
    reports: number;
    index_bytes: number;
    vector_bytes: number;
    text_bytes: number;
  }>(
    db,
    sql`select count(*)::int as reports, pg_relation_size('reports_search_vector_idx')::float8 as index_bytes,
      sum(pg_column_size(search_vector))::float8 as vector_bytes, sum(pg_column_size(content_text))::float8 as text_bytes
      from reports`,
  );
  if (!counts) throw new Error('no reports');

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
  const tokenOf = async (userId: string) => {
    const [row] = await db.select().from(users).where(eq(users.id, userId));
    if (!row) throw new Error(`no user ${userId}`);
    const session = await issueSession(app.identity.context, row, 'password', {
      ip: '127.0.0.1',
      userAgent: 'bench',
    });
    return session.body.id_token;
  };
  const adminToken = await tokenOf(ids.adminId);
  const radiologistToken = await tokenOf(ids.radiologistId);
  const month = 'date_range_type=LAST_1_MONTH';
  const week = 'date_range_type=LAST_1_WEEK';
  const allTime = 'date_range_type=CUSTOM';
  const [facility] = await queryRows<{ id: string }>(
    db,
    sql`select id from facilities where organisation_id = ${ids.organisationId}::uuid order by name limit 1`,
  );
  if (!facility) throw new Error('no facility');
  // A facility admin of that facility (added once to a reused database) for the home summary.
  await db.execute(sql`insert into users (email, role, organisation_id, first_name, last_name, display_name)
    select 'facility-admin@bench.test', 'FACILITY_ADMIN', ${ids.organisationId}::uuid, 'Facility', 'Admin', 'Facility Admin'
    where not exists (select 1 from users where email = 'facility-admin@bench.test')`);
  await db.execute(sql`insert into user_facilities (user_id, facility_id)
    select id, ${facility.id}::uuid from users where email = 'facility-admin@bench.test' on conflict do nothing`);
  const [facilityAdmin] = await queryRows<{ id: string }>(
    db,
    sql`select id from users where email = 'facility-admin@bench.test'`,
  );
  if (!facilityAdmin) throw new Error('no facility admin');
  const facilityAdminToken = await tokenOf(facilityAdmin.id);
  const mixes = [
    {
      name: 'admin, "pleural effusion", last month',
      token: adminToken,
      query: `q=pleural+effusion&${month}`,
    },
    {
      name: 'admin, "pleural effusion", all time',
      token: adminToken,
      query: `q=pleural+effusion&${allTime}`,
    },
    { name: 'admin, "renal calculus", last month', token: adminToken, query: `q=renal+calculus&${month}` },
    { name: 'admin, "renal calculus", all time', token: adminToken, query: `q=renal+calculus&${allTime}` },
    {
      name: 'admin, "pleural effusion" by date, all time',
      token: adminToken,
      query: `q=pleural+effusion&sort_by=date&${allTime}`,
    },
    {
      name: 'radiologist (5 facilities), "pleural effusion", all time',
      token: radiologistToken,
      query: `q=pleural+effusion&${allTime}`,
    },
    {
      name: 'admin, phrase "\\"pleural effusion\\"", last month',
      token: adminToken,
      query: `q=%22pleural+effusion%22&${month}`,
    },
    // What people click besides the headline queries: the finder opened (no words), a facility or a
    // modality with words, a radiologist's month, a patient's name with words, a page further on.
    { name: 'admin, no words, last month (the finder opened)', token: adminToken, query: month },
    { name: 'admin, no words, all time', token: adminToken, query: allTime },
    {
      name: 'admin, "pleural effusion", last week, one facility',
      token: adminToken,
      query: `q=pleural+effusion&facility_ids=${facility.id}&${week}`,
    },
    {
      name: 'admin, "renal calculus", last month, modalities=CT',
      token: adminToken,
      query: `q=renal+calculus&modalities=CT&${month}`,
    },
    {
      name: 'radiologist (5 facilities), "renal calculus", last month',
      token: radiologistToken,
      query: `q=renal+calculus&${month}`,
    },
    {
      name: 'admin, patient "smith" + "effusion", all time',
      token: adminToken,
      query: `q=effusion&search=smith&${allTime}`,
    },
    {
      name: 'admin, "pleural effusion" by date, all time, page 6',
      token: adminToken,
      query: `q=pleural+effusion&sort_by=date&offset=100&${allTime}`,
    },
  ];
  /** Sequential server-side times of one GET (after 5 warm-up requests) and its last JSON answer. */
  const timeRequests = async (url: string, token: string) => {
    const headers = { authorization: `Bearer ${token}` };
    for (let warm = 0; warm < 5; warm += 1) await app.inject({ method: 'GET', url, headers });
    const times: number[] = [];
    let body: unknown = null;
    for (let i = 0; i < ITERATIONS; i += 1) {
      const started = performance.now();
      const response = await app.inject({ method: 'GET', url, headers });
      times.push(performance.now() - started);
      if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      body = response.json();
    }
    return { p50: percentile(times, 50), p99: percentile(times, 99), body };
  };
  const results: { name: string; total: string; p50: number; p99: number }[] = [];
  for (const mix of mixes) {
    const timed = await timeRequests(`/api/v1/report/search?${mix.query}`, mix.token);
    const page = timed.body as TReportSearchResponse;
    const total = `${page.total.toLocaleString('en')}${page.total_capped ? '+' : ''}`;
    results.push({ name: mix.name, total, p50: timed.p50, p99: timed.p99 });
  }
  // The home dashboard (issue 16) on the same million studies and reports: the admin's sections
  // (waiting, unassigned, workload, turnaround today and 7 days, breaches) and a radiologist's.
  const homes: { name: string; p50: number; p99: number }[] = [];
  for (const [name, token] of [
    ['admin (organisation: waiting, unassigned, workload, turnaround, breaches)', adminToken],
    ['facility admin (1 facility: the same sections)', facilityAdminToken],
    ['radiologist (5 facilities: queue, drafts, returned, finals today, median week)', radiologistToken],
  ] as const) {
    const timed = await timeRequests('/api/v1/home/summary', token);
    homes.push({ name, p50: timed.p50, p99: timed.p99 });
  }
  await app.close();
  const writes = await writeCost(db);

  const perMillion = (bytes: number) => mb((bytes * 1_000_000) / counts.reports);
  out.write(`\nReport finder: ${counts.reports.toLocaleString('en')} reports over 100 facilities, 90 days`);
  out.write(reuse ? ' (database reused)\n\n' : ` (loaded in ${loadSeconds.toFixed(1)} s)\n\n`);
  out.write(`Server-side latency, app.inject, sequential, ${ITERATIONS} requests each (ms), limit 20:\n\n`);
  out.write(`| query | total | p50 | p99 |\n|---|---:|---:|---:|\n`);
  for (const row of results) {
    out.write(`| ${row.name} | ${row.total} | ${ms(row.p50)} | ${ms(row.p99)} |\n`);
  }
  out.write(`\nHome summary (GET /home/summary), same database, ${ITERATIONS} requests each (ms):\n\n`);
  out.write(`| caller | p50 | p99 |\n|---|---:|---:|\n`);
  for (const row of homes) out.write(`| ${row.name} | ${ms(row.p50)} | ${ms(row.p99)} |\n`);
  out.write(
    `\nSizes (per million reports): GIN index reports_search_vector_idx ${perMillion(counts.index_bytes)}`,
  );
  out.write(
    `, search_vector column ${perMillion(counts.vector_bytes)}, content_text ${perMillion(counts.text_bytes)}\n`,
  );
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  out.write(
    `\nWrite cost of a report save (${WRITES.toLocaleString('en')} single-row content_text updates on copies of ${writes.rows.toLocaleString('en')} reports, autocommit):\n` +
      `  without vector: mean ${mean(writes.plain).toFixed(3)} ms, p99 ${percentile(writes.plain, 99).toFixed(3)} ms\n` +
      `  with vector + GIN: mean ${mean(writes.searchable).toFixed(3)} ms, p99 ${percentile(writes.searchable, 99).toFixed(3)} ms\n` +
      `  added: ${(mean(writes.searchable) - mean(writes.plain)).toFixed(3)} ms a save\n`,
  );
} finally {
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
  if (process.env.BENCH_KEEP_DB !== '1')
    await adminStatement(baseUrl, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
}
