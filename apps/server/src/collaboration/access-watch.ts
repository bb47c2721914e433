// Part of the authentication concern: a connection keeps the access it was granted only while it
// still holds. Sign-out, revocation or disabling ends it; a change of assignment, collaboration toggle
// or report status that changes what the policy says makes the client reconnect and authenticate again
// (so its provider learns the new scope: read-write, readonly, or refused).
import type { Connection, Hocuspocus } from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import type { RevocationCache } from '../auth/revocation.ts';
import type { TDatabase } from '../db/client.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { currentPrincipal } from '../realtime/realtime-auth.ts';
import { watchUserChanges } from '../realtime/user-changes.ts';
import { isClientContext, type TClientContext } from './collaboration-context.ts';
import { reportGrantFor } from './report-access.ts';

/** Close code that makes the provider reconnect (Hocuspocus' "Reset Connection"). */
const RECONNECT = { code: 4205, reason: 'access-changed' };

type TAccessWatchDeps = {
  hocuspocus: Hocuspocus;
  database: TDatabase;
  events: DomainEvents;
  cache: RevocationCache;
  log: FastifyBaseLogger;
};

/** Starts watching; returns a stop function. */
export async function watchCollaborationAccess(deps: TAccessWatchDeps): Promise<() => Promise<void>> {
  const { hocuspocus, database, events, cache, log } = deps;
  const db = database.db;

  function clientConnections(match: (context: TClientContext) => boolean) {
    const found: { connection: Connection; context: TClientContext }[] = [];
    for (const document of hocuspocus.documents.values()) {
      for (const connection of document.getConnections()) {
        const context: unknown = connection.context;
        if (isClientContext(context) && match(context)) found.push({ connection, context });
      }
    }
    return found;
  }

  async function recheckConnections(match: (context: TClientContext) => boolean): Promise<void> {
    const byUser = new Map<string, { connection: Connection; context: TClientContext }[]>();
    for (const entry of clientConnections(match)) {
      const userId = entry.context.principal.userId;
      byUser.set(userId, [...(byUser.get(userId) ?? []), entry]);
    }
    for (const [userId, entries] of byUser) {
      // Read fresh: this news may reach us before the identity module's own listener.
      const state = await cache.load(userId);
      for (const { connection, context } of entries) {
        const principal = currentPrincipal(state, context.principal);
        const access = principal ? (await reportGrantFor(db, principal, context.reportId)).access : 'none';
        if (access !== context.access) connection.webSocket.close(RECONNECT.code, RECONNECT.reason);
      }
    }
  }

  function recheck(match: (context: TClientContext) => boolean): void {
    recheckConnections(match).catch((error: unknown) =>
      log.error({ err: error }, 'collaboration access recheck failed'),
    );
  }

  const unsubscribe = [
    events.on('worklist.item.changed', ({ item }) => recheck((context) => context.studyId === item.id)),
    events.on('worklist.item.deleted', ({ id }) => recheck((context) => context.studyId === id)),
    events.on('report.status.changed', ({ reportId }) => recheck((context) => context.reportId === reportId)),
  ];
  const stopWatchingUsers = await watchUserChanges(
    database,
    {
      changed: (userId) => recheck((context) => context.principal.userId === userId),
      resync: () => recheck(() => true),
    },
    log,
  );
  return async () => {
    for (const off of unsubscribe) off();
    await stopWatchingUsers();
  };
}
