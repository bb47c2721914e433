// The worklist bench's filter matrix (issue 15; BENCH_MATRIX=1): each filter alone and with each date range, as
// an admin, a radiologist at 5 facilities and a reporter, one request after another over HTTP to the bench
// server's process (BENCH_MATRIX_TRANSPORT=inject: in-process; worklist-bench-transport.ts), count cache off.
// Each row: p50 / p99 of GET /worklist (limit 25) and /worklist/status/count as the client and the server
// (Server-Timing) saw them, the exact total, and PostgreSQL backends' CPU per request (/proc/<pid>/schedstat,
// else /proc/<pid>/stat ticks). BENCH_MATRIX_ITERATIONS (200) requests after BENCH_MATRIX_WARMUP (5), at most
// BENCH_MATRIX_ROW_SECONDS (20) per row and endpoint; BENCH_MATRIX_ONLY=word,word keeps the rows whose name
// holds a word ("admin", "30 days"). BENCH_MATRIX_MODES=off,on,off+writes,on+writes (default off): count cache
// off or on, with BENCH_MATRIX_WRITES_PER_SECOND (10) priority changes a second through the API (each
// announced, evicting the cache, appended to the rollup). BENCH_MATRIX_EXPLAIN=1 adds EXPLAIN (ANALYZE,
// BUFFERS) of each row's statements (worklist-bench-explain.ts; full plans to BENCH_MATRIX_EXPLAIN_FILE).
import { existsSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { percentile } from './bench-support.ts';
import { explain, statementsOf, type TExplained } from './worklist-bench-explain.ts';
import { cpuMs, cpuSpent } from './worklist-bench-http.ts';
import { matrixDates, matrixFilters, type TMatrixCaller } from './worklist-bench-matrix-axes.ts';
import type { TMatrixTransport, TOpenTransport } from './worklist-bench-transport.ts';

const ITERATIONS = Number(process.env.BENCH_MATRIX_ITERATIONS ?? 200);
const WARMUP = Number(process.env.BENCH_MATRIX_WARMUP ?? 5);
const ROW_SECONDS = Number(process.env.BENCH_MATRIX_ROW_SECONDS ?? 20);
const WRITES_PER_SECOND = Number(process.env.BENCH_MATRIX_WRITES_PER_SECOND ?? 10);
const EXPLAIN = process.env.BENCH_MATRIX_EXPLAIN === '1';
const MODES = (process.env.BENCH_MATRIX_MODES ?? 'off').split(',').filter((mode) => mode !== '');

export type TMatrixInput = {
  /** The app in this process: EXPLAIN (BENCH_MATRIX_EXPLAIN) sees the statements it runs. */
  app: FastifyInstance;
  /** The bench database's URL: its backends are listed over a connection of the matrix's own. */
  dbUrl: string;
  callers: readonly TMatrixCaller[];
  /** The radiologist the by_user_ids rows filter by. */
  radiologistId: string;
  /** Opens the requests' way to a server with the count cache off or on, per mode. */
  transport: TOpenTransport;
};

type TMeasure = {
  p50: number;
  p99: number;
  /** The server's own p50 / p99 (its Server-Timing), over HTTP only. */
  server: { p50: number; p99: number } | null;
  n: number;
  total: string;
  pgCpuMs: number | null;
  error?: string;
};

export type TMatrixRow = {
  mode: string;
  caller: string;
  dates: string;
  filter: string;
  list: TMeasure;
  count: TMeasure;
  /** EXPLAIN of what the list and the counts ran (BENCH_MATRIX_EXPLAIN=1, cache-off modes). */
  plans?: { list: TExplained[]; count: TExplained[] };
};

/** CPU ns of one process (schedstat: time on CPU), or null when not readable. */
function schedNs(pid: number): number | null {
  const file = `/proc/${pid}/schedstat`;
  if (!existsSync(file)) return null;
  try {
    return Number(readFileSync(file, 'utf8').split(' ')[0]);
  } catch {
    return null;
  }
}

/** CPU ms of the given processes between two readings, nanosecond-precise where schedstat is there. */
function cpuReader(pids: readonly number[]): () => number | null {
  const before = new Map<number, number>();
  for (const pid of pids) {
    const ns = schedNs(pid);
    if (ns !== null) before.set(pid, ns);
  }
  if (before.size === pids.length && pids.length > 0) {
    return () => {
      let spent = 0;
      for (const [pid, ns] of before) spent += (schedNs(pid) ?? ns) - ns;
      return spent / 1e6;
    };
  }
  const ticks = cpuMs(pids);
  return () => cpuSpent(ticks, cpuMs(pids));
}

/**
 * The database's backends but the one asking: over a client outside the app's pool, since the pool's
 * connection that ran this query would be the very one the next sequential request uses.
 */
async function backends(client: pg.Client): Promise<number[]> {
  const result = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  return result.rows.map((row) => row.pid);
}

async function measure(
  transport: TMatrixTransport,
  client: pg.Client,
  url: string,
  token: string,
): Promise<TMeasure> {
  let total = '';
  for (let i = 0; i < WARMUP; i++) {
    const response = await transport.get(url, token);
    if (response.status !== 200) {
      return { p50: 0, p99: 0, server: null, n: 0, total: '', pgCpuMs: null, error: `${response.status}` };
    }
    if (i === 0) {
      const body = JSON.parse(response.body) as { total?: number; groups?: { ALL: number } };
      total = String(body.total ?? body.groups?.ALL ?? '');
    }
  }
  const readCpu = cpuReader(await backends(client));
  const times: number[] = [];
  const serverTimes: number[] = [];
  const deadline = performance.now() + ROW_SECONDS * 1000;
  while (times.length < ITERATIONS && (times.length < 10 || performance.now() < deadline)) {
    const started = performance.now();
    const response = await transport.get(url, token);
    times.push(performance.now() - started);
    if (response.serverMs !== undefined) serverTimes.push(response.serverMs);
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${response.body}`);
  }
  const spent = readCpu();
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    server:
      serverTimes.length === times.length
        ? { p50: percentile(serverTimes, 50), p99: percentile(serverTimes, 99) }
        : null,
    n: times.length,
    total,
    pgCpuMs: spent === null ? null : spent / times.length,
  };
}

/** Runs `during` while `write` is called `rate` times a second; fails if a write failed. */
async function withWrites<T>(rate: number, write: () => Promise<void>, during: () => Promise<T>): Promise<T> {
  if (rate <= 0) return during();
  let failure: unknown = null;
  const timer = setInterval(() => {
    write().catch((error: unknown) => {
      failure = error;
    });
  }, 1000 / rate);
  let result: T;
  try {
    result = await during();
  } finally {
    clearInterval(timer);
  }
  if (failure) throw new Error(`a write failed during the matrix: ${String(failure)}`);
  return result;
}

/** EXPLAIN of the statements one request runs. */
async function plansOf(input: TMatrixInput, client: pg.Client, url: string, token: string) {
  const statements = await statementsOf(async () => {
    await input.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  });
  const plans: TExplained[] = [];
  for (const statement of statements) plans.push(await explain(client, statement));
  return plans;
}

/**
 * Measures every mode × caller × date × filter row, list then counts; reports progress on stderr.
 */
export async function runMatrix(input: TMatrixInput): Promise<TMatrixRow[]> {
  const only = (process.env.BENCH_MATRIX_ONLY ?? '').split(',').filter((word) => word !== '');
  const rows: TMatrixRow[] = [];
  const dates = matrixDates(new Date());
  const client = new pg.Client({ connectionString: input.dbUrl });
  await client.connect();
  try {
    for (const mode of MODES) {
      const [cache, writes] = mode.split('+');
      const rate = writes === 'writes' ? WRITES_PER_SECOND : 0;
      const transport = await input.transport(cache === 'on');
      try {
        for (const caller of input.callers) {
          for (const date of dates) {
            for (const filter of matrixFilters(caller, input.radiologistId)) {
              const name = `${caller.name} | ${date.name} | ${filter.name}`;
              if (only.length > 0 && !only.some((word) => name.includes(word))) continue;
              const query = ['limit=25', date.query, filter.query].filter((part) => part !== '').join('&');
              const listUrl = `/api/v1/worklist?${query}`;
              const countUrl = `/api/v1/worklist/status/count?${query}`;
              const [list, count] = await withWrites(
                rate,
                () => transport.writeOnce(),
                async () => [
                  await measure(transport, client, listUrl, caller.token),
                  await measure(transport, client, countUrl, caller.token),
                ],
              );
              const row: TMatrixRow = {
                mode,
                caller: caller.name,
                dates: date.name,
                filter: filter.name,
                list,
                count,
              };
              if (EXPLAIN && cache === 'off') {
                row.plans = {
                  list: await plansOf(input, client, listUrl, caller.token),
                  count: await plansOf(input, client, countUrl, caller.token),
                };
              }
              rows.push(row);
              const server = (m: TMeasure) =>
                m.server ? ` (server ${m.server.p50.toFixed(1)}/${m.server.p99.toFixed(1)})` : '';
              process.stderr.write(
                `matrix ${mode} | ${name}: list ${list.p50.toFixed(1)}/${list.p99.toFixed(1)}${server(list)} count ${count.p50.toFixed(1)}/${count.p99.toFixed(1)}${server(count)} ms\n`,
              );
            }
          }
        }
      } finally {
        await transport.close();
      }
    }
  } finally {
    await client.end();
  }
  return rows;
}

const ms = (value: number) => value.toFixed(1);
const cell = (m: TMeasure) => (m.error ? `HTTP ${m.error}` : `${ms(m.p50)} / ${ms(m.p99)}`);
const serverCell = (m: TMeasure) => (m.server ? `${ms(m.server.p50)} / ${ms(m.server.p99)}` : '–');
const cpu = (m: TMeasure) => (m.error || m.pgCpuMs === null ? '–' : m.pgCpuMs.toFixed(2));

/** The matrix as a markdown table, the slowest rows (worse p99 of list and counts) first. */
export function matrixTable(rows: readonly TMatrixRow[]): string {
  const worst = (row: TMatrixRow) => Math.max(row.list.p99, row.count.p99);
  const sorted = [...rows].sort((a, b) => worst(b) - worst(a));
  const lines = [
    '| Mode | Caller | Dates | Filter | Total | List p50 / p99 ms | Counts p50 / p99 ms | Server: list · counts p50 / p99 ms | PG CPU ms/req list · counts | n |',
    '| --- | --- | --- | --- | --: | --: | --: | --: | --: | --: |',
    ...sorted.map(
      (row) =>
        `| ${row.mode} | ${row.caller} | ${row.dates} | ${row.filter} | ${row.list.total || row.count.total} | ${cell(row.list)} | ${cell(row.count)} | ${serverCell(row.list)} · ${serverCell(row.count)} | ${cpu(row.list)} · ${cpu(row.count)} | ${Math.min(row.list.n, row.count.n)} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

const planCell = (plans: readonly TExplained[]) =>
  plans
    .map(
      (plan) => `${plan.executionMs.toFixed(2)} ms, ${plan.buffers} buf, ×${plan.worstEstimate.toFixed(1)}`,
    )
    .join(' + ');

/**
 * The plans of the explained rows: per statement its execution time, shared buffers and the worst
 * estimate error (estimated vs actual rows of one node), worst first; the full plans as text.
 */
export function explainTable(rows: readonly TMatrixRow[]): { table: string; plans: string } {
  const explained = rows.filter((row) => row.plans);
  const worstOf = (row: TMatrixRow) =>
    Math.max(
      1,
      ...[...(row.plans?.list ?? []), ...(row.plans?.count ?? [])].map((plan) => plan.worstEstimate),
    );
  const sorted = [...explained].sort((a, b) => worstOf(b) - worstOf(a));
  const lines = [
    '| Caller | Dates | Filter | List: exec, buffers, worst estimate | Counts: exec, buffers, worst estimate | Worst node |',
    '| --- | --- | --- | --- | --- | --- |',
    ...sorted.map((row) => {
      const all = [...(row.plans?.list ?? []), ...(row.plans?.count ?? [])];
      const worstNode = all.reduce<TExplained | undefined>(
        (a, b) => (a && a.worstEstimate >= b.worstEstimate ? a : b),
        undefined,
      );
      return `| ${row.caller} | ${row.dates} | ${row.filter} | ${planCell(row.plans?.list ?? [])} | ${planCell(row.plans?.count ?? [])} | ${worstNode?.worstNode ?? ''} |`;
    }),
  ];
  const plans = explained
    .map(
      (row) =>
        `## ${row.caller} | ${row.dates} | ${row.filter}\n\n### list\n${(row.plans?.list ?? []).map((plan) => plan.text).join('\n\n')}\n\n### counts\n${(row.plans?.count ?? []).map((plan) => plan.text).join('\n\n')}\n`,
    )
    .join('\n');
  return { table: `${lines.join('\n')}\n`, plans };
}
