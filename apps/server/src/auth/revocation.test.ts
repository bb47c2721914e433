import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../test/factories.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { startRevocationListener } from './revocation-listener.ts';
import { REVOCATION_CHANNEL, RevocationCache } from './revocation.ts';
import { resolveTokenSecret, TOKEN_SECRET_FILE } from './token-secret.ts';

let server: TTestServer;
const silent = { warn: () => undefined, info: () => undefined };

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('revocation between replicas', () => {
  it('drops a cached user when a NOTIFY arrives on the channel (as from another replica)', async () => {
    const user = await buildUser(server.db);
    const cache = new RevocationCache(server.db);
    const invalidated = new Promise<string>((resolve) => {
      const invalidate = cache.invalidate.bind(cache);
      cache.invalidate = (userId) => {
        invalidate(userId);
        resolve(userId);
      };
    });
    const stop = await startRevocationListener(server.database, cache, silent);
    try {
      expect(cache.reliable).toBe(true);
      await cache.load(user.id);
      expect(cache.peek(user.id)?.status).toBe('ACTIVE');
      // Only the database notification, not this process's own event.
      await server.db.execute(sql`SELECT pg_notify(${REVOCATION_CHANNEL}, ${user.id})`);
      expect(await invalidated).toBe(user.id);
      expect(cache.peek(user.id)).toBeUndefined();
    } finally {
      await stop();
    }
  });
});

describe('the token secret', () => {
  it('is generated once into DATA_DIR with mode 0600 and reused after a restart', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ris-secret-'));
    try {
      const first = await resolveTokenSecret(null, dir);
      expect(first.source).toBe('generated');
      expect(first.secret.length).toBe(48);
      expect((await stat(path.join(dir, TOKEN_SECRET_FILE))).mode & 0o777).toBe(0o600);
      const again = await resolveTokenSecret(null, dir);
      expect(again.source).toBe('file');
      expect(Buffer.from(again.secret).equals(Buffer.from(first.secret))).toBe(true);
      const configured = await resolveTokenSecret('x'.repeat(32), dir);
      expect(configured.source).toBe('config');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
