// Collaboration benchmark: 10 editors (real Hocuspocus providers, each its own WebSocket and Yjs
// document) on one report, each typing into its own paragraph. Latency = from the local change
// until every other editor has it (issue 5 target: p99 ≤ 50 ms); also the duration of the server's
// stores (Yjs state + HTML + version in one transaction). The editors run in a worker thread (this
// same file), so their Yjs work does not slow the server being measured.
// Run: node apps/server/dist/bench/collab-bench.js (after npm run build), or from the sources:
// npx tsx --conditions=ris-source apps/server/src/bench/collab-bench.ts. Settings: BENCH_EDITORS (10),
// BENCH_EDITS per editor (150), BENCH_INTERVAL_MS between one editor's keystrokes (200),
// BENCH_REDIS_URL=redis://… to run the server with the Hocuspocus Redis extension,
// BENCH_DATABASE_URL=postgres://… to store in PostgreSQL (a scratch database) instead of PGlite.
// Prints a table.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { HocuspocusProvider } from '@hocuspocus/provider';
import { REPORT_FRAGMENT, reportDocumentName } from '@ris/editor';
import { eq } from 'drizzle-orm';
import { Doc, XmlElement, XmlText, type YTextEvent } from 'yjs';

type TEditorsInput = { url: string; reportId: string; tokens: string[]; edits: number; intervalMs: number };
type TFromEditors =
  { type: 'ready' } | { type: 'done'; sent: number[][]; received: Record<string, number[]> };
type TToEditors = { type: 'start' } | { type: 'close' };

/** Absolute high-resolution time, comparable across threads of one process. */
const now = () => performance.timeOrigin + performance.now();
const MARK = /\{(\d+)\.(\d+)\}/g;

/** Worker: the editors. */
async function runEditors(input: TEditorsInput): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('no parent port');
  const count = input.tokens.length;
  const sent: number[][] = input.tokens.map(() => []);
  const received: Record<string, number[]> = {};
  const expected = count * input.edits * (count - 1);
  let receipts = 0;
  const editors = input.tokens.map((token, index) => {
    const document = new Doc();
    const provider = new HocuspocusProvider({
      url: `${input.url.replace(/^http/, 'ws')}/collab`,
      name: reportDocumentName(input.reportId),
      token,
      document,
    });
    const fragment = document.getXmlFragment(REPORT_FRAGMENT);
    fragment.observeDeep((events, transaction) => {
      if (transaction.local) return;
      const at = now();
      for (const event of events) {
        if (!(event.target instanceof XmlText)) continue;
        for (const op of (event as YTextEvent).delta) {
          if (typeof op.insert !== 'string') continue;
          for (const match of op.insert.matchAll(MARK)) {
            (received[`${match[1]}.${match[2]}`] ??= []).push(at);
            receipts++;
          }
        }
      }
      if (receipts === expected) port.postMessage({ type: 'done', sent, received } satisfies TFromEditors);
    });
    const synced = new Promise<void>((resolve, reject) => {
      provider.on('synced', () => resolve());
      provider.on('authenticationFailed', ({ reason }: { reason: string }) => reject(new Error(reason)));
    });
    return { index, document, provider, fragment, synced };
  });
  await Promise.all(editors.map((editor) => editor.synced));
  // Each editor's own paragraph, before measuring.
  for (const editor of editors) {
    const paragraph = new XmlElement('paragraph');
    paragraph.insert(0, [new XmlText(`Editor ${editor.index}: `)]);
    editor.fragment.push([paragraph]);
  }
  const ownText = (index: number) => {
    for (const node of editors[index]?.fragment.toArray() ?? []) {
      const text = node instanceof XmlElement ? node.get(0) : null;
      if (text instanceof XmlText && text.toString().startsWith(`Editor ${index}: `)) return text;
    }
    return null;
  };
  await Promise.all(editors.map((editor) => untilParagraphs(editor.document, count)));
  port.postMessage({ type: 'ready' } satisfies TFromEditors);

  port.on('message', (message: TToEditors) => {
    if (message.type === 'close') {
      for (const editor of editors) editor.provider.destroy();
      setImmediate(() => process.exit(0));
      return;
    }
    for (const editor of editors) {
      let n = 0;
      const type = () => {
        const text = ownText(editor.index);
        if (!text) throw new Error(`editor ${editor.index} lost its paragraph`);
        sent[editor.index]?.push(now());
        text.insert(text.length, `{${editor.index}.${n}} `);
        n++;
        if (n < input.edits) setTimeout(type, input.intervalMs);
      };
      // Staggered starts: the editors do not all type in the same millisecond.
      setTimeout(type, (editor.index * input.intervalMs) / editors.length);
    }
  });
}

