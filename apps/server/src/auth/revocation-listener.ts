import type pg from 'pg';
import type { TDatabase } from '../db/client.ts';
import { onLocalHold, onLocalRevocation, REVOCATION_CHANNEL, type RevocationCache } from './revocation.ts';

export type TListenerLogger = {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
};

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

/**
 * Keeps the revocation cache in step with every replica: drops a user's entry when this process or
 * another one announces a change (the NOTIFY arrives after the commit of the change; a change this
 * process publishes inside a transaction holds the user out of the cache until then). On PostgreSQL a dedicated pooled connection LISTENs; if it is lost
 * the cache is bypassed (every check reads the database) until it reconnects, since notifications
 * may have been missed meanwhile. PGlite is one process: its own listen() suffices.
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
  const onPayload = (payload: string | undefined) => {
    if (payload) cache.invalidate(payload);
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

  let closed = false;
  let client: pg.PoolClient | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let retryMs = RETRY_MIN_MS;

  const onNotification = (message: pg.Notification) => {
    if (message.channel === REVOCATION_CHANNEL) onPayload(message.payload);
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };

  const lose = (error: unknown) => {
    cache.reliable = false;
    cache.clear();
    const lost = client;
    client = null;
    if (lost) {
      lost.off('notification', onNotification);
      lost.release(error instanceof Error ? error : new Error(String(error)));
    }
    if (!closed) {
      log.warn(
        { err: error },
        'revocation listener lost its connection; checking tokens against the database',
      );
      scheduleReconnect();
    }
  };

  async function connect(): Promise<void> {
    if (closed || !pool) return;
    let next: pg.PoolClient | null = null;
    try {
      next = await pool.connect();
      next.on('notification', onNotification);
      next.on('error', (error) => {
        if (client === next) lose(error);
      });
      await next.query(`LISTEN ${REVOCATION_CHANNEL}`);
      client = next;
      // Changes made while nobody listened are unknown: start from an empty cache.
      cache.clear();
      cache.reliable = true;
      retryMs = RETRY_MIN_MS;
      if (closed) await stop();
    } catch (error) {
      if (next && client !== next) next.release(true);
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
      await current.query(`UNLISTEN ${REVOCATION_CHANNEL}`).catch(() => undefined);
      current.release();
    }
  }

  cache.reliable = false;
  await connect();
  return stop;
}
