import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { listenToChannel } from '../../../db/pg-channel-listener.ts';
import type { WorklistCountCache } from './worklist-count-cache.ts';

/** NOTIFY channel on which every replica announces the organisations whose studies it changed. */
export const WORKLIST_CHANGES_CHANNEL = 'ris_worklist_changes';

/**
 * Keeps the count cache in step with every committed study change. In this process: the domain
 * events (emitted after commit) invalidate the organisation at once, and the organisations changed
 * in one tick are announced to the other replicas with one NOTIFY each (payload `<replica> <org>`).
 * From the others: a dedicated connection LISTENs. While that connection is down nothing is served
 * from the cache (`reliable` false), and it restarts empty once LISTEN is back, since announcements
 * may have been missed meanwhile. PGlite is one process: its own listen() suffices.
 */
export async function startCountInvalidation(
  app: FastifyInstance,
  cache: WorklistCountCache,
): Promise<() => Promise<void>> {
  const { database } = app.deps;
  const replica = randomUUID();
  const pending = new Set<string>();
  let flushing = false;
  let stopped = false;

  const announce = () => {
    flushing = false;
    if (stopped) return;
    for (const organisationId of pending) {
      database.db
        .execute(sql`select pg_notify(${WORKLIST_CHANGES_CHANNEL}, ${`${replica} ${organisationId}`})`)
        .catch((error: unknown) => app.log.warn({ err: error }, 'worklist change NOTIFY failed'));
    }
    pending.clear();
  };
  const changed = (organisationId: string) => {
    cache.invalidate(organisationId);
    pending.add(organisationId);
    if (!flushing) {
      flushing = true;
      setImmediate(announce);
    }
  };
  const offChanged = app.events.on('worklist.item.changed', ({ organisationId }) => changed(organisationId));
  const offDeleted = app.events.on('worklist.item.deleted', ({ organisationId }) => changed(organisationId));

  if (!database.pglite) cache.reliable = false;
  const stopListening = await listenToChannel(
    database,
    WORKLIST_CHANGES_CHANNEL,
    (payload) => {
      const [from, organisationId] = (payload ?? '').split(' ');
      if (organisationId && from !== replica) cache.invalidate(organisationId);
    },
    app.log,
    {
      applicationName: 'ris-worklist-listen',
      lostMessage: 'worklist change listener lost its connection; counting without the cache',
      onListening: () => {
        cache.clear();
        cache.reliable = true;
      },
      onLost: () => {
        cache.reliable = false;
        cache.clear();
      },
    },
  );
  return async () => {
    stopped = true;
    offChanged();
    offDeleted();
    await stopListening();
  };
}
