// Collaboration concern 4: several replicas share documents through Redis (REDIS_URL). A document
// open on two replicas exchanges its updates and awareness over Redis pub/sub, and only one replica
// stores it at a time (a Redis lock around onStoreDocument).
import type { Redis } from '@hocuspocus/extension-redis';

/** Key and channel prefix of the collaboration server in Redis. */
const PREFIX = 'ris-collab';

/** How long a claim to push one REST write into a shared document holds (ms). */
const CLAIM_TTL_MS = 60_000;

/** The Hocuspocus Redis extension for a redis:// or rediss:// URL (loaded only with REDIS_URL). */
export async function redisExtension(redisUrl: string): Promise<Redis> {
  const { Redis } = await import('@hocuspocus/extension-redis');
  const url = new URL(redisUrl);
  const db = Number(url.pathname.replace(/^\//, '') || 0);
  return new Redis({
    host: url.hostname,
    port: Number(url.port || 6379),
    prefix: PREFIX,
    options: {
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      ...(Number.isInteger(db) && db > 0 ? { db } : {}),
      ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
      // Keep retrying while Redis is away; documents keep working on this replica meanwhile.
      maxRetriesPerRequest: null,
    },
  });
}

/**
 * Claims a one-off job among replicas (SET NX with an expiry): true on the first replica that asks,
 * false on every other. Used so that one REST write is pushed into a shared document only once.
 */
export function redisClaim(redis: Redis): (key: string) => Promise<boolean> {
  return async (key) => {
    const result = await redis.pub.set(`${PREFIX}:claim:${key}`, '1', 'PX', CLAIM_TTL_MS, 'NX');
    return result === 'OK';
  };
}
