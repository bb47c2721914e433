import { notificationTopic, worklistItemTopic } from '@ris/domain';
import { reportDocumentName } from '@ris/editor';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSessions, reports, userFacilities, users } from '../db/schema/index.ts';
import { rooms } from '../realtime/realtime-rooms.ts';
import { buildFacility, buildStudy, buildUser, TEST_PASSWORD } from '../test/factories.ts';
import {
  connectSocket,
  disconnected,
  listenTopic,
  listenTopicOrDisconnected,
  MessageLog,
  notificationWithId,
  refusedHandshake,
  type TTestSocket,
} from '../test/realtime-client.ts';
import { emitMarker, worklistItemOf } from '../test/realtime-fixtures.ts';
import { startReplicas, type TReplicaSet } from '../test/realtime-replicas.ts';
import {
  acknowledged,
  appendParagraph,
  connectionClosed,
  openEditor,
  type TEditor,
} from '../collaboration/collab-test-client.ts';
import { documentToHtml } from '../collaboration/report-document.ts';
import { RECONNECT } from '../collaboration/store-guards.ts';
import { disableUser } from './disable-user.ts';
import { announceUserChange, publishUserChange } from './revocation.ts';

// Two server replicas on one database (each with its own pool, LISTEN connections and revocation
// cache; on PGlite they share the one in-process engine). A user changed by a plain UPDATE in SQL, or
// by a command run on the first replica, is refused or re-scoped by the SECOND replica on the very next
// request, socket message or collaborative change: the token, socket and editor worked one step earlier.
let set: TReplicaSet;
const sockets: TTestSocket[] = [];
const editors: TEditor[] = [];

beforeAll(async () => {
  set = await startReplicas(2);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  for (const editor of editors) editor.close();
  await set.close();
});

const db = () => set.database.db;

function replica(index: number) {
  const found = set.replicas[index];
  if (!found) throw new Error(`no replica ${index}`);
  return found;
}

