import type { TRadiologistUserType, TRole } from '@ris/domain';

/**
 * Who is calling: the verified claims of an ID token, with the user's current role, radiologist type
 * and organisation (from the verifier's cache, not from the token). Routes read it from
 * `request.principal` (set by the authenticate hook). Scope (which facilities) is resolved at each use
 * by access/scope.ts, from the verifier's cache of the user (or the database), so a change of
 * assignment applies at once, not only at the next token. Commands that change a role, organisation
 * or facility assignment call publishUserChange (auth/revocation.ts) inside their transaction.
 */
export type TPrincipal = {
  userId: string;
  email: string;
  organisationId: string | null;
  role: TRole | null;
  /** RADIOLOGIST or REPORTER for radiologists; null for every other role. */
  userType: TRadiologistUserType | null;
  /** Facility ids at the time the token was issued (for clients; the server re-reads scope). */
  facilityIds: string[];
  /** The sign-in session (refresh-token family) this token belongs to. */
  sessionId: string;
  /** Seconds since the epoch, from the token's `iat`. */
  issuedAt: number;
  /**
   * The facilities the user is assigned to now, from the verifier's cache (kept current by
   * publishUserChange on every replica); null when it cannot tell. Absent: access/scope.ts reads the
   * database.
   */
  assignedFacilityIds?: () => Promise<readonly string[] | null>;
};

/**
 * What the server signed about a sign-in session, by an ID token or by another credential made from
 * one (the viewer's cookie, features/viewers): the same user, session and revocation checks apply.
 */
export type TSessionClaims = {
  sub: string;
  email: string;
  org: string | null;
  fac: string[];
  sid: string;
  iat: number;
};

/** Verifies an ID token for HTTP, socket.io and Hocuspocus alike. */
export interface TokenVerifier {
  /**
   * Resolves the principal, or rejects with an AppError: 401 `auth/id-token-expired`,
   * `auth/id-token-revoked` (user disabled, signed out everywhere, session revoked, user moved to
   * another organisation) or
   * `UNAUTHENTICATED` (missing, malformed or wrongly signed token).
   */
  verify(token: string): Promise<TPrincipal>;
  /**
   * The principal of session claims whose signature the caller has checked itself, with the same
   * revocation checks and errors as verify() (user not ACTIVE, session revoked, claims issued before
   * tokens_valid_after, user moved out of the organisation).
   */
  verifySession(claims: TSessionClaims): Promise<TPrincipal>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authenticate hook on every route of the authenticated scope. */
    principal: TPrincipal | null;
  }
}
