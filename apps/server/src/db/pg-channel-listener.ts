import type pg from 'pg';
import type { TDatabase } from './client.ts';

export type TChannelListenerLogger = {
  warn(object: object, message: string): void;
};

export type TChannelListenerOptions = {
  /** application_name of the dedicated connection (shows in pg_stat_activity). */
  applicationName: string;
  /**
   * LISTEN is in place: after the first connection (reconnected false), and again after every
   * reconnection (true) — notifications sent while nobody listened are lost, so re-check state then.
   * Never called on PGlite, whose listen() cannot lose a connection.
   */
  onListening?: (reconnected: boolean) => void;
  /** The connection was lost, or a connection attempt failed: notifications may be missed until onListening. */
  onLost?: (error: unknown) => void;
  /** What to log (warn) when the connection is lost. */
  lostMessage?: string;
};

/**
 * What listenToChannel returns: called, it stops listening. `sync()` resolves once every notification
 * committed before the call has been handed to onPayload (true), or false when it cannot tell (not
 * listening now: notifications may be missed). On PostgreSQL that is one round trip on the listening
 * connection: the server sends a session the notifications of transactions committed before its query
 * ahead of the query's answer. Calls made while a round trip is in flight share the next one.
 */
export type TChannelListening = (() => Promise<void>) & { sync(): Promise<boolean> };

const RETRY_MIN_MS = 500;
/** A sync() round trip slower than this answers false and the connection is replaced as lost. */
const SYNC_TIMEOUT_MS = 2_000;
const RETRY_MAX_MS = 30_000;

/**
 * LISTENs on a PostgreSQL channel and hands each notification's payload to onPayload; returns a stop
 * function. PGlite is one process: its own listen() suffices. On PostgreSQL a connection of its own,
 * outside the pool (LISTEN holds it for good, and the pool stays whole), reconnecting with back-off
 * when lost; the first attempt failing does not throw, it is retried the same way.
 */
export async function listenToChannel(
  database: TDatabase,
  channel: string,
  onPayload: (payload: string | undefined) => void,
  log: TChannelListenerLogger,
  options: TChannelListenerOptions,
): Promise<TChannelListening> {
  // Interpolated into LISTEN: a plain identifier only.
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name: ${channel}`);
  if (database.pglite) {
    // One in-process engine: a commit's notifications are handed over before its query resolves.
    const unlisten = await database.pglite.listen(channel, onPayload);
    return Object.assign(() => unlisten(), { sync: async () => true });
  }
  const pool = database.pool;
  if (!pool) throw new Error('database has neither a pool nor an embedded engine');
  const { default: pg } = await import('pg');
  const clientConfig: pg.ClientConfig = {
    ...pool.options,
    application_name: options.applicationName,
  };
  const lostMessage = options.lostMessage ?? `LISTEN ${channel} lost its connection; reconnecting`;

  let closed = false;
  let client: pg.Client | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let retryMs = RETRY_MIN_MS;
  const onNotification = (message: pg.Notification) => {
    if (message.channel === channel) onPayload(message.payload);
  };

  const lose = (error: unknown) => {
    const lost = client;
    client = null;
    if (lost) {
      lost.off('notification', onNotification);
      lost.end().catch(() => undefined);
    }
    options.onLost?.(error);
    if (closed || retryTimer) return;
    log.warn({ err: error }, lostMessage);
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect(true);
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };

  async function connect(reconnected: boolean): Promise<void> {
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
      await next.query(`LISTEN ${channel}`);
      client = next;
      retryMs = RETRY_MIN_MS;
      options.onListening?.(reconnected);
      if (closed) await stop();
    } catch (error) {
      next.off('notification', onNotification);
      next.end().catch(() => undefined);
      lose(error);
    }
  }

  async function stop(): Promise<void> {
    closed = true;
    if (retryTimer) clearTimeout(retryTimer);
    const current = client;
    client = null;
    if (current) {
      current.off('notification', onNotification);
      await current.end().catch(() => undefined);
    }
  }

  async function roundTrip(): Promise<boolean> {
    const current = client;
    if (!current) return false;
    let timer: NodeJS.Timeout | undefined;
    // A connection that hangs without failing must not hold every caller.
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), SYNC_TIMEOUT_MS);
      timer.unref();
    });
    const answered = current.query('').then(
      () => client === current,
      () => false,
    );
    try {
      const heard = await Promise.race([answered, timedOut]);
      // Hanging without failing: lost all the same (onLost, then a new connection).
      if (!heard && client === current) lose(new Error('the LISTEN connection did not answer'));
      return heard;
    } finally {
      clearTimeout(timer);
    }
  }
  let inFlight: Promise<boolean> | null = null;
  let next: Promise<boolean> | null = null;
  function sync(): Promise<boolean> {
    if (!inFlight) {
      inFlight = roundTrip().finally(() => {
        inFlight = null;
      });
      return inFlight;
    }
    // The round trip in flight may have been sent before this call: wait for the one after it.
    next ??= inFlight.then(() => {
      next = null;
      return sync();
    });
    return next;
  }

  await connect(false);
  return Object.assign(stop, { sync });
}
