// Two built servers (apps/server/dist) as real processes on one fresh PostgreSQL database and one
// Redis, with the same AUTH_TOKEN_SECRET and a shared file store, behind the round-robin balancer:
// what a scaled deployment runs. Both start at once (migrations and the demo seed take a database
// lock, so one of them does the work and the other finds it done).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startRoundRobinProxy, type TRoundRobinProxy } from './round-robin-proxy.ts';
import { createDatabase, startE2eServer, type TE2eServer } from './server.ts';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export type TReplicaWorld = {
  a: TE2eServer;
  b: TE2eServer;
  proxy: TRoundRobinProxy;
  databaseUrl: string;
  close(): Promise<void>;
};

/** env: settings of both replicas (on top of the shared ones). Needs TEST_DATABASE_URL. */
export async function startReplicaWorld(env: Record<string, string> = {}): Promise<TReplicaWorld> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('the replica test needs TEST_DATABASE_URL (a PostgreSQL server)');
  const database = await createDatabase(adminUrl);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ris-replicas-'));
  // The balancer first: its URL is every replica's PUBLIC_URL (the tokens' issuer, links in e-mails).
  const proxy = await startRoundRobinProxy();
  const shared = {
    PUBLIC_URL: proxy.url,
    REDIS_URL: TEST_REDIS_URL,
    AUTH_TOKEN_SECRET: `replicas-${path.basename(dataDir)}-0123456789abcdef0123456789`,
    JOBS_ENABLED: 'true',
    RIS_SEED_DEMO: 'true',
    TRUST_PROXY: 'true',
    ...env,
  };
  const started = await Promise.allSettled(
    [0, 1].map(() => startE2eServer({ databaseUrl: database.url, dataDir, env: shared })),
  );
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const [a, b] = servers;
  if (!a || !b) {
    await proxy.close();
    await Promise.all(servers.map((server) => server.close()));
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
    const failure = started.find((result) => result.status === 'rejected');
    throw failure?.status === 'rejected' ? failure.reason : new Error('a replica did not start');
  }
  proxy.route([a.url, b.url]);
  return {
    a,
    b,
    proxy,
    databaseUrl: database.url,
    async close() {
      await proxy.close();
      await Promise.all([a.close(), b.close()]);
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resolves once `check` returns a value other than undefined; throws after the deadline. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
