import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { newIp } from '../test/throttle-test-helpers.ts';

// Redis going away under a running server: the auth routes' per-IP limit stops counting but lets
// every request through at once, and the lost connection is an error the server handles (ioredis
// prints "Unhandled error event" for each failed reconnection when nobody listens).
const LIMIT = 2;
const redisUrl = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

/** A TCP relay to the test Redis that can be cut and opened again on the same port. */
function relay() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(redisUrl.port || 6379), redisUrl.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        resolve(address !== null && typeof address === 'object' ? address.port : port);
      });
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  /** Connections relayed now (each is a client socket and its upstream socket). */
  const open = () => sockets.size / 2;
  return { listen, cut, open };
}

let server: TTestServer;
const link = relay();
let port = 0;
/** The server's Redis connections (rate limit, realtime, collaboration) before the outage. */
let connections = 0;
const consoleError = vi.spyOn(console, 'error');

beforeAll(async () => {
  port = await link.listen(0);
  server = await startTestServer({
    env: {
      REDIS_URL: `redis://127.0.0.1:${port}`,
      TRUST_PROXY: 'true',
      AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT),
    },
  });
});

afterAll(async () => {
  // Redis back and every client reconnected first: the collaboration's client cannot quit without
  // its connection (the server's shutdown delay would end it; a test would hang).
  await link.listen(port);
  const deadline = Date.now() + 20_000;
  while (link.open() < connections && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await server.close();
  consoleError.mockRestore();
});

async function policy(ip: string): Promise<number> {
  const response = await server.request('GET', '/api/v1/auth/password-policy', {
    headers: { 'x-forwarded-for': ip },
  });
  return response.status;
}

describe('auth rate limit while Redis is away', () => {
  it('lets requests through without waiting, and handles the lost connection', async () => {
    const ip = newIp();
    expect(await policy(ip)).toBe(200);
    connections = link.open();
    await link.cut();
    const started = Date.now();
    const statuses: number[] = [];
    for (let index = 0; index < LIMIT + 3; index++) statuses.push(await policy(ip));
    expect(statuses).toEqual(Array<number>(LIMIT + 3).fill(200));
    // Each request used to wait for a reconnection attempt (up to 2 s each as they backed off).
    expect(Date.now() - started).toBeLessThan(2_000);
    const unhandled = consoleError.mock.calls.filter((call) => String(call[0]).includes('Unhandled error'));
    expect(unhandled).toEqual([]);
  });
});
