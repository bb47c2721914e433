#!/usr/bin/env node
// CI's check of what the container image runs (the image itself cannot be built on a machine
// without a Docker daemon): the production install that scripts/stage-production.mjs makes, as the
// Dockerfile does, into an empty folder, started the way the image starts it — NODE_ENV=production,
// `node apps/server/dist/main.js`, PostgreSQL, Redis, secrets as `*_FILE` — must answer /readyz, serve
// the sign-in page and the API, and stop cleanly on SIGTERM. It prints the cold start to ready time,
// a restart's, and the staged folder's size (what the image adds to node:24-bookworm-slim).
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres TEST_REDIS_URL=redis://127.0.0.1:6379 \
//     node_modules/.bin/node scripts/check-production-install.mjs
//
// The database is created for the check and dropped after it; the folder is removed.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { jwtVerify } from 'jose';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;

function fail(message) {
  throw new Error(message);
}

function log(message) {
  process.stdout.write(`[production-install] ${message}\n`);
}

const adminUrl = process.env.TEST_DATABASE_URL || fail('TEST_DATABASE_URL (an admin connection) is required');
const redisUrl = process.env.TEST_REDIS_URL || fail('TEST_REDIS_URL is required');
if (Number(process.versions.node.split('.')[0]) !== 24) {
  fail(`run with Node 24, the image's (node_modules/.bin/node), not ${process.version}`);
}

/** Bytes of every file under a folder (what its copy adds to an image layer). */
function folderBytes(folder) {
  let total = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isDirectory()) total += lstatSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function withAdmin(run) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A started server process; `output` keeps what it printed, for the failure message. */
function startServer(cwd, env) {
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = { child, output: '', exit: null, ready: null };
  let pending = '';
  child.stdout.on('data', (chunk) => {
    server.output = (server.output + chunk.toString()).slice(-20_000);
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      // The server's own account of its start-up (start.ts logs it with the phases' end times).
      if (line.startsWith('{') && line.includes('"msg":"ready"')) server.ready = JSON.parse(line);
    }
  });
  child.stderr.on('data', (chunk) => (server.output = (server.output + chunk.toString()).slice(-20_000)));
  server.exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve((server.exit = { code, signal }))),
  );
  return server;
}

/** Polls /readyz until it answers 200; the milliseconds since `startedAt`. */
async function waitReady(server, baseUrl, startedAt) {
  const deadline = startedAt + READY_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if (server.exit) fail(`the server exited (${JSON.stringify(server.exit)}) before it was ready`);
    const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) }).catch(
      () => null,
    );
    if (response?.status === 200) return Math.round(performance.now() - startedAt);
    await response?.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return fail(`/readyz did not answer 200 within ${READY_TIMEOUT_MS} ms`);
}

async function stopServer(server) {
  if (server.exit) return server.exit;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  const exit = await server.exited;
  clearTimeout(timer);
  return exit;
}

async function expectStatus(response, status, what) {
  if (response.status !== status) fail(`${what}: ${response.status} ${await response.text()}`);
  return response;
}

/** The sign-in page, a demo admin's sign-in (its ID token signed with the secret from the file) and an API call. */
async function exerciseApp(baseUrl, tokenSecret, password) {
  const page = await expectStatus(await fetch(`${baseUrl}/sign-in`), 200, 'GET /sign-in');
  const html = await page.text();
  if (!html.includes('<div id="root">') || !html.includes('/assets/'))
    fail('GET /sign-in: not the built web app');
  const signIn = await expectStatus(
    await fetch(`${baseUrl}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@demo.test', password }),
    }),
    200,
    'POST /api/v1/auth/sign-in',
  );
  const { id_token: idToken } = await signIn.json();
  await jwtVerify(idToken, new TextEncoder().encode(tokenSecret)).catch((error) =>
    fail(`the ID token is not signed with AUTH_TOKEN_SECRET_FILE's secret (${error.message})`),
  );
  const users = await expectStatus(
    await fetch(`${baseUrl}/api/v1/user?limit=50`, { headers: { authorization: `Bearer ${idToken}` } }),
    200,
    'GET /api/v1/user',
  );
  const body = await users.json();
  if (!body.items.some((user) => user.email === 'radiologist@demo.test'))
    fail('GET /api/v1/user: no demo radiologist');
}

/**
 * The README's first step of a real group in a container: the organisation:create CLI of the image,
 * whose one-time link lets the new administrator choose a password and sign in.
 */
async function createOrganisation(cwd, env, baseUrl) {
  const email = `lead-${randomBytes(3).toString('hex')}@check.example`;
  const output = execFileSync(
    process.execPath,
    [
      'apps/server/dist/ops/setup/create-organisation-cli.js',
      ...['--organisation', 'Check Imaging', '--email', email, '--first-name', 'Asha', '--last-name', 'Rao'],
    ],
    { cwd, env: { ...env, LOG_LEVEL: 'warn' }, encoding: 'utf8' },
  );
  const token = /forgot-password\?token=([A-Za-z0-9_-]+)/.exec(output)?.[1];
  if (!token) fail(`organisation:create printed no link: ${output}`);
  const password = randomBytes(12).toString('base64url');
  await expectStatus(
    await fetch(`${baseUrl}/api/v1/auth/password-reset/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password }),
    }),
    200,
    "POST /api/v1/auth/password-reset/confirm (the new administrator's link)",
  );
  await expectStatus(
    await fetch(`${baseUrl}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    }),
    200,
    'POST /api/v1/auth/sign-in (the new administrator)',
  );
}

