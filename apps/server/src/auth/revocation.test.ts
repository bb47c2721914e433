import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userFacilities, users } from '../db/schema/index.ts';
import { buildFacility, buildUser } from '../test/factories.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { startRevocationListener } from './revocation-listener.ts';
import {
  announceUserChange,
  onLocalHold,
  onLocalRevocation,
  publishUserChange,
  REVOCATION_CHANNEL,
  RevocationCache,
} from './revocation.ts';
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

  // PostgreSQL only (CI runs it): PGlite has one in-process connection, nothing to lose or race.
  if (process.env.TEST_DATABASE_URL) {
    it('bypasses the cache while the LISTEN connection is down and starts over empty once it is back', async () => {
      const user = await buildUser(server.db);
      const cache = new RevocationCache(server.db);
      const stop = await startRevocationListener(server.database, cache, silent);
      try {
        expect(cache.reliable).toBe(true);
        await cache.load(user.id);
        expect(cache.peek(user.id)?.status).toBe('ACTIVE');
        await server.db.execute(sql`
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = 'ris-revocation-listen' AND datname = current_database()`);
        await expect.poll(() => cache.reliable).toBe(false);
        expect(cache.peek(user.id)).toBeUndefined();
        // Nothing to wait for: requests read the database until LISTEN is back.
        expect(await cache.sync()).toBe(false);
        await expect.poll(() => cache.reliable, { timeout: 5000 }).toBe(true);
        expect(await cache.sync()).toBe(true);
        await cache.load(user.id);
        expect(cache.peek(user.id)?.status).toBe('ACTIVE');
        // Listening again: a NOTIFY still reaches the cache.
        await server.db.execute(sql`SELECT pg_notify(${REVOCATION_CHANNEL}, ${user.id})`);
        await expect.poll(() => cache.peek(user.id)).toBeUndefined();
      } finally {
        await stop();
      }
    });
  }
  it('sync(): what was committed before the call has reached the cache when it resolves, for calls made together', async () => {
    const people = await Promise.all(Array.from({ length: 10 }, () => buildUser(server.db)));
    const cache = new RevocationCache(server.db);
    const stop = await startRevocationListener(server.database, cache, silent);
    try {
      expect(await cache.sync()).toBe(true);
      for (const person of people) await cache.load(person.id);
      // Each commits its NOTIFY, then waits: the calls overlap and share round trips.
      await Promise.all(
        people.map(async (person) => {
          await server.db.execute(sql`SELECT pg_notify(${REVOCATION_CHANNEL}, ${person.id})`);
          expect(await cache.sync()).toBe(true);
          expect(cache.peek(person.id)).toBeUndefined();
        }),
      );
    } finally {
      await stop();
    }
    // Stopped: nothing heard any more, the cache is not to be trusted.
    expect(await cache.sync()).toBe(false);
  });

  it('drops a user when their facility assignments change, whoever writes them (trigger → NOTIFY)', async () => {
    const facility = await buildFacility(server.db);
    const other = await buildFacility(server.db, { organisationId: facility.organisationId });
    const user = await buildUser(server.db, { role: 'TRANSCRIPTIONIST', facilities: [facility] });
    const cache = new RevocationCache(server.db);
    const stop = await startRevocationListener(server.database, cache, silent);
    try {
      expect(await cache.facilityIdsOf(user.id, facility.organisationId)).toEqual([facility.id]);
      // A plain write, no publishUserChange: the table's trigger announces it.
      await server.db.insert(userFacilities).values({ userId: user.id, facilityId: other.id });
      await expect.poll(() => cache.peek(user.id), { timeout: 5000 }).toBeUndefined();
      expect([...((await cache.facilityIdsOf(user.id, facility.organisationId)) ?? [])].sort()).toEqual(
        [facility.id, other.id].sort(),
      );
      // Cached again: the delete must drop it.
      expect(cache.peek(user.id)?.facilityIds).toHaveLength(2);
      await server.db.delete(userFacilities).where(eq(userFacilities.userId, user.id));
      await expect.poll(() => cache.peek(user.id), { timeout: 5000 }).toBeUndefined();
      expect(await cache.facilityIdsOf(user.id, facility.organisationId)).toEqual([]);
    } finally {
      await stop();
    }
  });

  it('starts over empty when user_facilities is truncated (trigger → NOTIFY of every user)', async () => {
    const facility = await buildFacility(server.db);
    const user = await buildUser(server.db, { role: 'TRANSCRIPTIONIST', facilities: [facility] });
    const cache = new RevocationCache(server.db);
    const stop = await startRevocationListener(server.database, cache, silent);
    try {
      await cache.load(user.id);
      expect(cache.peek(user.id)?.facilityIds).toEqual([facility.id]);
      await server.db.execute(sql`truncate user_facilities`);
      await expect.poll(() => cache.peek(user.id), { timeout: 5000 }).toBeUndefined();
      expect(await cache.facilityIdsOf(user.id, facility.organisationId)).toEqual([]);
    } finally {
      await stop();
    }
  });
});

