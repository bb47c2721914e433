import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TTx } from '../db/client.ts';
import { radiologistDetails, users } from '../db/schema/index.ts';
import { tokenFor } from '../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildUser } from '../test/factories.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { announceUserChange, publishUserChange } from './revocation.ts';

// A change of role, radiologist type or organisation applies to ID tokens already issued as soon as
// it is published (publishUserChange inside the changing transaction), not only at their expiry.
let server: TTestServer;

const probe = async (secured: FastifyInstance) => {
  secured.get('/probe/me', async (request) => ({
    role: request.principal?.role ?? null,
    user_type: request.principal?.userType ?? null,
    organisation_id: request.principal?.organisationId ?? null,
  }));
};

beforeAll(async () => {
  server = await startTestServer({ securedRoutes: probe });
});
afterAll(async () => {
  await server.close();
});

const me = (token: string) => server.request('GET', '/api/v1/probe/me', { token });
const getUser = (token: string, id: string) => server.request('GET', `/api/v1/user/${id}`, { token });

/** Changes a user the way an admin command must: the update and publishUserChange in one transaction. */
async function changeUser(userId: string, change: (tx: TTx) => Promise<unknown>): Promise<void> {
  await server.db.transaction(async (tx) => {
    await change(tx);
    await publishUserChange(tx, userId);
  });
  announceUserChange(userId);
}

describe('ID tokens follow changes of the user', () => {
  it('a demoted admin loses admin powers at once with the token signed while an admin', async () => {
    const facility = await buildFacility(server.db);
    const admin = await buildUser(server.db, {
      role: 'ADMIN',
      organisationId: facility.organisationId,
      facilities: [],
    });
    // A colleague the admin sees only as an admin (no shared facility).
    const other = await buildUser(server.db, {
      role: 'RADIOLOGIST',
      organisationId: facility.organisationId,
      facilities: [],
    });
    const token = await tokenFor(server, admin);
    expect((await getUser(token, other.id)).status).toBe(200);
    expect((await me(token)).json).toMatchObject({ role: 'ADMIN' });

    await changeUser(admin.id, (tx) =>
      tx.update(users).set({ role: 'TRANSCRIPTIONIST' }).where(eq(users.id, admin.id)),
    );
    expect((await me(token)).json).toMatchObject({ role: 'TRANSCRIPTIONIST' });
    const after = await getUser(token, other.id);
    expect(after.status).toBe(404);
  });

  it('the radiologist type in the principal is the current one (REPORTER rules apply at once)', async () => {
    const user = await buildUser(server.db, { role: 'RADIOLOGIST', userType: 'RADIOLOGIST' });
    const token = await tokenFor(server, user);
    expect((await me(token)).json).toMatchObject({ role: 'RADIOLOGIST', user_type: 'RADIOLOGIST' });
    await changeUser(user.id, (tx) =>
      tx
        .update(radiologistDetails)
        .set({ userType: 'REPORTER' })
        .where(eq(radiologistDetails.userId, user.id)),
    );
    expect((await me(token)).json).toMatchObject({ role: 'RADIOLOGIST', user_type: 'REPORTER' });
  });

  it('a token of a user moved to another organisation (or out of any) is refused as revoked', async () => {
    for (const target of [(await buildOrganisation(server.db)).id, null]) {
      const user = await buildUser(server.db);
      const token = await tokenFor(server, user);
      expect((await me(token)).status).toBe(200);
      await changeUser(user.id, (tx) =>
        tx.update(users).set({ organisationId: target }).where(eq(users.id, user.id)),
      );
      const response = await me(token);
      expect(response.status, String(target)).toBe(401);
      expect(response.json).toMatchObject({ error: { code: 'auth/id-token-revoked' } });
    }
  });

  it('publishing inside the transaction alone suffices: nothing stale is served after the commit', async () => {
    const facility = await buildFacility(server.db);
    const admin = await buildUser(server.db, {
      role: 'ADMIN',
      organisationId: facility.organisationId,
      facilities: [],
    });
    const token = await tokenFor(server, admin);
    expect((await me(token)).json).toMatchObject({ role: 'ADMIN' });
    await server.db.transaction(async (tx) => {
      await tx.update(users).set({ role: 'TRANSCRIPTIONIST' }).where(eq(users.id, admin.id));
      await publishUserChange(tx, admin.id);
    });
    // No announceUserChange: the cache holds the user out until the commit's NOTIFY arrives.
    expect((await me(token)).json).toMatchObject({ role: 'TRANSCRIPTIONIST' });
  });
});
