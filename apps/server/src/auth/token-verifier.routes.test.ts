import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSessions, users } from '../db/schema/index.ts';
import { tokenFor } from '../test/auth-helpers.ts';
import { buildOrganisation, buildUser } from '../test/factories.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { publishUserChange } from './revocation.ts';

// Each of the verifier's checks (IdTokenVerifier) on its own: one fact of the user changes directly
// in the database, everything else left as it was (sessions live, tokens_valid_after untouched, same
// organisation), and the change is only announced, as any writer must. A still-valid ID token must
// then be refused (or, for a role, carry the new one) by that one check, not by another. Disabling a
// user or moving them out of their organisation also ends their sessions (the users trigger,
// migration 0010): those tests bring the sessions back to isolate the status and organisation checks.
let server: TTestServer;

const probe = async (secured: FastifyInstance) => {
  secured.get('/probe/me', async (request) => ({ role: request.principal?.role ?? null }));
};

beforeAll(async () => {
  server = await startTestServer({ securedRoutes: probe });
});
afterAll(async () => {
  await server.close();
});

const me = (token: string) => server.request('GET', '/api/v1/probe/me', { token });

/** A user with a live session and its ID token, accepted before the change. */
async function signedInUser(): Promise<{ id: string; token: string }> {
  const user = await buildUser(server.db, { role: 'ADMIN' });
  const token = await tokenFor(server, user);
  expect((await me(token)).status).toBe(200);
  return { id: user.id, token };
}

async function expectRevoked(token: string): Promise<void> {
  const response = await me(token);
  expect(response.status, response.text).toBe(401);
  expect(response.json).toMatchObject({ error: { code: 'auth/id-token-revoked' } });
}

async function liveSessions(userId: string): Promise<number> {
  const rows = await server.db.select().from(authSessions).where(eq(authSessions.userId, userId));
  return rows.filter((row) => row.revokedAt === null).length;
}

/** Undoes the session revocation the users trigger makes (no announcement: it only widens access). */
async function reviveSessions(userId: string): Promise<void> {
  await server.db
    .update(authSessions)
    .set({ revokedAt: null, revokedReason: null })
    .where(eq(authSessions.userId, userId));
}

describe('the ID token verifier, one revocation reason at a time', () => {
  it('refuses the token of a user made INACTIVE directly, with every session left live', async () => {
    const user = await signedInUser();
    await server.db.update(users).set({ status: 'INACTIVE' }).where(eq(users.id, user.id));
    await reviveSessions(user.id);
    await publishUserChange(server.db, user.id);
    expect(await liveSessions(user.id)).toBe(1);
    await expectRevoked(user.token);
  });

  it('serves the current role, not the one the token was signed with', async () => {
    const user = await signedInUser();
    await server.db.update(users).set({ role: 'TRANSCRIPTIONIST' }).where(eq(users.id, user.id));
    await publishUserChange(server.db, user.id);
    expect((await me(user.token)).json).toEqual({ role: 'TRANSCRIPTIONIST' });
  });

  it('refuses the token of a user moved to another organisation, session and status unchanged', async () => {
    const user = await signedInUser();
    const elsewhere = await buildOrganisation(server.db);
    await server.db.update(users).set({ organisationId: elsewhere.id }).where(eq(users.id, user.id));
    await reviveSessions(user.id);
    await publishUserChange(server.db, user.id);
    expect(await liveSessions(user.id)).toBe(1);
    await expectRevoked(user.token);
  });

  it('refuses a token issued before tokens_valid_after (sign-out-all, password reset) with its session live', async () => {
    const user = await signedInUser();
    await server.db
      .update(users)
      .set({ tokensValidAfter: sql`now() + interval '5 seconds'` })
      .where(eq(users.id, user.id));
    await publishUserChange(server.db, user.id);
    expect(await liveSessions(user.id)).toBe(1);
    await expectRevoked(user.token);
  });

  it('refuses the token of a revoked session (sign-out) while tokens_valid_after is untouched', async () => {
    const user = await signedInUser();
    await server.db
      .update(authSessions)
      .set({ revokedAt: sql`now()`, revokedReason: 'sign_out' })
      .where(eq(authSessions.userId, user.id));
    await publishUserChange(server.db, user.id);
    const [row] = await server.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.tokensValidAfter).toBeNull();
    await expectRevoked(user.token);
  });
});
