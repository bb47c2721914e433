import { notificationTopic } from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from '../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../test/factories.ts';
import {
  aboutItem,
  connectSocket,
  listenTopic,
  MessageLog,
  notificationWithId,
  type TTestSocket,
} from '../test/realtime-client.ts';
import { emitMarker } from '../test/realtime-fixtures.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';

// End to end: a command over HTTP commits, publishes, and the browsers that may see the item get it.
let server: TTestServer;
const sockets: TTestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server.close();
});

async function subscriber(user: { id: string }) {
  const socket = await connectSocket(server.url, { auth: { token: await tokenFor(server, user) } });
  sockets.push(socket);
  const log = new MessageLog(socket);
  expect(await listenTopic(socket, 'worklist')).toMatchObject({ ok: true });
  expect(await listenTopic(socket, notificationTopic(user.id))).toMatchObject({ ok: true });
  return { socket, log };
}

describe('PUT /worklist/assign/radiologist → sockets', () => {
  it("reaches the item's facility and the assignee, and nobody of another facility", async () => {
    const db = server.db;
    const organisation = await buildOrganisation(db);
    const facilityA = await buildFacility(db, { organisationId: organisation.id });
    const facilityB = await buildFacility(db, { organisationId: organisation.id });
    const admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
    const radiologistA = await buildUser(db, { facilities: [facilityA] });
    const radiologistB = await buildUser(db, { facilities: [facilityB] });
    const study = await buildStudy(db, { facility: facilityA, status: 'TO_READ' });
    const a = await subscriber(radiologistA);
    const b = await subscriber(radiologistB);

    const response = await server.request('PUT', '/api/v1/worklist/assign/radiologist', {
      token: await tokenFor(server, admin),
      body: { worklist_ids: [study.id], last_assigned_user_fk: radiologistA.id, by_user_id: admin.id },
    });
    expect(response.status).toBe(200);

    const update = await a.log.next(aboutItem(study.id));
    expect(update).toMatchObject({
      type: 'worklist-status-update',
      data: {
        action: 'upsert',
        item: { id: study.id, status: 'ASSIGNED', last_assigned_user_fk: radiologistA.id },
      },
    });
    expect(await a.log.next((message) => message.type === 'user-notification')).toMatchObject({
      type: 'user-notification',
    });
    const marker = notificationWithId(emitMarker(server.app.events, organisation.id, radiologistB.id));
    await b.log.next(marker);
    expect(b.log.before(marker)).toEqual([]);
  });
});
