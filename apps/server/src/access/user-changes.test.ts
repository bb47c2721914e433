import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVOCATION_CHANNEL } from '../auth/revocation.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { watchUserChanges } from './user-changes.ts';

let server: TTestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

function recorder() {
  const changed: string[] = [];
  let resyncs = 0;
  return {
    changed,
    resyncs: () => resyncs,
    handlers: { changed: (userId: string) => changed.push(userId), resync: () => void resyncs++ },
  };
}

describe('watchUserChanges', () => {
  it('hears a NOTIFY on the revocation channel (as from another replica), without a resync', async () => {
    const seen = recorder();
    const witness = recorder();
    const stop = await watchUserChanges(server.database, seen.handlers, server.app.log);
    const stopWitness = await watchUserChanges(server.database, witness.handlers, server.app.log);
    try {
      await server.db.execute(sql`SELECT pg_notify(${REVOCATION_CHANNEL}, 'user-1')`);
      await expect.poll(() => seen.changed).toEqual(['user-1']);
      expect(seen.resyncs()).toBe(0);
      await stop();
      // Stopped: hears nothing more. The witness, still listening, proves the notification went out.
      await server.db.execute(sql`SELECT pg_notify(${REVOCATION_CHANNEL}, 'user-2')`);
      await expect.poll(() => witness.changed).toContain('user-2');
      expect(seen.changed).toEqual(['user-1']);
    } finally {
      await stopWitness();
    }
  });

  // PostgreSQL only (CI runs it): PGlite has one in-process connection, nothing to lose or race.
  if (process.env.TEST_DATABASE_URL) {
    it('reconnects when the LISTEN connection is lost and asks for a resync', async () => {
      const seen = recorder();
      const stop = await watchUserChanges(server.database, seen.handlers, server.app.log);
      try {
        await server.db.execute(sql`
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = 'ris-realtime-listen' AND datname = current_database()`);
        await expect.poll(() => seen.resyncs(), { timeout: 5000 }).toBeGreaterThan(0);
        await server.db.execute(sql`SELECT pg_notify(${REVOCATION_CHANNEL}, 'user-3')`);
        await expect.poll(() => seen.changed).toContain('user-3');
      } finally {
        await stop();
      }
    });
  }
});
