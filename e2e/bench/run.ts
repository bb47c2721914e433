// `npm run bench`: the benchmarks that exist, printed as a table. Copy the figures, with the machine
// line, into BENCHMARKS.md. Start-up is measured as a person sees it: process spawn → /readyz 200.
// BENCH_LOAD=1 measures start-up again with one core kept busy (a spinning process, stopped after),
// as on a shared machine; the page weight needs Chromium (skipped without one).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findChromium } from '../support/chromium.ts';
import { startE2eServer } from '../support/server.ts';
import { measurePageWeight } from './page-weight.ts';

type TRow = { benchmark: string; runs: number; median: number; min: number; max: number };

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

function summarise(benchmark: string, samples: number[]): TRow {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  return {
    benchmark,
    runs: samples.length,
    median,
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

async function startupSamples(kind: 'first' | 'warm' | 'seeded-first', embedded: boolean): Promise<number[]> {
  const samples: number[] = [];
  const shared = kind === 'warm' ? await mkdtemp(path.join(os.tmpdir(), 'ris-bench-')) : undefined;
  const seed = kind === 'seeded-first' ? 'true' : 'false';
  if (shared)
    await (await startE2eServer({ dataDir: shared, embedded, env: { RIS_SEED_DEMO: seed } })).close();
  for (let run = 0; run < RUNS; run += 1) {
    const server = await startE2eServer({ dataDir: shared, embedded, env: { RIS_SEED_DEMO: seed } });
    samples.push(server.readyAfterMs);
    await server.close();
  }
  if (shared) await rm(shared, { recursive: true, force: true });
  return samples;
}

/** Runs `work` with one core busy; the spinner also ends itself after 10 minutes whatever happens. */
async function underLoad<T>(work: () => Promise<T>): Promise<T> {
  const spinner = spawn(process.execPath, ['-e', 'setTimeout(() => process.exit(), 600_000); for (;;) {}'], {
    stdio: 'ignore',
  });
  try {
    return await work();
  } finally {
    spinner.kill('SIGKILL');
  }
}

async function startupRows(suffix: string): Promise<TRow[]> {
  return [
    summarise(`start-up, PGlite, existing data dir${suffix} (ms)`, await startupSamples('warm', true)),
    summarise(`start-up, PGlite, new data dir, no seed${suffix} (ms)`, await startupSamples('first', true)),
    summarise(
      `start-up, PGlite, new data dir + demo seed${suffix} (ms)`,
      await startupSamples('seeded-first', true),
    ),
  ];
}

const loadBefore = os.loadavg()[0] ?? 0;
const rows: TRow[] = [];
rows.push(...(await startupRows('')));
if (process.env.BENCH_LOAD === '1') rows.push(...(await underLoad(() => startupRows(', one core busy'))));
if (process.env.TEST_DATABASE_URL) {
  rows.push(summarise('start-up, PostgreSQL, new database (ms)', await startupSamples('first', false)));
}

const pageWeights = findChromium() ? await measurePageWeight() : [];

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const load = `load average ${loadBefore.toFixed(2)} before, ${(os.loadavg()[0] ?? 0).toFixed(2)} after`;
console.log(
  `\nMachine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${load}`,
);
console.log('| benchmark | runs | median | min | max |');
console.log('|---|---:|---:|---:|---:|');
for (const row of rows) {
  const f = (value: number) => value.toFixed(0);
  console.log(`| ${row.benchmark} | ${row.runs} | ${f(row.median)} | ${f(row.min)} | ${f(row.max)} |`);
}
if (pageWeights.length > 0) {
  console.log('\n| screen | scripts | JavaScript, gzipped (KB) |');
  console.log('|---|---:|---:|');
  for (const weight of pageWeights)
    console.log(`| ${weight.screen} | ${weight.scripts} | ${weight.gzipKb} |`);
} else {
  console.log('\npage weight: skipped: no Chromium');
}