async function call(index: number, path: string, token: string) {
  const response = await fetch(`${replica(index).url}/api/v1${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, json: (await response.json()) as unknown };
}

async function post(index: number, path: string, body: unknown) {
  const response = await fetch(`${replica(index).url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as unknown };
}

/** Signs in on the first replica: an ID token and a refresh token. */
async function signIn(email: string): Promise<{ id_token: string; refresh_token: string }> {
  const response = await post(0, '/auth/sign-in', { email, password: TEST_PASSWORD });
  expect(response.status).toBe(200);
  return response.json as { id_token: string; refresh_token: string };
}

/** A radiologist and a study of their facility: GET /worklist/{id} answers 200 while they may see it. */
async function radiologistWithStudy() {
  const facility = await buildFacility(db());
  const user = await buildUser(db(), { facilities: [facility] });
  const study = await buildStudy(db(), { facility });
  return { user, path: `/worklist/${study.id}` };
}

const updateUser = (userId: string, set: Partial<typeof users.$inferInsert>) =>
  db().update(users).set(set).where(eq(users.id, userId));

describe('HTTP on the second replica', () => {
  it('disabled in SQL: 401 on the next request there, refresh refused there', async () => {
    const { user, path } = await radiologistWithStudy();
    const session = await signIn(user.email);
    // Both replicas have the user cached.
    expect((await call(0, path, session.id_token)).status).toBe(200);
    expect((await call(1, path, session.id_token)).status).toBe(200);

    await updateUser(user.id, { status: 'INACTIVE' });
    const response = await call(1, path, session.id_token);
    expect(response.status).toBe(401);
    expect(response.json).toMatchObject({ error: { code: 'auth/id-token-revoked' } });
    const refreshed = await post(1, '/auth/refresh', { refresh_token: session.refresh_token });
    expect(refreshed.status).toBe(403);
    expect(refreshed.json).toMatchObject({ error: { code: 'auth/user-disabled' } });
  });

  it('demoted in SQL: an action allowed there one request earlier is 403', async () => {
    const admin = await buildUser(db(), { role: 'ADMIN' });
    const { id_token: token } = await signIn(admin.email);
    expect((await call(1, '/comm/outbox', token)).status).toBe(200);
    await updateUser(admin.id, { role: 'TRANSCRIPTIONIST' });
    expect((await call(1, '/comm/outbox', token)).status).toBe(403);
  });

  it("moved in SQL: token and refresh refused there; signed in again, the old organisation's study is 404", async () => {
    const oldFacility = await buildFacility(db());
    const newFacility = await buildFacility(db());
    const oldStudy = await buildStudy(db(), { facility: oldFacility });
    const admin = await buildUser(db(), { role: 'ADMIN', organisationId: oldFacility.organisationId });
    const session = await signIn(admin.email);
    expect((await call(1, `/worklist/${oldStudy.id}`, session.id_token)).status).toBe(200);

    await updateUser(admin.id, { organisationId: newFacility.organisationId });
    expect((await call(1, `/worklist/${oldStudy.id}`, session.id_token)).status).toBe(401);
    expect((await post(1, '/auth/refresh', { refresh_token: session.refresh_token })).status).toBe(401);
    const again = await signIn(admin.email);
    expect((await call(1, `/worklist/${oldStudy.id}`, again.id_token)).status).toBe(404);
  });

  it('disabled through the command on the first replica: refused on the second at once', async () => {
    const { user, path } = await radiologistWithStudy();
    const token = await set.tokenFor(user);
    expect((await call(1, path, token)).status).toBe(200);
    await disableUser(replica(0).database.db, user.id, { actorUserId: null });
    expect((await call(1, path, token)).status).toBe(401);
  });

  it('demoted through a command on the first replica (publishUserChange): 403 on the second at once', async () => {
    const admin = await buildUser(db(), { role: 'ADMIN' });
    const token = await set.tokenFor(admin);
    expect((await call(1, '/comm/outbox', token)).status).toBe(200);
    await replica(0).database.db.transaction(async (tx) => {
      await tx.update(users).set({ role: 'RADIOLOGIST' }).where(eq(users.id, admin.id));
      await publishUserChange(tx, admin.id);
    });
    announceUserChange(admin.id);
    expect((await call(1, '/comm/outbox', token)).status).toBe(403);
  });
});

describe('realtime sockets on the second replica', () => {
  it('disabled in SQL: disconnected, its next message refused, and the handshake refused after', async () => {
    const user = await buildUser(db());
    const token = await set.tokenFor(user);
    const socket = await connectSocket(replica(1).url, { auth: { token } });
    sockets.push(socket);
    expect(await listenTopic(socket, notificationTopic(user.id))).toMatchObject({ ok: true });
    const gone = disconnected(socket);

    await updateUser(user.id, { status: 'INACTIVE' });
    // Sent right after the commit: answered as revoked, or the socket is already gone; never joined.
    const next = await listenTopicOrDisconnected(socket, 'general');
    if (next !== 'disconnected')
      expect(next).toMatchObject({ ok: false, error: { code: 'auth/id-token-revoked' } });
    expect(await gone).toBe('io server disconnect');
    expect(await refusedHandshake(replica(1).url, { auth: { token } })).toMatchObject({
      code: 'auth/id-token-revoked',
    });
    expect(await liveSessions(user.id)).toBe(0);
  });

  it('demoted in SQL: leaves the whole-organisation worklist and the items its new scope cannot see', async () => {
    const facilityA = await buildFacility(db());
    const facilityB = await buildFacility(db(), { organisationId: facilityA.organisationId });
    const study = await buildStudy(db(), { facility: facilityA });
    const admin = await buildUser(db(), { role: 'ADMIN', organisationId: facilityA.organisationId });
    const socket = await connectSocket(replica(1).url, { auth: { token: await set.tokenFor(admin) } });
    sockets.push(socket);
    const log = new MessageLog(socket);
    expect(await listenTopic(socket, 'worklist')).toMatchObject({ ok: true });
    expect(await listenTopic(socket, worklistItemTopic(study.id))).toMatchObject({ ok: true });

    await db().transaction(async (tx) => {
      await tx.update(users).set({ role: 'TRANSCRIPTIONIST' }).where(eq(users.id, admin.id));
      await tx.insert(userFacilities).values({ userId: admin.id, facilityId: facilityB.id });
    });
    // Its next message is handled as a transcriptionist of facility B: the rooms follow at once.
    expect(await listenTopic(socket, notificationTopic(admin.id))).toMatchObject({ ok: true });
    const joined = replica(1)
      .app.realtime.of('/')
      .sockets.get(socket.id ?? '')?.rooms;
    expect(joined?.has(rooms.organisationWorklist(facilityA.organisationId))).toBe(false);
    expect(joined?.has(rooms.item(study.id))).toBe(false);
    expect(joined?.has(rooms.facility(facilityB.id))).toBe(true);

    const events = replica(0).app.events;
    const item = await worklistItemOf(db(), study.id);
    events.emit('worklist.item.changed', { organisationId: facilityA.organisationId, item });
    const marker = notificationWithId(emitMarker(events, facilityA.organisationId, admin.id));
    await log.next(marker);
    expect(log.before(marker)).toEqual([]);
  });
});

describe('collaborative editing on the second replica', () => {
  /** A report open on the second replica by its radiologist (the witness) and a transcriptionist. */
  async function reportOpenOnSecond() {
    const facility = await buildFacility(db());
    const radiologist = await buildUser(db(), { facilities: [facility] });
    const transcriptionist = await buildUser(db(), { role: 'TRANSCRIPTIONIST', facilities: [facility] });
    const study = await buildStudy(db(), {
      facility,
      status: 'ASSIGNED',
      lastAssignedUserId: radiologist.id,
      collaborationEnabled: true,
    });
    const [report] = await db()
      .insert(reports)
      .values({ studyId: study.id, organisationId: facility.organisationId, content: '<p>Findings.</p>' })
      .returning();
    if (!report) throw new Error('no report');
    const open = async (user: { id: string }) => {
      const editor = await openEditor(replica(1).url, report.id, await set.tokenFor(user));
      editors.push(editor);
      return editor;
    };
    const witness = await open(radiologist);
    const editor = await open(transcriptionist);
    expect([witness.scope, editor.scope]).toEqual(['read-write', 'read-write']);
    return { report, transcriptionist, witness, editor };
  }

  it('disabled in SQL: the connection is closed and refused, and what it types after the commit is not taken', async () => {
    const { report, transcriptionist, witness, editor } = await reportOpenOnSecond();
    const refused = new Promise<string>((resolve) =>
      editor.provider.on('authenticationFailed', ({ reason }: { reason: string }) => resolve(reason)),
    );
    const closed = connectionClosed(editor);
    await updateUser(transcriptionist.id, { status: 'INACTIVE' });
    appendParagraph(editor.document, 'Typed after being disabled.');
    // The socket is closed (whether the change or the NOTIFY got there first), so the provider
    // connects again and is refused: a document closed alone would leave it waiting for ever.
    expect(await closed).toEqual(RECONNECT);
    expect(await refused).toBe('auth/id-token-revoked');

    appendParagraph(witness.document, 'Witness.');
    await acknowledged(witness);
    const open = replica(1).app.collaboration.documents.get(reportDocumentName(report.id));
    if (!open) throw new Error('the document is not open on the second replica');
    expect(documentToHtml(open, report.id)).toBe('<p>Findings.</p><p>Witness.</p>');
  });

  it('demoted in SQL (transcriptionist to facility admin): the editor comes back read-only', async () => {
    const { transcriptionist, editor } = await reportOpenOnSecond();
    const reauthenticated = new Promise<string>((resolve) =>
      editor.provider.on('authenticated', ({ scope }: { scope: string }) => resolve(scope)),
    );
    await updateUser(transcriptionist.id, { role: 'FACILITY_ADMIN' });
    expect(await reauthenticated).toBe('readonly');
  });
});

async function liveSessions(userId: string): Promise<number> {
  const rows = await db().select().from(authSessions).where(eq(authSessions.userId, userId));
  return rows.filter((row) => row.revokedAt === null).length;
}
