import type { FastifyBaseLogger } from 'fastify';
import { EVERY_USER, onLocalRevocation, REVOCATION_CHANNEL } from '../auth/revocation.ts';
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
