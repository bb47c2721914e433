import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSessions, radiologistDetails, userFacilities, users } from '../db/schema/index.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../test/factories.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { issueSession } from './sign-in.ts';

// A change to a user made by a plain UPDATE in SQL (as a script or psql would: the app announces
// nothing, only the tables' triggers do, migrations 0006 and 0010) applies to the very next request
// made with a token that worked one request earlier: no waiting, no polling.
let server: TTestServer;

const probe = async (secured: FastifyInstance) => {
  secured.get('/probe/me', async (request) => ({
    role: request.principal?.role ?? null,
    user_type: request.principal?.userType ?? null,
  }));
};

beforeAll(async () => {
  server = await startTestServer({ securedRoutes: probe });
});
afterAll(async () => {
  await server.close();
});

type TSession = { idToken: string; refreshToken: string };

async function sessionOf(userId: string): Promise<TSession> {
  const [row] = await server.db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new Error(`no user ${userId}`);
  const { body } = await issueSession(server.identity.context, row, 'test', {
    ip: '127.0.0.1',
    userAgent: 'test',
  });
  return { idToken: body.id_token, refreshToken: body.refresh_token };
}

const get = (token: string, path: string) => server.request('GET', `/api/v1${path}`, { token });
const me = (token: string) => get(token, '/probe/me');
const outbox = (token: string) => get(token, '/comm/outbox');
const refresh = (refreshToken: string) =>
  server.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: refreshToken } });

/** A plain UPDATE of the user, outside anything of the app's. */
async function updateUser(userId: string, set: Partial<typeof users.$inferInsert>): Promise<void> {
  await server.db.update(users).set(set).where(eq(users.id, userId));
}

async function liveSessionReasons(userId: string): Promise<(string | null)[]> {
  const rows = await server.db.select().from(authSessions).where(eq(authSessions.userId, userId));
  return rows.map((row) => row.revokedReason);
}

describe('a change made directly in SQL applies on the very next request', () => {
  it('set INACTIVE: 401 auth/id-token-revoked, every session ended, refresh refused as disabled', async () => {
    const user = await buildUser(server.db);
    const session = await sessionOf(user.id);
    expect((await me(session.idToken)).status).toBe(200);

    await updateUser(user.id, { status: 'INACTIVE' });
    const response = await me(session.idToken);
    expect(response.status, response.text).toBe(401);
    expect(response.json).toMatchObject({ error: { code: 'auth/id-token-revoked' } });
    expect(await liveSessionReasons(user.id)).toEqual(['user_disabled']);
    const refreshed = await refresh(session.refreshToken);
    expect(refreshed.status).toBe(403);
    expect(refreshed.json).toMatchObject({ error: { code: 'auth/user-disabled' } });
  });

  it('demoted from ADMIN: an action allowed one request earlier is 403, and allowed again once restored', async () => {
    const admin = await buildUser(server.db, { role: 'ADMIN' });
    const { idToken } = await sessionOf(admin.id);
    expect((await outbox(idToken)).status).toBe(200);

    await updateUser(admin.id, { role: 'RADIOLOGIST' });
    const refused = await outbox(idToken);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.json).toMatchObject({ error: { code: 'FORBIDDEN' } });
    // A role change alone ends no session: the same token carries the current role.
    await updateUser(admin.id, { role: 'ADMIN' });
    expect((await outbox(idToken)).status).toBe(200);
  });

  it('every time: twenty role changes in a row, each seen by the request right after it', async () => {
    const admin = await buildUser(server.db, { role: 'ADMIN' });
    const { idToken } = await sessionOf(admin.id);
    const seen: number[] = [];
    for (let round = 0; round < 20; round++) {
      await updateUser(admin.id, { role: round % 2 === 0 ? 'TRANSCRIPTIONIST' : 'ADMIN' });
      seen.push((await outbox(idToken)).status);
    }
    expect(seen).toEqual(Array.from({ length: 20 }, (_, round) => (round % 2 === 0 ? 403 : 200)));
  });

  it("moved to another organisation: token and refresh refused; signed in again, none of the old organisation's records", async () => {
    const oldFacility = await buildFacility(server.db);
    const newFacility = await buildFacility(server.db);
    const oldStudy = await buildStudy(server.db, { facility: oldFacility });
    const newStudy = await buildStudy(server.db, { facility: newFacility });
    const admin = await buildUser(server.db, { role: 'ADMIN', organisationId: oldFacility.organisationId });
    const before = await sessionOf(admin.id);
    expect((await get(before.idToken, `/worklist/${oldStudy.id}`)).status).toBe(200);

    await updateUser(admin.id, { organisationId: newFacility.organisationId });
    const response = await get(before.idToken, `/worklist/${oldStudy.id}`);
    expect(response.status, response.text).toBe(401);
    expect(response.json).toMatchObject({ error: { code: 'auth/id-token-revoked' } });
    expect(await liveSessionReasons(admin.id)).toEqual(['organisation_changed']);
    expect((await refresh(before.refreshToken)).status).toBe(401);

    const after = await sessionOf(admin.id);
    expect((await get(after.idToken, `/worklist/${oldStudy.id}`)).status).toBe(404);
    expect((await get(after.idToken, `/worklist/${newStudy.id}`)).status).toBe(200);
  });

  it('a facility unassigned: its studies are out of scope on the next request', async () => {
    const facility = await buildFacility(server.db);
    const user = await buildUser(server.db, { role: 'TRANSCRIPTIONIST', facilities: [facility] });
    const study = await buildStudy(server.db, { facility });
    const { idToken } = await sessionOf(user.id);
    expect((await get(idToken, `/worklist/${study.id}`)).status).toBe(200);
    await server.db.delete(userFacilities).where(eq(userFacilities.userId, user.id));
    expect((await get(idToken, `/worklist/${study.id}`)).status).toBe(404);
  });

  it('radiologist type changed to REPORTER: the next request carries it', async () => {
    const user = await buildUser(server.db, { role: 'RADIOLOGIST', userType: 'RADIOLOGIST' });
    const { idToken } = await sessionOf(user.id);
    expect((await me(idToken)).json).toEqual({ role: 'RADIOLOGIST', user_type: 'RADIOLOGIST' });
    await server.db
      .update(radiologistDetails)
      .set({ userType: 'REPORTER' })
      .where(eq(radiologistDetails.userId, user.id));
    expect((await me(idToken)).json).toEqual({ role: 'RADIOLOGIST', user_type: 'REPORTER' });
  });

  it('a session ended in SQL (auth_sessions.revoked_at): its token is refused on the next request', async () => {
    const user = await buildUser(server.db);
    const { idToken } = await sessionOf(user.id);
    expect((await me(idToken)).status).toBe(200);
    await server.db
      .update(authSessions)
      .set({ revokedAt: sql`now()`, revokedReason: 'manual' })
      .where(eq(authSessions.userId, user.id));
    expect((await me(idToken)).status).toBe(401);
  });

  it('a move into an organisation from none (sign-up, then an admin assigns one) ends no session', async () => {
    const organisation = await buildOrganisation(server.db);
    const user = await buildUser(server.db, { role: null, organisationId: null });
    await sessionOf(user.id);
    await updateUser(user.id, { organisationId: organisation.id, role: 'RADIOLOGIST' });
    expect(await liveSessionReasons(user.id)).toEqual([null]);
  });
});

