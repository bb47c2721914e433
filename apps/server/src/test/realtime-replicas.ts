// Several server replicas on one database and one Redis, each with its own HTTP server, socket.io
// server, Redis connections and (on PostgreSQL) its own connection pool: what a scaled deployment runs.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { issueSession } from '../auth/sign-in.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, type TDatabase } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { LocalDiskBlobStore } from '../files/local-disk-store.ts';
import { createTestDatabase } from './test-database.ts';

/** Redis of the realtime tests (CI starts one on the default port). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export type TReplica = { url: string; app: FastifyInstance; database: TDatabase };

export type TReplicaSet = {
  replicas: TReplica[];
  /** The first replica's database (rows written here are seen by every replica). */
  database: TDatabase;
  /** A real ID token for the user, issued by the first replica (every replica accepts it). */
  tokenFor(user: { id: string }): Promise<string>;
  close(): Promise<void>;
};

/** env: more settings of every replica (e.g. COLLAB_STORE_DEBOUNCE_MS). */
export async function startReplicas(
  count: number,
  options: { env?: Record<string, string> } = {},
): Promise<TReplicaSet> {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ris-replicas-'));
  const replicas: TReplica[] = [];
  for (let index = 0; index < count; index++) {
    // PostgreSQL: a pool of its own per replica, to the same database. PGlite is one in-process engine.
    const connectionString = database.pool?.options.connectionString;
    const own =
      index === 0 || !connectionString
        ? database
        : await openDatabase({ kind: 'postgres', url: connectionString, poolSize: 4 });
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: path.join(dataDir, String(index)),
      WEB_DIST_DIR: path.join(dataDir, 'web'),
      AUTH_TOKEN_SECRET: 'realtime-replicas-test-secret-0123456789abcdef',
      REDIS_URL: TEST_REDIS_URL,
      ...options.env,
    });
    const app = await buildApp({
      config,
      database: own,
      blobs: new LocalDiskBlobStore(path.join(dataDir, 'files')),
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    replicas.push({ url, app, database: own });
  }

  return {
    replicas,
    database,
    async tokenFor(user) {
      const first = replicas[0];
      if (!first) throw new Error('no replica');
      const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
      if (!row) throw new Error(`no user ${user.id}`);
      const session = await issueSession(first.app.identity.context, row, 'test', {
        ip: '127.0.0.1',
        userAgent: 'test',
      });
      return session.body.id_token;
    },
    async close() {
      for (const replica of replicas) {
        await replica.app.close();
        if (replica.database !== database) await replica.database.close();
      }
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
