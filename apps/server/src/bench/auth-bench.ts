// Identity benchmark, in-process on an in-memory PGlite: sign-in (HTTP through app.inject: argon2id,
// rate-limit bookkeeping, session rows, audit, token) and the cost of checking an ID token.
// Run: node apps/server/dist/bench/auth-bench.js  (after npm run build). Prints a table.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../app.ts';
import { hashPassword } from '../auth/passwords.ts';
import { loadConfig } from '../config.ts';
import { openDatabaseFast } from '../db/pglite-snapshot.ts';
import { runMigrations } from '../db/migrate.ts';
import { facilities, organisations, userFacilities, users } from '../db/schema/index.ts';
import { LocalDiskBlobStore } from '../files/local-disk-store.ts';

const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 40);
const CHECKS = Number(process.env.BENCH_TOKEN_CHECKS ?? 50_000);
const PASSWORD = 'bench-password-1';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function perCheckMicros(run: () => Promise<unknown> | unknown, count: number): Promise<number> {
  for (let i = 0; i < Math.min(2000, count); i++) await run();
  const started = performance.now();
  for (let i = 0; i < count; i++) await run();
  return ((performance.now() - started) * 1000) / count;
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ris-auth-bench-'));
const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
  AUTH_TOKEN_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
});
const database = await openDatabaseFast({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
try {
  await runMigrations(database);
  const [organisation] = await database.db
    .insert(organisations)
    .values({ name: 'Bench', slug: 'bench' })
    .returning();
  if (!organisation) throw new Error('no organisation');
  const [facility] = await database.db
    .insert(facilities)
    .values({ organisationId: organisation.id, name: 'Bench Facility', code: 'BENCH' })
    .returning();
  const [user] = await database.db
    .insert(users)
    .values({
      email: 'bench@example.test',
      passwordHash: await hashPassword(PASSWORD),
      role: 'TRANSCRIPTIONIST',
      organisationId: organisation.id,
    })
    .returning();
  if (!user || !facility) throw new Error('no user');
  await database.db.insert(userFacilities).values({ userId: user.id, facilityId: facility.id });

  const app = await buildApp({
    config,
    database,
    blobs: new LocalDiskBlobStore(path.join(dataDir, 'files')),
  });
  await app.ready();
  const signInTimes: number[] = [];
  let idToken = '';
  for (let i = 0; i < SIGN_INS + 3; i++) {
    const started = performance.now();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/sign-in',
      payload: { email: user.email, password: PASSWORD },
    });
    const elapsed = performance.now() - started;
    if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.body}`);
    idToken = (response.json() as { id_token: string }).id_token;
    if (i >= 3) signInTimes.push(elapsed); // the first ones warm up argon2 and the JIT
  }

  const { tokens } = app.identity.context;
  const verifier = app.identity.verifier;
  await verifier.verify(idToken); // load the user's revocation state once
  const signatureOnly = await perCheckMicros(() => tokens.verify(idToken), CHECKS);
  const fullCheck = await perCheckMicros(() => verifier.verify(idToken), CHECKS);
  const injectTimes: number[] = [];
  for (let i = 0; i < 500; i++) {
    const started = performance.now();
    await app.inject({ method: 'GET', url: '/api/v1/auth/config' });
    injectTimes.push(performance.now() - started);
  }

  const rows: [string, string][] = [
    [`Sign-in over HTTP (app.inject), median of ${SIGN_INS}`, `${median(signInTimes).toFixed(1)} ms`],
    [`ID token check: signature + claims, mean of ${CHECKS}`, `${signatureOnly.toFixed(1)} µs`],
    [`ID token check: + revocation cache (TokenVerifier), mean of ${CHECKS}`, `${fullCheck.toFixed(1)} µs`],
    [
      'For scale: GET /api/v1/auth/config (app.inject), median of 500',
      `${(median(injectTimes) * 1000).toFixed(0)} µs`,
    ],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  process.stdout.write(`\nIdentity (PGlite, in-process, Node ${process.version})\n\n`);
  process.stdout.write(`| ${'Case'.padEnd(width)} | Result    |\n| ${'-'.repeat(width)} | --------: |\n`);
  for (const [label, value] of rows)
    process.stdout.write(`| ${label.padEnd(width)} | ${value.padStart(9)} |\n`);
  process.stdout.write('\n');
  await app.close();
} finally {
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
}
