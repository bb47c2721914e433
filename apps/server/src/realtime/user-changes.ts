import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { onLocalRevocation, REVOCATION_CHANNEL } from '../auth/revocation.ts';
import type { TDatabase } from '../db/client.ts';

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

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
  const onPayload = (payload: string | undefined) => {
    if (payload) handlers.changed(payload);
  };
  if (database.pglite) {
    const unlisten = await database.pglite.listen(REVOCATION_CHANNEL, onPayload);
    return async () => {
      offLocal();
      await unlisten();
    };
  }
  const pool = database.pool;
  if (!pool) throw new Error('database has neither a pool nor an embedded engine');
  // A connection of its own, outside the pool: LISTEN holds it for good, and the pool stays whole.
  const { default: pg } = await import('pg');
  const clientConfig: pg.ClientConfig = { ...pool.options, application_name: 'ris-realtime-listen' };

  let closed = false;
  let client: pg.Client | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let retryMs = RETRY_MIN_MS;
  const onNotification = (message: pg.Notification) => {
    if (message.channel === REVOCATION_CHANNEL) onPayload(message.payload);
  };

  const lose = (error: unknown) => {
    const lost = client;
    client = null;
    if (lost) {
      lost.off('notification', onNotification);
      lost.end().catch(() => undefined);
    }
    if (closed || retryTimer) return;
    log.warn({ err: error }, 'realtime revocation listener lost its connection; reconnecting');
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect(true);
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };

  async function connect(isRetry: boolean): Promise<void> {
    if (closed) return;
    const next = new pg.Client(clientConfig);
    next.on('notification', onNotification);
    next.on('error', (error) => {
      if (client === next) lose(error);
    });
    next.on('end', () => {
      if (client === next) lose(new Error('connection ended'));
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${REVOCATION_CHANNEL}`);
      client = next;
      retryMs = RETRY_MIN_MS;
      // Changes made while nobody listened are unknown: check every socket.
      if (isRetry) handlers.resync();
      if (closed) await stop();
    } catch (error) {
      next.off('notification', onNotification);
      next.end().catch(() => undefined);
      lose(error);
    }
  }

  async function stop(): Promise<void> {
    closed = true;
    offLocal();
    if (retryTimer) clearTimeout(retryTimer);
    const current = client;
    client = null;
    if (current) {
      current.off('notification', onNotification);
      await current.end().catch(() => undefined);
    }
  }

  await connect(false);
  return stop;
}
