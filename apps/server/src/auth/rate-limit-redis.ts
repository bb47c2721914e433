// The per-IP limit of the auth routes (AUTH_RATE_LIMIT_PER_MINUTE) across replicas: with REDIS_URL
// the counts live in Redis, so the limit holds for the whole deployment. Counted in each process's
// memory, every replica behind a round-robin proxy would allow the limit again (2 replicas: 2×).
import type { Redis } from 'ioredis';

/** Key prefix of the counts in Redis. */
export const AUTH_RATE_LIMIT_PREFIX = 'ris-auth-rate:';

/**
 * A Redis client for @fastify/rate-limit on REDIS_URL (loaded only then). Commands fail fast while
 * Redis is away (the limiter then lets requests through: the sign-in throttle, in the database,
 * still protects accounts) and the client reconnects by itself.
 */
export async function rateLimitRedis(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  return new Redis(url, { connectTimeout: 1_000, maxRetriesPerRequest: 1, lazyConnect: false });
}
