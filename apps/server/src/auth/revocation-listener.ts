import type { TDatabase } from '../db/client.ts';
import { listenToChannel } from '../db/pg-channel-listener.ts';
import {
  EVERY_USER,
  onLocalHold,
  onLocalRevocation,
  REVOCATION_CHANNEL,
  type RevocationCache,
} from './revocation.ts';

export type TListenerLogger = {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
};

/**
 * Keeps the revocation cache in step with every replica: drops a user's entry when this process or
 * another one announces a change (the NOTIFY arrives after the commit of the change; a change this
 * process publishes inside a transaction holds the user out of the cache until then). On PostgreSQL a
 * dedicated connection LISTENs; while it is down the cache is bypassed (every check reads the
 * database) and it restarts empty once LISTEN is back, since notifications may have been missed
 * meanwhile. PGlite is one process: its own listen() suffices. The listening connection is also the
 * cache's barrier (RevocationCache.sync): a round trip on it brings every NOTIFY committed before.
 */
export async function startRevocationListener(
  database: TDatabase,
  cache: RevocationCache,
  log: TListenerLogger,
): Promise<() => Promise<void>> {
  const offRevocation = onLocalRevocation((userId) => cache.invalidate(userId));
  const offHold = onLocalHold((userId) => cache.hold(userId));
  const offLocal = () => {
    offRevocation();
    offHold();
  };

  // Not trusted until LISTEN is in place (PGlite: at once, without a connection to lose).
  if (!database.pglite) cache.reliable = false;
  const stopListening = await listenToChannel(
    database,
    REVOCATION_CHANNEL,
    (payload) => {
      if (payload === EVERY_USER) cache.clear();
      else if (payload) cache.invalidate(payload);
    },
    log,
    {
      applicationName: 'ris-revocation-listen',
      lostMessage: 'revocation listener lost its connection; checking tokens against the database',
      onListening: () => {
        // Changes made while nobody listened are unknown: start from an empty cache.
        cache.clear();
        cache.reliable = true;
      },
      onLost: () => {
        cache.reliable = false;
        cache.clear();
      },
    },
  );
  // Each request waits for this before trusting the cache (RevocationCache.sync).
  cache.useBarrier(stopListening.sync);
  return async () => {
    cache.useBarrier(async () => false);
    offLocal();
    await stopListening();
  };
}
