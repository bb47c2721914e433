import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const serverMain = path.join(repoRoot, 'apps', 'server', 'dist', 'main.js');
export { repoRoot };

export type TE2eServer = {
  url: string;
  databaseUrl: string | null;
  dataDir: string;
  /** Milliseconds from spawning the process to the first 200 from /readyz. */
  readyAfterMs: number;
  /** Everything the process printed so far. */
  output(): string;
  /** Sends SIGTERM, waits for the process to exit, cleans up; resolves to its exit code. */
  close(): Promise<number | null>;
  /** Sends SIGKILL (a crash: no shutdown at all) and waits for the process to be gone. */
  kill(): Promise<void>;
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function createDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `ris_e2e_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** Resolves once GET /readyz answers 200; rejects if the process exits or the deadline passes. */
async function waitForReady(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = child.exitCode !== null;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  while (Date.now() < deadline) {
    if (exited) throw new Error(`server exited before it was ready:\n${output()}`);
    const ready = await fetch(`${url}/readyz`)
      .then((response) => response.status === 200)
      .catch(() => false);
    if (ready) return;
    // Poll again shortly, or at once if the process dies meanwhile.
    await Promise.race([exit, new Promise<void>((resolve) => setTimeout(resolve, 100))]);
  }
  throw new Error(`server not ready within ${timeoutMs} ms:\n${output()}`);
}

/**
 * Starts the built server (apps/server/dist) as a real process on a free port with a fresh database:
 * a new PostgreSQL database when TEST_DATABASE_URL is set, otherwise PGlite in a temporary directory.
 */
export type TE2eServerOptions = {
  env?: Record<string, string>;
  /** Reuse this data directory (kept on close) instead of a fresh temporary one. */
  dataDir?: string;
  /** Force the embedded engine even when TEST_DATABASE_URL is set. */
  embedded?: boolean;
  /** Use this PostgreSQL database (left in place on close) instead of a new one: replicas share it. */
  databaseUrl?: string;
};

export async function startE2eServer(options: TE2eServerOptions = {}): Promise<TE2eServer> {
  const env = options.env ?? {};
  const port = await freePort();
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'ris-e2e-')));
  const adminUrl = options.embedded || options.databaseUrl ? undefined : process.env.TEST_DATABASE_URL;
  const database = adminUrl ? await createDatabase(adminUrl) : null;
  const databaseUrl = options.databaseUrl ?? database?.url;
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [serverMain], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RIS_SEED_DEMO: 'false',
      // No turnaround-breach passes unless a spec asks: a pass would notify people about the demo's
      // overdue studies at a moment no spec controls (a spec that counts notifications then fails).
      TURNAROUND_BREACH_INTERVAL_SECONDS: '0',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const spawnedAt = performance.now();
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  try {
    await waitForReady(url, child, () => log, 60_000);
  } catch (error) {
    child.kill('SIGKILL');
    await database?.drop();
    throw error;
  }
  const readyAfterMs = performance.now() - spawnedAt;
  return {
    url,
    databaseUrl: databaseUrl ?? null,
    dataDir,
    readyAfterMs,
    output: () => log,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      const code = child.exitCode;
      await database?.drop();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
      return code;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