describe("what the triggers announce (each replica's cache drops the user)", () => {
  const cache = () => server.identity.context.cache;

  /** Loads the user into the cache, makes the change, and tells whether the cache dropped them. */
  async function dropped(userId: string, change: () => Promise<unknown>): Promise<boolean> {
    // The user's own creation was announced (their rows' triggers): heard before loading.
    await cache().sync();
    await cache().load(userId);
    expect(cache().peek(userId)).toBeDefined();
    await change();
    expect(await cache().sync()).toBe(true);
    return cache().peek(userId) === undefined;
  }

  it('password_hash and tokens_valid_after changes are announced; a name change is not', async () => {
    const user = await buildUser(server.db);
    expect(await dropped(user.id, () => updateUser(user.id, { passwordHash: 'changed' }))).toBe(true);
    expect(await dropped(user.id, () => updateUser(user.id, { tokensValidAfter: new Date() }))).toBe(true);
    expect(await dropped(user.id, () => updateUser(user.id, { firstName: 'Renamed' }))).toBe(false);
  });

  it('radiologist_details rows added and removed are announced', async () => {
    const user = await buildUser(server.db, { role: 'RADIOLOGIST' });
    const remove = () => server.db.delete(radiologistDetails).where(eq(radiologistDetails.userId, user.id));
    expect(await dropped(user.id, remove)).toBe(true);
    const add = () => server.db.insert(radiologistDetails).values({ userId: user.id, userType: 'REPORTER' });
    expect(await dropped(user.id, add)).toBe(true);
    expect(cache().peek(user.id)).toBeUndefined();
    expect((await cache().load(user.id))?.userType).toBe('REPORTER');
  });

  it('a rolled-back change announces nothing', async () => {
    const user = await buildUser(server.db);
    const rolledBack = () =>
      server.db
        .transaction(async (tx) => {
          await tx.update(users).set({ status: 'INACTIVE' }).where(eq(users.id, user.id));
          tx.rollback();
        })
        .catch(() => undefined);
    expect(await dropped(user.id, rolledBack)).toBe(false);
    expect(cache().peek(user.id)?.status).toBe('ACTIVE');
  });
});