/** Resolves once the document has at least `paragraphs` top-level nodes (everyone's paragraph). */
function untilParagraphs(document: Doc, paragraphs: number): Promise<void> {
  const fragment = document.getXmlFragment(REPORT_FRAGMENT);
  return new Promise((resolve) => {
    const check = () => {
      if (fragment.length < paragraphs) return;
      document.off('update', check);
      resolve();
    };
    document.on('update', check);
    check();
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Main: the server, the measurement, the table. */
async function main(): Promise<void> {
  const EDITORS = Number(process.env.BENCH_EDITORS ?? 10);
  const EDITS = Number(process.env.BENCH_EDITS ?? 150);
  const INTERVAL_MS = Number(process.env.BENCH_INTERVAL_MS ?? 200);
  const WARMUP = 10;
  const REDIS_URL = process.env.BENCH_REDIS_URL;
  const DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const BENCH_DB = 'ris_collab_bench';
  const { buildApp } = await import('../app.ts');
  const { issueSession } = await import('../auth/sign-in.ts');
  const { loadConfig } = await import('../config.ts');
  const { runMigrations } = await import('../db/migrate.ts');
  const { openDatabase } = await import('../db/client.ts');
  const { openDatabaseFast } = await import('../db/pglite-snapshot.ts');
  const t = await import('../db/schema/index.ts');
  const { LocalDiskBlobStore } = await import('../files/local-disk-store.ts');

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ris-collab-bench-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    AUTH_TOKEN_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    ...(REDIS_URL ? { REDIS_URL } : {}),
  });
  const { default: pg } = await import('pg');
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  let database;
  if (DATABASE_URL) {
    await admin(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${BENCH_DB}`);
    const url = new URL(DATABASE_URL);
    url.pathname = `/${BENCH_DB}`;
    database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 10 });
  } else {
    database = await openDatabaseFast({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
  }
  try {
    await runMigrations(database);
    const db = database.db;
    const [organisation] = await db
      .insert(t.organisations)
      .values({ name: 'Bench', slug: 'bench' })
      .returning();
    if (!organisation) throw new Error('no organisation');
    const organisationId = organisation.id;
    const [facility] = await db
      .insert(t.facilities)
      .values({ organisationId, name: 'Bench Facility', code: 'BENCH' })
      .returning();
    if (!facility) throw new Error('no facility');
    const people = await db
      .insert(t.users)
      .values(
        Array.from({ length: EDITORS }, (_, i) => ({
          email: `editor-${i}@bench.test`,
          displayName: `Editor ${i}`,
          role: i === 0 ? ('RADIOLOGIST' as const) : ('TRANSCRIPTIONIST' as const),
          organisationId,
        })),
      )
      .returning();
    const radiologist = people[0];
    if (!radiologist) throw new Error('no editors');
    await db.insert(t.radiologistDetails).values({ userId: radiologist.id, userType: 'RADIOLOGIST' });
    await db.insert(t.userFacilities).values(people.map((u) => ({ userId: u.id, facilityId: facility.id })));
    const [patient] = await db
      .insert(t.patients)
      .values({ name: 'Bench Patient', patientIdentifier: 'MRN-B', organisationId, facilityId: facility.id })
      .returning();
    if (!patient) throw new Error('no patient');
    const [study] = await db
      .insert(t.studies)
      .values({
        accessionNumber: 'SMBENCH001',
        patientName: patient.name,
        patientIdentifier: patient.patientIdentifier,
        modality: 'CT',
        modalityGroup: 'CT',
        studyDescription: 'CT Brain Plain',
        organisationId,
        facilityId: facility.id,
        patientId: patient.id,
        status: 'ASSIGNED',
        lastAssignedUserId: radiologist.id,
        collaborationEnabled: true,
      })
      .returning();
    if (!study) throw new Error('no study');
    const [report] = await db
      .insert(t.reports)
      .values({ studyId: study.id, organisationId, content: '<h2>Findings</h2><p></p>' })
      .returning();
    if (!report) throw new Error('no report');

    const app = await buildApp({
      config,
      database,
      blobs: new LocalDiskBlobStore(path.join(dataDir, 'files')),
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const storeMs: number[] = [];
    const started = new Map<string, number>();
    app.collaboration.configuration.extensions.unshift({
      async onStoreDocument({ documentName }) {
        started.set(documentName, performance.now());
      },
    });
    app.collaboration.configuration.extensions.push({
      async afterStoreDocument({ documentName }) {
        storeMs.push(performance.now() - (started.get(documentName) ?? Number.NaN));
      },
    });
    const tokens: string[] = [];
    for (const user of people) {
      const session = await issueSession(app.identity.context, user, 'password', {
        ip: '127.0.0.1',
        userAgent: 'bench',
      });
      tokens.push(session.body.id_token);
    }

    const worker = new Worker(new URL(import.meta.url), {
      workerData: {
        url,
        reportId: report.id,
        tokens,
        edits: EDITS,
        intervalMs: INTERVAL_MS,
      } satisfies TEditorsInput,
    });
    const messages: Record<string, (message: TFromEditors) => void> = {};
    worker.on('message', (message: TFromEditors) => messages[message.type]?.(message));
    worker.on('error', (error) => {
      throw error;
    });
    const next = (type: TFromEditors['type']) =>
      new Promise<TFromEditors>((resolve) => (messages[type] = resolve));
    await next('ready');
    const load: number[] = [];
    const sampler = setInterval(() => load.push(os.loadavg()[0] ?? 0), 1000);
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    const cpu = process.cpuUsage();
    const wall = performance.now();
    const done = next('done');
    worker.postMessage({ type: 'start' } satisfies TToEditors);
    const result = await done;
    const serverCpu = process.cpuUsage(cpu);
    const wallMs = performance.now() - wall;
    clearInterval(sampler);
    loopDelay.disable();
    if (result.type !== 'done') throw new Error('no result');
    const perDelivery: number[] = [];
    const toAll: number[] = [];
    result.sent.forEach((times, editor) => {
      times.forEach((at, n) => {
        if (n < WARMUP) return;
        const latencies = (result.received[`${editor}.${n}`] ?? []).map((r) => r - at);
        perDelivery.push(...latencies);
        toAll.push(Math.max(...latencies));
      });
    });
    worker.postMessage({ type: 'close' } satisfies TToEditors);
    await new Promise((resolve) => worker.once('exit', resolve));
    // The last editor left: the document is stored once more. Then every keystroke must be there.
    await app.close();
    const [stored] = await db.select().from(t.reports).where(eq(t.reports.id, report.id));
    const marks = stored?.content.match(MARK)?.length ?? 0;

    const ms = (value: number) => `${value.toFixed(1)} ms`;
    const edits = EDITORS * EDITS;
    const rows: [string, string][] = [
      [`Editors on one report, keystrokes each (one every ${INTERVAL_MS} ms)`, `${EDITORS} × ${EDITS}`],
      [
        `Propagation per receiving editor, p50 (${perDelivery.length} deliveries)`,
        ms(percentile(perDelivery, 50)),
      ],
      [`Propagation per receiving editor, p99`, ms(percentile(perDelivery, 99))],
      [`Until all ${EDITORS - 1} other editors had it, p50`, ms(percentile(toAll, 50))],
      [`Until all ${EDITORS - 1} other editors had it, p99 (target ≤ 50 ms)`, ms(percentile(toAll, 99))],
      [`Until all other editors had it, max`, ms(Math.max(...toAll))],
      [
        `Stores during the run (debounce 2 s, max 10 s) / store p50`,
        `${storeMs.length} / ${ms(percentile(storeMs, 50))}`,
      ],
      [`Store (Yjs state + HTML + version, one transaction), p99`, ms(percentile(storeMs, 99))],
      [`Keystrokes in the stored HTML after the last editor left`, `${marks} of ${edits}`],
      [
        `Server event-loop delay p99 / max`,
        `${ms(loopDelay.percentile(99) / 1e6)} / ${ms(loopDelay.max / 1e6)}`,
      ],
      [
        `Process CPU per keystroke (server, stores and the editors)`,
        ms((serverCpu.user + serverCpu.system) / 1000 / edits),
      ],
      [
        `Run time / load average (1 min) while measuring, ${os.availableParallelism()} cores`,
        `${(wallMs / 1000).toFixed(1)} s / ${Math.max(...load, 0).toFixed(1)}`,
      ],
    ];
    const width = Math.max(...rows.map(([label]) => label.length));
    const mode = `${DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${REDIS_URL ? 'with the Redis extension' : 'one replica'}`;
    process.stdout.write(
      `\nCollaborative editing (${mode}, editors in a worker thread, Node ${process.version})\n\n`,
    );
    process.stdout.write(
      `| ${'Case'.padEnd(width)} | Result           |\n| ${'-'.repeat(width)} | ---------------: |\n`,
    );
    for (const [label, value] of rows)
      process.stdout.write(`| ${label.padEnd(width)} | ${value.padStart(16)} |\n`);
    process.stdout.write('\n');
    if (marks !== edits) process.exitCode = 1;
  } finally {
    await database.close();
    if (DATABASE_URL) await admin(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (isMainThread) await main();
else await runEditors(workerData as TEditorsInput);