// In memory where the machine has a tmpfs: writing and deleting the install's ~35,000 files on this
// CI machine's ext4 (mounted with `discard`) took 90 s more than the whole check takes in /dev/shm.
const scratch = existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
const work = mkdtempSync(path.join(scratch, 'ris-production-'));
const app = path.join(work, 'app');
const database = `ris_production_check_${process.pid}_${randomBytes(3).toString('hex')}`;
let databaseCreated = false;
let server = null;
let cleaned = null;
/** Stops the server, drops the database and removes the folder, once (the end, or a signal). */
function cleanUp() {
  cleaned ??= (async () => {
    if (server) await stopServer(server);
    if (databaseCreated)
      await withAdmin((client) => client.query(`DROP DATABASE "${database}" WITH (FORCE)`));
    rmSync(work, { recursive: true, force: true });
  })();
  return cleaned;
}
// Interrupted (Ctrl-C, CI's time-out): nothing left behind either, the ~470 MB folder in memory
// (/dev/shm) and a running server above all.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.once(signal, () => {
    process.stderr.write(`[production-install] ${signal}: cleaning up\n`);
    cleanUp().finally(() => process.exit(code));
  });
}
try {
  const stagedAt = performance.now();
  execFileSync(process.execPath, [path.join(root, 'scripts', 'stage-production.mjs'), app], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stageSeconds = ((performance.now() - stagedAt) / 1000).toFixed(1);
  const stagedMb = (folderBytes(app) / 1e6).toFixed(0);
  const modulesMb = (folderBytes(path.join(app, 'node_modules')) / 1e6).toFixed(0);

  await withAdmin((client) => client.query(`CREATE DATABASE "${database}"`));
  databaseCreated = true;
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;
  const secrets = path.join(work, 'secrets');
  mkdirSync(secrets, { mode: 0o700 });
  const tokenSecret = randomBytes(32).toString('hex');
  const password = randomBytes(12).toString('base64url');
  for (const [name, value] of [
    ['auth_token_secret', tokenSecret],
    ['database_url', databaseUrl.href],
    ['demo_password', password],
  ]) {
    writeFileSync(path.join(secrets, name), `${value}\n`, { mode: 0o600 });
  }
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // Only what the image's environment holds: nothing of this shell's (TEST_*, npm_*) leaks in.
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    DATA_DIR: path.join(work, 'data'),
    DATABASE_URL_FILE: path.join(secrets, 'database_url'),
    AUTH_TOKEN_SECRET_FILE: path.join(secrets, 'auth_token_secret'),
    RIS_DEMO_PASSWORD_FILE: path.join(secrets, 'demo_password'),
    RIS_SEED_DEMO: 'true',
    REDIS_URL: redisUrl,
    LOG_LEVEL: 'info',
  };

  let startedAt = performance.now();
  server = startServer(app, env);
  const coldMs = await waitReady(server, baseUrl, startedAt);
  const coldPhases = server.ready?.startup_phases;
  await exerciseApp(baseUrl, tokenSecret, password);
  let exit = await stopServer(server);
  if (exit.code !== 0) fail(`SIGTERM: the server exited with ${JSON.stringify(exit)}`);

  startedAt = performance.now();
  server = startServer(app, env);
  const restartMs = await waitReady(server, baseUrl, startedAt);
  await createOrganisation(app, env, baseUrl);
  exit = await stopServer(server);
  if (exit.code !== 0) fail(`SIGTERM: the server exited with ${JSON.stringify(exit)}`);
  server = null;

  log(`staged in ${stageSeconds} s: ${stagedMb} MB (node_modules ${modulesMb} MB)`);
  log(
    `cold start to ready (empty database: migrations, demo seed): ${coldMs} ms ` +
      `(phases ended at, ms since process start: ${JSON.stringify(coldPhases)}); restart: ${restartMs} ms`,
  );
  log(
    "sign-in page, sign-in (token signed with the secret file), GET /api/v1/user, organisation:create and its administrator's first sign-in, SIGTERM exit 0: OK",
  );
} catch (error) {
  process.stderr.write(
    `[production-install] FAILED: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  if (server) process.stderr.write(`--- server output ---\n${server.output}\n`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
