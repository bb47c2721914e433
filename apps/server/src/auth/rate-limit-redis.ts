// The per-IP limit of the auth routes (AUTH_RATE_LIMIT_PER_MINUTE) across replicas: with REDIS_URL
// the counts live in Redis, so the limit holds for the whole deployment. Counted in each process's
// memory, every replica behind a round-robin proxy would allow the limit again (2 replicas: 2×).
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** Key prefix of the counts in Redis. */
export const AUTH_RATE_LIMIT_PREFIX = 'ris-auth-rate:';

export type TRateLimitRedis = { client: Redis; close(): Promise<void> };

/**
 * A Redis client for @fastify/rate-limit on REDIS_URL (loaded only then). While Redis is away its
 * commands fail at once (no offline queue: a sign-in never waits for a reconnection), the limiter
 * then lets requests through (the sign-in throttle, in the database, still protects accounts), the
 * outage is logged once and the client reconnects by itself.
 */
export async function rateLimitRedis(url: string, log: FastifyBaseLogger): Promise<TRateLimitRedis> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    connectTimeout: 1_000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: false,
  });
  let healthy = true;
  client.on('ready', () => {
    if (!healthy) log.info('auth rate limit: Redis connection restored');
    healthy = true;
  });
  // Without a listener ioredis prints every failed reconnection to stderr as an unhandled error.
  client.on('error', (error: unknown) => {
    if (healthy) log.warn({ err: error }, 'auth rate limit: Redis unreachable, not counting; retrying');
    healthy = false;
  });
  // The first counts need the connection (no offline queue): wait for it, or for its first failure.
  await new Promise<void>((resolve) => {
    client.once('ready', resolve);
    client.once('error', () => resolve());
  });
  return {
    client,
    async close() {
      // QUIT needs a connection; without one there is nothing to flush.
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}
