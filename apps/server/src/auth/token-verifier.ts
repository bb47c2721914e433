import { idTokenRevoked } from './auth-errors.ts';
import type { IdTokens } from './id-tokens.ts';
import type { TokenVerifier, TPrincipal, TSessionClaims } from './principal.ts';
import type { RevocationCache } from './revocation.ts';

/**
 * The one verifier for HTTP, socket.io and Hocuspocus: a well-signed, unexpired token (IdTokens) of
 * an ACTIVE user, issued after the user's tokens_valid_after, for a session that is not revoked, of
 * the organisation the user still belongs to. The principal carries the user's current role and
 * radiologist type, not the token's. All of that comes from the in-memory revocation cache, kept
 * current by the NOTIFYs of every change to the user (the tables' triggers, migrations 0006 and 0010,
 * whoever writes them; publishUserChange for this process at once). Before the cache is read,
 * RevocationCache.sync() makes sure every change committed before this request has been heard: a
 * token that worked one request earlier is refused on the very next one after its user was
 * disabled, moved or demoted, on every replica. A warm check costs no query of its own, one round trip
 * on the LISTEN connection shared by the requests that arrive together.
 */
export class IdTokenVerifier implements TokenVerifier {
  readonly #tokens: IdTokens;
  readonly #cache: RevocationCache;

  constructor(tokens: IdTokens, cache: RevocationCache) {
    this.#tokens = tokens;
    this.#cache = cache;
  }

  async verify(token: string): Promise<TPrincipal> {
    return this.verifySession(this.#tokens.verify(token));
  }

  /** The checks of verify() after the signature: for a session the server itself vouched for elsewhere. */
  async verifySession(claims: TSessionClaims): Promise<TPrincipal> {
    // Only well-signed, unexpired tokens wait for the barrier; unsynced (not listening): the database.
    const synced = await this.#cache.sync();
    let state = (synced ? this.#cache.peek(claims.sub) : undefined) ?? null;
    if (!state || (!state.liveSessions.has(claims.sid) && !state.deadSessions.has(claims.sid))) {
      // Unknown user, or a session this process has not heard of (created by another replica).
      state = await this.#cache.load(claims.sub);
      if (state && !state.liveSessions.has(claims.sid)) state.deadSessions.add(claims.sid);
    }
    if (
      !state ||
      state.status !== 'ACTIVE' ||
      claims.iat < state.validAfterSeconds ||
      !state.liveSessions.has(claims.sid) ||
      // Moved to another organisation (or out of one): nothing signed for the old one may be used.
      state.organisationId !== claims.org
    ) {
      throw idTokenRevoked();
    }
    // Role and radiologist type are the user's current ones, not those the token was signed with.
    const cache = this.#cache;
    const { sub: userId } = claims;
    const { organisationId } = state;
    return {
      userId,
      email: claims.email,
      organisationId,
      role: state.role,
      userType: state.userType,
      facilityIds: claims.fac,
      sessionId: claims.sid,
      issuedAt: claims.iat,
      // Read at each use (a socket's principal lives for the connection), from the same cache.
      assignedFacilityIds: async () =>
        organisationId === null ? null : cache.facilityIdsOf(userId, organisationId),
    };
  }
}
