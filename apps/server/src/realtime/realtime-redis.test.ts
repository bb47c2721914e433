import { notificationTopic } from '@ris/domain';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disableUser } from '../auth/disable-user.ts';
import { loadConfig } from '../config.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../test/factories.ts';
import {
  connectSocket,
  disconnected,
  listenTopic,
  MessageLog,
  notificationWithId,
  refusedHandshake,
  type TTestSocket,
} from '../test/realtime-client.ts';
import { emitMarker, worklistItemOf } from '../test/realtime-fixtures.ts';
import { startReplicas, TEST_REDIS_URL, type TReplicaSet } from '../test/realtime-replicas.ts';
import { connectRedisAdapter } from './redis-adapter.ts';

// Two replicas on one database and one Redis (REDIS_URL): events published on one reach the
// sockets connected to the other, through the Redis adapter only (no other path joins them).
let set: TReplicaSet;
const sockets: TTestSocket[] = [];

beforeAll(async () => {
  set = await startReplicas(2);
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await set.close();
});

function replica(index: number) {
  const found = set.replicas[index];
  if (!found) throw new Error(`no replica ${index}`);
  return found;
}

async function subscriberOn(index: number, user: { id: string }) {
  const socket = await connectSocket(replica(index).url, { auth: { token: await set.tokenFor(user) } });
  sockets.push(socket);
  const log = new MessageLog(socket);
  expect(await listenTopic(socket, 'worklist')).toMatchObject({ ok: true });
  expect(await listenTopic(socket, notificationTopic(user.id))).toMatchObject({ ok: true });
  return { socket, log };
}

async function world() {
  const db = set.database.db;
  const organisation = await buildOrganisation(db);
  const facilityA = await buildFacility(db, { organisationId: organisation.id });
  const facilityB = await buildFacility(db, { organisationId: organisation.id });
  return {
    organisation,
    facilityA,
    radiologistA: await buildUser(db, { facilities: [facilityA] }),
    radiologistB: await buildUser(db, { facilities: [facilityB] }),
    studyA: await buildStudy(db, { facility: facilityA }),
  };
}

describe('Redis adapter across replicas', () => {
  it('delivers a change published on one replica to the right sockets of the other', async () => {
    const w = await world();
    const a = await subscriberOn(1, w.radiologistA);
    const b = await subscriberOn(1, w.radiologistB);
    const item = await worklistItemOf(set.database.db, w.studyA.id);

    const events = replica(0).app.events;
    events.emit('worklist.item.changed', { organisationId: w.organisation.id, item });
    const markerA = notificationWithId(emitMarker(events, w.organisation.id, w.radiologistA.id));
    const markerB = notificationWithId(emitMarker(events, w.organisation.id, w.radiologistB.id));
    await Promise.all([a.log.next(markerA), b.log.next(markerB)]);

    expect(a.log.before(markerA)).toEqual([
      { type: 'worklist-status-update', data: { action: 'upsert', item } },
    ]);
    expect(b.log.before(markerB)).toEqual([]);
  });

  it('delivers a notification and a deletion from the second replica to a socket on the first', async () => {
    const w = await world();
    const a = await subscriberOn(0, w.radiologistA);
    const events = replica(1).app.events;
    events.emit('worklist.item.deleted', {
      organisationId: w.organisation.id,
      id: w.studyA.id,
      facilityId: w.facilityA.id,
    });
    const marker = notificationWithId(emitMarker(events, w.organisation.id, w.radiologistA.id));
    expect(await a.log.next(marker)).toMatchObject({ type: 'user-notification' });
    expect(a.log.before(marker)).toEqual([
      {
        type: 'worklist-status-update',
        data: { action: 'delete', id: w.studyA.id, facility_fk: w.facilityA.id },
      },
    ]);
  });

  it('disconnects a disabled user on every replica', async () => {
    const w = await world();
    const token = await set.tokenFor(w.radiologistA);
    const onFirst = await connectSocket(replica(0).url, { auth: { token } });
    const onSecond = await connectSocket(replica(1).url, { auth: { token } });
    sockets.push(onFirst, onSecond);
    const gone = Promise.all([disconnected(onFirst), disconnected(onSecond)]);
    await disableUser(set.database.db, w.radiologistA.id, { actorUserId: null });
    expect(await gone).toEqual(['io server disconnect', 'io server disconnect']);
    expect(await refusedHandshake(replica(1).url, { auth: { token } })).toMatchObject({
      code: 'auth/id-token-revoked',
    });
  });

  it('validates REDIS_URL', () => {
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL: must be a redis:/);
    expect(loadConfig({ REDIS_URL: 'rediss://cache.internal:6380' }).redisUrl).toBe(
      'rediss://cache.internal:6380',
    );
    expect(loadConfig({}).redisUrl).toBeNull();
  });

  it('refuses to start on an unreachable REDIS_URL', async () => {
    const unreachable = new URL(TEST_REDIS_URL);
    unreachable.port = '1';
    await expect(connectRedisAdapter(unreachable.toString(), pino({ level: 'silent' }))).rejects.toThrow(
      /REDIS_URL: cannot connect/,
    );
  });
});
