import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { newIp } from '../test/throttle-test-helpers.ts';

// TRUST_PROXY with the proxy's address: behind a proxy that appends to X-Forwarded-For (nginx's
// $proxy_add_x_forwarded_for), a client writing its own leftmost entries is still counted by the
// address the proxy saw, so rotating them does not escape the per-IP limit.
const LIMIT = 3;
let server: TTestServer;

beforeAll(async () => {
  server = await startTestServer({
    env: { TRUST_PROXY: '127.0.0.1, ::1', AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT) },
  });
});

afterAll(async () => {
  await server.close();
});

describe('TRUST_PROXY as the proxies addresses', () => {
  it('counts the address the proxy saw, whatever the client wrote before it', async () => {
    const client = newIp();
    const statuses: number[] = [];
    for (let index = 0; index <= LIMIT; index++) {
      const response = await server.request('GET', '/api/v1/auth/password-policy', {
        headers: { 'x-forwarded-for': `${newIp()}, ${client}` },
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429]);
  });
});
