// HTTP throughput for the worklist benchmark: the server in a process of its own
// (worklist-bench-server.ts) and a load generator beside it, wrk (C, one thread: a few percent of a
// core) when installed, else autocannon (Node: it takes most of a core itself). On Linux the CPU time
// each side spent per request is read from /proc, which stays meaningful on a busy machine where
// requests per second do not.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export type TLoadTool = 'wrk' | 'autocannon';

export type TLoadResult = {
  tool: TLoadTool;
  requests: number;
  perSecond: number;
  p99Ms: number;
  non2xx: number;
};

export type TBenchServer = { address: string; pid: number; stop(): Promise<void> };

/** wrk when it runs here (BENCH_HTTP_TOOL forces one), else autocannon. */
export function loadTools(): TLoadTool[] {
  const asked = process.env.BENCH_HTTP_TOOL;
  if (asked === 'both') return ['wrk', 'autocannon'];
  if (asked === 'wrk' || asked === 'autocannon') return [asked];
  return spawnSync('wrk', ['--version']).error ? ['autocannon'] : ['wrk'];
}

/** Starts worklist-bench-server in a child process (same Node flags) and waits for its address. */
export async function startBenchServer(env: Record<string, string>): Promise<TBenchServer> {
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  const script = fileURLToPath(new URL(`./worklist-bench-server.${extension}`, import.meta.url));
  const child = spawn(process.execPath, [...process.execArgv, script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const address = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const match = /^listening (\S+)$/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`bench server exited (${code}) before listening`)));
    child.once('error', reject);
  });
  return { address, pid: child.pid ?? 0, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(output));
  });
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** Parses wrk's --latency report. */
export function parseWrk(output: string): Omit<TLoadResult, 'tool'> {
  const number = (pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? Number.NaN);
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(output);
  return {
    requests: number(/(\d+) requests in/),
    perSecond: number(/Requests\/sec:\s+([\d.]+)/),
    p99Ms: p99 ? Number(p99[1]) * (UNIT_MS[p99[2] ?? 'ms'] ?? 1) : Number.NaN,
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0),
  };
}

type TAutocannonJson = {
  requests: { average: number; total: number };
  latency: { p99: number };
  non2xx: number;
};

/** `connections` keep-alive connections for `seconds` against one URL with the bearer token. */
export async function runLoad(
  tool: TLoadTool,
  url: string,
  token: string,
  seconds: number,
  connections: number,
): Promise<TLoadResult> {
  if (tool === 'wrk') {
    const output = await run('wrk', [
      '-t1',
      `-c${connections}`,
      `-d${seconds}s`,
      '--latency',
      '-H',
      `Authorization: Bearer ${token}`,
      url,
    ]);
    return { tool, ...parseWrk(output) };
  }
  const bin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  const output = await run(process.execPath, [
    bin,
    '-c',
    String(connections),
    '-d',
    String(seconds),
    '-j',
    '-H',
    `authorization=Bearer ${token}`,
    url,
  ]);
  const result = JSON.parse(output) as TAutocannonJson;
  return {
    tool,
    requests: result.requests.total,
    perSecond: result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
  };
}

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

function statFields(pid: number | 'self'): number[] | null {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return null;
  // The fields after the command name (which may hold spaces): index 11 = utime (field 14).
  const fields = readFileSync(file, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return fields.map(Number);
}

/** CPU time (ms, user + system) of each process still running; null where /proc is not there. */
export function cpuMs(pids: readonly number[]): Map<number, number> | null {
  if (!existsSync('/proc/self/stat')) return null;
  const times = new Map<number, number>();
  for (const pid of pids) {
    const fields = statFields(pid);
    if (fields) times.set(pid, ((fields[11] ?? 0) + (fields[12] ?? 0)) * CLOCK_TICK_MS);
  }
  return times;
}

/**
 * CPU ms spent between two cpuMs readings, by the processes in both (a pooled connection closed in
 * between was idle: its share is nil).
 */
export function cpuSpent(
  before: Map<number, number> | null,
  after: Map<number, number> | null,
): number | null {
  if (!before || !after) return null;
  let spent = 0;
  for (const [pid, time] of after) spent += time - (before.get(pid) ?? time);
  return spent;
}

/** CPU time (ms) of this process's waited-for children (the load generator, once it has exited). */
export function childrenCpuMs(): number | null {
  const fields = statFields('self');
  return fields ? ((fields[13] ?? 0) + (fields[14] ?? 0)) * CLOCK_TICK_MS : null;
}
