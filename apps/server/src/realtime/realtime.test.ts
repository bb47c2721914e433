import { notificationTopic, worklistItemTopic } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disableUser } from '../auth/disable-user.ts';
import { publishUserChange, revokeUserTokens } from '../auth/revocation.ts';
import { signOut } from '../auth/session-commands.ts';
import { referringPhysicians, userFacilities } from '../db/schema/index.ts';
import { tokenFor } from '../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../test/factories.ts';
import {
  aboutItem,
  connectSocket,
  disconnected,
  listenTopic,
  MessageLog,
  notificationWithId,
  refusedHandshake,
  type TTestSocket,
} from '../test/realtime-client.ts';
import { emitMarker, worklistItemOf } from '../test/realtime-fixtures.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';

let server: TTestServer;
const sockets: TTestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server.close();
});

async function connectAs(user: { id: string }): Promise<TTestSocket> {
  const socket = await connectSocket(server.url, { auth: { token: await tokenFor(server, user) } });
  sockets.push(socket);
  return socket;
}

/** A connected socket of the user, subscribed to the worklist and its own notifications. */
async function subscriber(user: { id: string }): Promise<{ socket: TTestSocket; log: MessageLog }> {
  const socket = await connectAs(user);
  const log = new MessageLog(socket);
  expect(await listenTopic(socket, 'worklist')).toEqual({ ok: true, topic: 'worklist' });
  expect(await listenTopic(socket, notificationTopic(user.id))).toMatchObject({ ok: true });
  return { socket, log };
}

/** Sends each user a marker and returns, per user, what arrived before it. */
async function receivedBeforeMarker(
  targets: { user: { id: string; organisationId: string | null }; log: MessageLog }[],
) {
  const markers = targets.map(({ user }) =>
    emitMarker(server.app.events, user.organisationId ?? '', user.id),
  );
  return Promise.all(
    targets.map(async ({ log }, index) => {
      const marker = notificationWithId(markers[index] ?? '');
      await log.next(marker);
      return log.before(marker);
    }),
  );
}

async function world() {
  const db = server.db;
  const organisation = await buildOrganisation(db);
  const facilityA = await buildFacility(db, { organisationId: organisation.id });
  const facilityB = await buildFacility(db, { organisationId: organisation.id });
  const otherFacility = await buildFacility(db);
  const radiologistA = await buildUser(db, { facilities: [facilityA] });
  const radiologistB = await buildUser(db, { facilities: [facilityB] });
  const admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  const otherAdmin = await buildUser(db, { role: 'ADMIN', organisationId: otherFacility.organisationId });
  const otherRadiologist = await buildUser(db, { facilities: [otherFacility] });
  const referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id });
  const [physician] = await db
    .insert(referringPhysicians)
    .values({ organisationId: organisation.id, userId: referrer.id, name: 'Dr Referrer' })
    .returning();
  const studyA = await buildStudy(db, {
    facility: facilityA,
    referringPhysicianId: physician?.id ?? null,
    referringPhysicianName: 'Dr Referrer',
  });
  const studyB = await buildStudy(db, { facility: facilityB });
  return {
    organisation,
    facilityA,
    facilityB,
    radiologistA,
    radiologistB,
    admin,
    otherAdmin,
    otherRadiologist,
    referrer,
    studyA,
    studyB,
  };
}

