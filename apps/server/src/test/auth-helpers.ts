// Sign-in helpers for route tests of any feature.
import type { TSessionResponse } from '@ris/domain';
import { eq } from 'drizzle-orm';
import type { TPrincipal } from '../auth/principal.ts';
import { issueSession } from '../auth/sign-in.ts';
import { users } from '../db/schema/index.ts';
import { buildUser } from './factories.ts';
import type { TTestServer } from './test-server.ts';

/** Signs in over HTTP (the real route: argon2, rate limits, audit) and returns the session. */
export async function signIn(
  server: TTestServer,
  email: string,
  password: string,
): Promise<TSessionResponse> {
  const response = await server.request('POST', '/api/v1/auth/sign-in', { body: { email, password } });
  if (response.status !== 200)
    throw new Error(`sign-in of ${email} failed: ${response.status} ${response.text}`);
  return response.json as TSessionResponse;
}

/**
 * An ID token for a user without the password round trip (no argon2): a real session row and a real
 * token, accepted by the verifier exactly like one from sign-in. For route tests of other features.
 */
export async function tokenFor(server: TTestServer, user: { id: string }): Promise<string> {
  const [row] = await server.db.select().from(users).where(eq(users.id, user.id));
  if (!row) throw new Error(`no user ${user.id}`);
  const session = await issueSession(server.identity.context, row, 'test', {
    ip: '127.0.0.1',
    userAgent: 'test',
  });
  return session.body.id_token;
}

/**
 * An admin's principal as the verifier gives it for a signed-in user, for tests that resolve scopes
 * or criteria without a request (loadScope, resolveWorklistCriteria).
 */
export function adminPrincipal(user: { id: string; email: string }, organisationId: string): TPrincipal {
  return {
    userId: user.id,
    email: user.email,
    organisationId,
    role: 'ADMIN',
    userType: null,
    facilityIds: [],
    sessionId: '',
    issuedAt: 0,
  };
}

/** An ID token (tokenFor) of a new admin of `organisationId`: an organisation's own, or another's caller. */
export async function adminTokenFor(server: TTestServer, organisationId: string): Promise<string> {
  return tokenFor(server, await buildUser(server.db, { role: 'ADMIN', organisationId }));
}
