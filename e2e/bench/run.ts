// `npm run bench`: the benchmarks that exist, printed as a table. Copy the figures, with the machine
// line, into BENCHMARKS.md. Start-up is measured as a person sees it: process spawn → /readyz 200.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startE2eServer } from '../support/server.ts';

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

const rows: TRow[] = [];
rows.push(summarise('start-up, PGlite, existing data dir (ms)', await startupSamples('warm', true)));
rows.push(summarise('start-up, PGlite, new data dir, no seed (ms)', await startupSamples('first', true)));
rows.push(
  summarise('start-up, PGlite, new data dir + demo seed (ms)', await startupSamples('seeded-first', true)),
);
if (process.env.TEST_DATABASE_URL) {
  rows.push(summarise('start-up, PostgreSQL, new database (ms)', await startupSamples('first', false)));
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `\nMachine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
);
console.log('| benchmark | runs | median | min | max |');
console.log('|---|---:|---:|---:|---:|');
for (const row of rows) {
  const f = (value: number) => value.toFixed(0);
  console.log(`| ${row.benchmark} | ${row.runs} | ${f(row.median)} | ${f(row.min)} | ${f(row.max)} |`);
}
