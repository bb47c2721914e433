// Part of the authentication concern: a connection keeps the access it was granted only while it
// still holds. Sign-out, revocation or disabling ends it; a change of assignment, collaboration toggle
// or report status that changes what the policy says makes the client reconnect and authenticate again
// (so its provider learns the new scope: read-write, readonly, or refused). Such changes made on
// another replica arrive by PostgreSQL NOTIFY (COLLABORATION_ACCESS_CHANNEL).
import { randomUUID } from 'node:crypto';
import type { Connection, Hocuspocus } from '@hocuspocus/server';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { RevocationCache } from '../auth/revocation.ts';
import type { TDatabase } from '../db/client.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { listenToChannel } from '../db/pg-channel-listener.ts';
import { currentPrincipal, watchUserChanges } from '../access/user-changes.ts';
import { isClientContext, type TClientContext } from './collaboration-context.ts';
import { reportGrantFor } from '../features/reports/report-grant.ts';
import { RECONNECT } from './store-guards.ts';

/**
 * PostgreSQL channel on which a replica tells the others that a study's or report's access may have
 * changed (payload `{replica}:study:{id}` or `{replica}:report:{id}`), so that each re-checks its own
 * connections: the domain events that announce it are emitted only in the process that made it.
 */
export const COLLABORATION_ACCESS_CHANNEL = 'ris_collab_access';

const ANNOUNCEMENT = /^([0-9a-f-]{36}):(study|report):([0-9a-f-]{36})$/;

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
        // Same access under a new role or type: the connection goes on as the user is now (its next
        // changes are credited and re-checked at store with the current role).
        else if (principal) context.principal = principal;
      }
    }
  }

  function recheck(match: (context: TClientContext) => boolean): void {
    recheckConnections(match).catch((error: unknown) =>
      log.error({ err: error }, 'collaboration access recheck failed'),
    );
  }

  const replica = randomUUID();
  const matcher = (kind: 'study' | 'report', id: string) => (context: TClientContext) =>
    kind === 'study' ? context.studyId === id : context.reportId === id;
  /** Re-checks here at once, and tells the other replicas (after the change's commit: events come then). */
  function changed(kind: 'study' | 'report', id: string): void {
    recheck(matcher(kind, id));
    db.execute(sql`SELECT pg_notify(${COLLABORATION_ACCESS_CHANNEL}, ${`${replica}:${kind}:${id}`})`).catch(
      (error: unknown) => log.error({ err: error }, 'announcing a collaboration access change failed'),
    );
  }
  const unsubscribe = [
    events.on('worklist.item.changed', ({ item }) => changed('study', item.id)),
    events.on('worklist.item.deleted', ({ id }) => changed('study', id)),
    events.on('report.status.changed', ({ reportId }) => changed('report', reportId)),
  ];
  const stopListening = await listenToChannel(
    database,
    COLLABORATION_ACCESS_CHANNEL,
    (payload) => {
      const match = ANNOUNCEMENT.exec(payload ?? '');
      const [, from, kind, id] = match ?? [];
      if (from && from !== replica && id) recheck(matcher(kind === 'study' ? 'study' : 'report', id));
    },
    log,
    {
      applicationName: 'ris-collaboration-access',
      // Announcements made while nobody listened are unknown: check every connection.
      onListening: (reconnected) => {
        if (reconnected) recheck(() => true);
      },
    },
  );
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
    await stopListening();
    await stopWatchingUsers();
  };
}
