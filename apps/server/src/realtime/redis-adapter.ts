import type { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';

export type TRedisAdapter = {
  /** socket.io adapter factory: `io.adapter(adapter)`. */
  adapter: ReturnType<typeof createAdapter>;
  close(): Promise<void>;
};

const RECONNECT_MAX_MS = 5_000;

/**
 * The socket.io Redis adapter on REDIS_URL: a message sent to a room on one replica reaches that
 * room's sockets on every replica (Redis pub/sub). The first connection must succeed, so a wrong URL
 * stops start-up instead of silently leaving each replica on its own; after that, outages are logged
 * once and the clients reconnect by themselves.
 */
export async function connectRedisAdapter(url: string, log: FastifyBaseLogger): Promise<TRedisAdapter> {
  // Loaded only with REDIS_URL: the Redis client is ~650 modules, most of a second at start-up.
  const [{ createAdapter }, { createClient }] = await Promise.all([
    import('@socket.io/redis-adapter'),
    import('redis'),
  ]);
  let started = false;
  const pub = createClient({
    url,
    socket: {
      reconnectStrategy: (retries: number, cause: Error) =>
        started ? Math.min(100 * 2 ** retries, RECONNECT_MAX_MS) : cause,
    },
  });
  const sub = pub.duplicate();
  for (const [role, client] of [
    ['publisher', pub],
    ['subscriber', sub],
  ] as const) {
    let healthy = true;
    client.on('ready', () => {
      if (!healthy) log.info({ role }, 'realtime Redis connection restored');
      healthy = true;
    });
    client.on('error', (error: unknown) => {
      if (started && healthy) log.error({ err: error, role }, 'realtime Redis connection lost; retrying');
      healthy = false;
    });
  }
  try {
    await Promise.all([pub.connect(), sub.connect()]);
  } catch (error) {
    for (const client of [pub, sub]) if (client.isOpen) client.destroy();
    throw new Error(`REDIS_URL: cannot connect to Redis (${String(error)})`, { cause: error });
  }
  started = true;
  return {
    adapter: createAdapter(pub, sub),
    async close() {
      await Promise.allSettled([pub.close(), sub.close()]);
    },
  };
}