describe('handshake', () => {
  it('refuses a connection without a token', async () => {
    expect(await refusedHandshake(server.url)).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('refuses a malformed or wrongly signed token', async () => {
    expect(await refusedHandshake(server.url, { auth: { token: 'not-a-token' } })).toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    const user = await buildUser(server.db);
    const token = await tokenFor(server, user);
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    expect(await refusedHandshake(server.url, { auth: { token: forged } })).toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });

  it('refuses a revoked token', async () => {
    const user = await buildUser(server.db);
    const token = await tokenFor(server, user);
    await revokeUserTokens(server.db, user.id);
    expect(await refusedHandshake(server.url, { auth: { token } })).toMatchObject({
      code: 'auth/id-token-revoked',
    });
  });

  it('accepts auth.token and an Authorization: Bearer header', async () => {
    const user = await buildUser(server.db);
    const token = await tokenFor(server, user);
    const viaAuth = await connectSocket(server.url, { auth: { token } });
    const viaHeader = await connectSocket(server.url, { extraHeaders: { authorization: `Bearer ${token}` } });
    expect(viaAuth.connected && viaHeader.connected).toBe(true);
    viaAuth.close();
    viaHeader.close();
  });
});

describe('listen_topic authorisation', () => {
  it('accepts what the caller may see and refuses the rest', async () => {
    const w = await world();
    const socket = await connectAs(w.radiologistA);
    expect(await listenTopic(socket, 'general')).toEqual({ ok: true, topic: 'general' });
    expect(await listenTopic(socket, 'worklist')).toEqual({ ok: true, topic: 'worklist' });
    expect(await listenTopic(socket, worklistItemTopic(w.studyA.id))).toMatchObject({ ok: true });
    expect(await listenTopic(socket, notificationTopic(w.radiologistA.id))).toMatchObject({ ok: true });
    // Another facility's study, another user's notifications, nonsense.
    expect(await listenTopic(socket, worklistItemTopic(w.studyB.id))).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(await listenTopic(socket, notificationTopic(w.radiologistB.id))).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(await listenTopic(socket, 'worklist-not-a-uuid')).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect(await listenTopic(socket, 'reports')).toMatchObject({ error: { code: 'BAD_REQUEST' } });
    expect(await listenTopic(socket, '')).toMatchObject({ error: { code: 'BAD_REQUEST' } });
  });

  it("refuses another organisation's study even to its admin, and lets a referrer see only theirs", async () => {
    const w = await world();
    const otherAdmin = await connectAs(w.otherAdmin);
    expect(await listenTopic(otherAdmin, worklistItemTopic(w.studyA.id))).toMatchObject({
      error: { code: 'NOT_FOUND' },
    });
    const referrer = await connectAs(w.referrer);
    expect(await listenTopic(referrer, worklistItemTopic(w.studyA.id))).toMatchObject({ ok: true });
    expect(await listenTopic(referrer, worklistItemTopic(w.studyB.id))).toMatchObject({
      error: { code: 'NOT_FOUND' },
    });
  });
});

describe('delivery', () => {
  it('sends a change only to those who may see the item', async () => {
    const w = await world();
    const a = { user: w.radiologistA, ...(await subscriber(w.radiologistA)) };
    const b = { user: w.radiologistB, ...(await subscriber(w.radiologistB)) };
    const admin = { user: w.admin, ...(await subscriber(w.admin)) };
    const otherAdmin = { user: w.otherAdmin, ...(await subscriber(w.otherAdmin)) };
    const other = { user: w.otherRadiologist, ...(await subscriber(w.otherRadiologist)) };
    const referrer = { user: w.referrer, ...(await subscriber(w.referrer)) };

    const item = await worklistItemOf(server.db, w.studyA.id);
    server.app.events.emit('worklist.item.changed', { organisationId: w.organisation.id, item });

    const [toA, toB, toAdmin, toOtherAdmin, toOther, toReferrer] = await receivedBeforeMarker([
      a,
      b,
      admin,
      otherAdmin,
      other,
      referrer,
    ]);
    const expected = [{ type: 'worklist-status-update', data: { action: 'upsert', item } }];
    expect(toA).toEqual(expected);
    expect(toAdmin).toEqual(expected);
    expect(toReferrer).toEqual(expected);
    expect(toB).toEqual([]);
    expect(toOtherAdmin).toEqual([]);
    expect(toOther).toEqual([]);
  });

  it("sends a referrer nothing about studies they did not refer, and an item's topic its own item", async () => {
    const w = await world();
    const referrer = { user: w.referrer, ...(await subscriber(w.referrer)) };
    const b = { user: w.radiologistB, socket: await connectAs(w.radiologistB) };
    const bLog = new MessageLog(b.socket);
    expect(await listenTopic(b.socket, worklistItemTopic(w.studyB.id))).toMatchObject({ ok: true });
    expect(await listenTopic(b.socket, notificationTopic(w.radiologistB.id))).toMatchObject({ ok: true });

    const itemB = await worklistItemOf(server.db, w.studyB.id);
    server.app.events.emit('worklist.item.changed', { organisationId: w.organisation.id, item: itemB });
    const itemA = await worklistItemOf(server.db, w.studyA.id);
    server.app.events.emit('worklist.item.changed', { organisationId: w.organisation.id, item: itemA });

    const [toReferrer, toB] = await receivedBeforeMarker([referrer, { user: b.user, log: bLog }]);
    expect(toReferrer?.map((message) => aboutItem(w.studyA.id)(message))).toEqual([true]);
    expect(toB).toEqual([{ type: 'worklist-status-update', data: { action: 'upsert', item: itemB } }]);
  });

  it('sends a deletion to the same rooms as a change', async () => {
    const w = await world();
    const a = { user: w.radiologistA, ...(await subscriber(w.radiologistA)) };
    const b = { user: w.radiologistB, ...(await subscriber(w.radiologistB)) };
    const referrer = { user: w.referrer, ...(await subscriber(w.referrer)) };
    server.app.events.emit('worklist.item.deleted', {
      organisationId: w.organisation.id,
      id: w.studyA.id,
      facilityId: w.facilityA.id,
    });
    const [toA, toB, toReferrer] = await receivedBeforeMarker([a, b, referrer]);
    const expected = [
      {
        type: 'worklist-status-update',
        data: { action: 'delete', id: w.studyA.id, facility_fk: w.facilityA.id },
      },
    ];
    expect(toA).toEqual(expected);
    expect(toReferrer).toEqual(expected);
    expect(toB).toEqual([]);
  });

  it("delivers a notification to its user's topic only", async () => {
    const w = await world();
    const a = { user: w.radiologistA, ...(await subscriber(w.radiologistA)) };
    const b = { user: w.radiologistB, ...(await subscriber(w.radiologistB)) };
    const notification = {
      id: '6f1e7c52-7c43-4a55-9b8a-3f0f8f6c2d10',
      type: 'REPORT_FINAL',
      title: 'Report marked final',
      body: 'CT Brain',
      data: { worklist_id: w.studyA.id },
      created_at: new Date().toISOString(),
    };
    server.app.events.emit('notification.created', {
      organisationId: w.organisation.id,
      userId: w.radiologistA.id,
      notification,
    });
    expect(await a.log.next(notificationWithId(notification.id))).toEqual({
      type: 'user-notification',
      data: { notification },
    });
    const [, toB] = await receivedBeforeMarker([a, b]);
    expect(toB).toEqual([]);
  });

  it('re-resolves facilities on each worklist subscription', async () => {
    const w = await world();
    const a = { user: w.radiologistA, ...(await subscriber(w.radiologistA)) };
    await server.db
      .delete(userFacilities)
      .where(
        and(eq(userFacilities.userId, w.radiologistA.id), eq(userFacilities.facilityId, w.facilityA.id)),
      );
    await server.db.insert(userFacilities).values({ userId: w.radiologistA.id, facilityId: w.facilityB.id });
    // What a command changing assignments does: every replica's cache of the user is dropped.
    await publishUserChange(server.db, w.radiologistA.id);
    expect(await listenTopic(a.socket, 'worklist')).toMatchObject({ ok: true });

    const itemA = await worklistItemOf(server.db, w.studyA.id);
    const itemB = await worklistItemOf(server.db, w.studyB.id);
    server.app.events.emit('worklist.item.changed', { organisationId: w.organisation.id, item: itemA });
    server.app.events.emit('worklist.item.changed', { organisationId: w.organisation.id, item: itemB });
    const [toA] = await receivedBeforeMarker([a]);
    expect(toA).toEqual([{ type: 'worklist-status-update', data: { action: 'upsert', item: itemB } }]);
  });
});

describe('revocation', () => {
  it("disconnects a disabled user's sockets at once and refuses them afterwards", async () => {
    const w = await world();
    const token = await tokenFor(server, w.radiologistA);
    const socket = await connectSocket(server.url, { auth: { token } });
    sockets.push(socket);
    const bystander = { user: w.radiologistB, ...(await subscriber(w.radiologistB)) };
    const gone = disconnected(socket);
    await disableUser(server.db, w.radiologistA.id, { actorUserId: w.admin.id });
    expect(await gone).toBe('io server disconnect');
    expect(await refusedHandshake(server.url, { auth: { token } })).toMatchObject({
      code: 'auth/id-token-revoked',
    });
    // Another user's socket stays connected and keeps receiving.
    const [toBystander] = await receivedBeforeMarker([bystander]);
    expect(toBystander).toEqual([]);
    expect(bystander.socket.connected).toBe(true);
  });

  it("disconnects every socket of a user who signs out everywhere, and nobody else's", async () => {
    const user = await buildUser(server.db);
    const first = await connectAs(user);
    const second = await connectAs(user);
    const both = Promise.all([disconnected(first), disconnected(second)]);
    await revokeUserTokens(server.db, user.id, 'sign_out_all');
    expect(await both).toEqual(['io server disconnect', 'io server disconnect']);
  });
});

describe('revocation of one session', () => {
  it("disconnects the socket of a signed-out session and keeps the same user's other one", async () => {
    const w = await world();
    const firstToken = await tokenFor(server, w.radiologistA);
    const first = await connectSocket(server.url, { auth: { token: firstToken } });
    sockets.push(first);
    const second = { user: w.radiologistA, ...(await subscriber(w.radiologistA)) };
    const claims = JSON.parse(Buffer.from(firstToken.split('.')[1] ?? '', 'base64url').toString()) as {
      sid: string;
    };
    const gone = disconnected(first);
    await signOut(
      server.identity.context,
      { sessionId: claims.sid, userId: w.radiologistA.id, organisationId: w.organisation.id },
      { ip: null, userAgent: null },
    );
    expect(await gone).toBe('io server disconnect');
    const [toSecond] = await receivedBeforeMarker([second]);
    expect(toSecond).toEqual([]);
    expect(second.socket.connected).toBe(true);
  });
});

describe('shutdown', () => {
  it('app.close() ends every socket', async () => {
    const own = await startTestServer();
    const user = await buildUser(own.db);
    const socket = await connectSocket(own.url, { auth: { token: await tokenFor(own, user) } });
    const gone = disconnected(socket);
    await own.close();
    expect(await gone).toMatch(/transport close|io server disconnect/);
  });
});