describe('the revocation cache', () => {
  it('answers a load that overlaps an invalidation but does not cache it', async () => {
    const user = await buildUser(server.db);
    const cache = new RevocationCache(server.db);
    const loading = cache.load(user.id);
    // The change is announced while the load's query is in flight: what it read may predate it.
    cache.invalidate(user.id);
    expect((await loading)?.status).toBe('ACTIVE');
    expect(cache.peek(user.id)).toBeUndefined();
    // The next load, after the announcement, is cached.
    await cache.load(user.id);
    expect(cache.peek(user.id)?.status).toBe('ACTIVE');
    // A clear() (lost LISTEN connection) also discards the loads in flight.
    cache.invalidate(user.id);
    const again = cache.load(user.id);
    cache.clear();
    await again;
    expect(cache.peek(user.id)).toBeUndefined();
  });

  it('keeps no state read before the commit of a change published inside a transaction', async () => {
    const user = await buildUser(server.db, { role: 'ADMIN' });
    // Only this process's own announcements (no LISTEN): the NOTIFY cannot come to the rescue.
    const cache = new RevocationCache(server.db);
    const offHold = onLocalHold((userId) => cache.hold(userId));
    const offUser = onLocalRevocation((userId) => cache.invalidate(userId));
    try {
      await cache.load(user.id);
      let during: Promise<unknown> = Promise.resolve();
      await server.db.transaction(async (tx) => {
        await tx.update(users).set({ role: 'TRANSCRIPTIONIST' }).where(eq(users.id, user.id));
        await publishUserChange(tx, user.id);
        // A request verified before the commit loads the user. On PostgreSQL it reads the old row
        // (another connection) and is awaited here; PGlite has one connection, so it runs after.
        during = cache.load(user.id);
        if (server.database.kind === 'postgres') await during;
      });
      await during;
      // Committed, NOTIFY not heard: the old role must not be served from the cache.
      expect(cache.peek(user.id)).toBeUndefined();
      expect((await cache.load(user.id))?.role).toBe('TRANSCRIPTIONIST');
      expect(cache.peek(user.id)).toBeUndefined();
      // Announced after the commit: cached again.
      announceUserChange(user.id);
      await cache.load(user.id);
      expect(cache.peek(user.id)?.role).toBe('TRANSCRIPTIONIST');
    } finally {
      offHold();
      offUser();
    }
  });

  it("serves a user's facilities from the cache until a change of assignment is announced", async () => {
    const a = await buildFacility(server.db);
    const other = await buildFacility(server.db, { organisationId: a.organisationId });
    const foreign = await buildFacility(server.db);
    const user = await buildUser(server.db, { role: 'TRANSCRIPTIONIST', facilities: [a] });
    const cache = new RevocationCache(server.db);
    const offUser = onLocalRevocation((userId) => cache.invalidate(userId));
    try {
      expect(await cache.facilityIdsOf(user.id, a.organisationId)).toEqual([a.id]);
      // A row written while this cache hears nothing (no LISTEN here, no local announcement) is not
      // seen: the state is served from memory.
      await server.db.insert(userFacilities).values([
        { userId: user.id, facilityId: other.id },
        // An assignment to another organisation's facility never enters the scope.
        { userId: user.id, facilityId: foreign.id },
      ]);
      expect(await cache.facilityIdsOf(user.id, a.organisationId)).toEqual([a.id]);
      await publishUserChange(server.db, user.id);
      expect([...((await cache.facilityIdsOf(user.id, a.organisationId)) ?? [])].sort()).toEqual(
        [a.id, other.id].sort(),
      );
      // Asked for another organisation than the user's: unknown, the caller reads the database.
      expect(await cache.facilityIdsOf(user.id, foreign.organisationId)).toBeNull();
    } finally {
      offUser();
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
