import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplicas, type TReplicaSet } from '../test/realtime-replicas.ts';
import { newIp } from '../test/throttle-test-helpers.ts';

// Two replicas on one Redis (REDIS_URL): the per-IP limit of the auth routes is counted once for the
// deployment, so requests alternating between replicas reach it at its count, not twice it.
const LIMIT = 4;
let set: TReplicaSet;

beforeAll(async () => {
  set = await startReplicas(2, { env: { TRUST_PROXY: 'true', AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
});

afterAll(async () => {
  await set.close();
});

async function policyFrom(index: number, ip: string): Promise<number> {
  const replica = set.replicas[index];
  if (!replica) throw new Error(`no replica ${index}`);
  const response = await fetch(`${replica.url}/api/v1/auth/password-policy`, {
    headers: { 'x-forwarded-for': ip },
  });
  await response.arrayBuffer();
  return response.status;
}

describe('auth rate limit across replicas (Redis)', () => {
  it('refuses the request past the limit whichever replica the earlier ones reached', async () => {
    // A new address at each run: the counts stay in Redis for the minute.
    const ip = newIp();
    const statuses: number[] = [];
    for (let index = 0; index <= LIMIT; index++) statuses.push(await policyFrom(index % 2, ip));
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429]);
    // Another address is counted apart.
    expect(await policyFrom(0, newIp())).toBe(200);
  });
});
