import type { TokenVerifier } from '../auth/principal.ts';
import { idTokenRevoked } from '../auth/auth-errors.ts';
import type { RevocationCache } from '../auth/revocation.ts';
import { currentPrincipal } from '../access/user-changes.ts';
import { AppError } from '../http/app-error.ts';
import { rooms, type TRealtimeSocket } from './realtime-rooms.ts';

/** An error socket.io hands to the client's `connect_error` listener: message plus `data.code`. */
export type TSocketError = Error & { data: { code: string } };

export function socketError(code: string, message: string): TSocketError {
  return Object.assign(new Error(message), { data: { code } });
}

/** What a client may be told about a failure: an AppError as is, anything else as INTERNAL. */
export function toSocketError(error: unknown): TSocketError {
  if (error instanceof AppError && error.status < 500) return socketError(error.code, error.message);
  return socketError('INTERNAL', 'The realtime server failed; try again.');
}

/**
 * The ID token of a handshake: `auth: { token }` (what the browser client sends), else an
 * `Authorization: Bearer` header (other clients). Null when neither is there.
 */
export function handshakeToken(handshake: TRealtimeSocket['handshake']): string | null {
  const auth: unknown = handshake.auth;
  if (auth && typeof auth === 'object' && 'token' in auth) {
    const token = auth.token;
    return typeof token === 'string' && token !== '' ? token : null;
  }
  const header = handshake.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer +([A-Za-z0-9._~+/=-]+) *$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * socket.io middleware: a connection is accepted only with a valid ID token of an active user, checked
 * by the same verifier as HTTP. The socket keeps its principal and joins its user's room; the user's
 * state is then read once more, so a revocation that lands while the socket was not yet in the room
 * (and so missed the recheck) still refuses it.
 */
export function authenticateSocket(verifier: TokenVerifier, cache: RevocationCache) {
  async function authenticate(socket: TRealtimeSocket): Promise<void> {
    const token = handshakeToken(socket.handshake);
    if (token === null) {
      throw socketError('UNAUTHENTICATED', 'Sign in first: the handshake needs auth.token (an ID token).');
    }
    const verified = await verifier.verify(token);
    await socket.join(rooms.user(verified.userId));
    const principal = currentPrincipal(await cache.load(verified.userId), verified);
    if (!principal) throw idTokenRevoked();
    socket.data.principal = principal;
    socket.data.worklistRooms = null;
  }
  return (socket: TRealtimeSocket, next: (error?: Error) => void): void => {
    authenticate(socket).then(
      () => next(),
      (error: unknown) => next(error instanceof Error && 'data' in error ? error : toSocketError(error)),
    );
  };
}
