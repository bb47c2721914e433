// Long-lived connections (realtime sockets, collaborative documents) keep their user's access only
// while it holds: both doors hear of every change to a user (watchUserChanges) and re-check the
// connection's principal against the user's state as it stands now (currentPrincipal).
import type { FastifyBaseLogger } from 'fastify';
import type { TPrincipal } from '../auth/principal.ts';
import {
  EVERY_USER,
  onLocalRevocation,
  REVOCATION_CHANNEL,
  type RevocationCache,
  type TUserTokenState,
} from '../auth/revocation.ts';
import type { TDatabase } from '../db/client.ts';
import { listenToChannel } from '../db/pg-channel-listener.ts';

export type TUserChangeHandlers = {
  /** A user's sessions, status or tokens changed (announced by this process or another replica). */
  changed(userId: string): void;
  /** News may have been missed (the LISTEN connection was lost and is back): check everyone. */
  resync(): void;
};

/**
 * Hears what the identity module announces when a user's tokens change (revocation.ts): in-process
 * at once, and by PostgreSQL NOTIFY after the change commits (the only signal other replicas get, and
 * the one that comes after a revoking transaction's commit). Returns a stop function.
 */
export async function watchUserChanges(
  database: TDatabase,
  handlers: TUserChangeHandlers,
  log: FastifyBaseLogger,
): Promise<() => Promise<void>> {
  const offLocal = onLocalRevocation((userId) => handlers.changed(userId));
  const stopListening = await listenToChannel(
    database,
    REVOCATION_CHANNEL,
    (payload) => {
      if (payload === EVERY_USER) handlers.resync();
      else if (payload) handlers.changed(payload);
    },
    log,
    {
      applicationName: 'ris-realtime-listen',
      lostMessage: 'realtime revocation listener lost its connection; reconnecting',
      // Changes made while nobody listened are unknown: check every socket.
      onListening: (reconnected) => {
        if (reconnected) handlers.resync();
      },
    },
  );
  return async () => {
    offLocal();
    await stopListening();
  };
}

/**
 * A connection's principal as it stands now, or null when its sign-in no longer holds: the verifier's
 * revocation checks (user ACTIVE, tokens not revoked after this one was issued, session live, same
 * organisation) against the user's state as just read, with the user's current role. Token expiry is not
 * checked again: a connection lives as long as its session, so the hourly token refresh does not cut live
 * updates, while revocation and disabling end it at once.
 */
export function currentPrincipal(state: TUserTokenState | null, principal: TPrincipal): TPrincipal | null {
  if (
    !state ||
    state.status !== 'ACTIVE' ||
    principal.issuedAt < state.validAfterSeconds ||
    !state.liveSessions.has(principal.sessionId) ||
    state.organisationId !== principal.organisationId
  ) {
    return null;
  }
  return { ...principal, role: state.role, userType: state.userType };
}

/**
 * currentPrincipal of a connection's principal against the user's state as of now (after the cache's
 * barrier, RevocationCache.current): checked on each message a connection sends, so a change committed
 * before the message applies to it even when its NOTIFY has not arrived yet.
 */
export async function principalNow(
  cache: RevocationCache,
  principal: TPrincipal,
): Promise<TPrincipal | null> {
  return currentPrincipal(await cache.current(principal.userId), principal);
}

/** True when a connection opened as `before` must authenticate again to get what `now` may do. */
export function accessChanged(before: TPrincipal, now: TPrincipal): boolean {
  return before.role !== now.role || before.userType !== now.userType;
}
