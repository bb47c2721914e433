import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthenticated } from './auth-errors.ts';
import type { TokenVerifier } from './principal.ts';

/** The bearer token of a request, or null when there is no Authorization header. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const match = /^Bearer +([A-Za-z0-9._~+/=-]+) *$/i.exec(header);
  if (!match?.[1]) throw unauthenticated('The Authorization header must be "Bearer <token>".');
  return match[1];
}

/**
 * onRequest hook of the authenticated scope: verifies `Authorization: Bearer <id token>` and sets
 * request.principal, or answers 401 (UNAUTHENTICATED, auth/id-token-expired, auth/id-token-revoked).
 */
export function authenticate(verifier: TokenVerifier) {
  return async function authenticateRequest(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const token = bearerToken(request);
    if (token === null) throw unauthenticated();
    request.principal = await verifier.verify(token);
  };
}
