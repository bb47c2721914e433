// Two replicas vs one, through the round-robin test balancer (e2e/support/round-robin-proxy.ts): two
// built server processes on one PostgreSQL database (demo seed) and Redis. Measures
// - the worklist (GET /api/v1/worklist, the list's first page as the screen asks) with autocannon
//   for BENCH_SECONDS (default 8) at 20 connections: req/s and p99, the balancer routed to replica A
//   only, then to both;
// - realtime fan-out to BENCH_SOCKETS (default 1,000) sockets connected through the balancer (so
//   spread over both replicas): one worklist change made on replica A, the time from sending it
//   until each socket has the message, BENCH_EVENTS (default 10) times.
// Loopback only. The load generator, the socket clients and the balancer run on the same machine
// as the replicas, so the figures are a floor; the machine's load is printed with them.
// Run: TEST_DATABASE_URL=postgres://… TEST_REDIS_URL=redis://… node e2e/bench/replicas-bench.ts
// (after npm run build; part of npm run bench, skipped without TEST_DATABASE_URL).
import { execSync } from 'node:child_process';
import os from 'node:os';
import { LISTEN_TOPIC_EVENT, REALTIME_MESSAGE_EVENT, SOCKET_PATH, type TRealtimeMessage } from '@ris/domain';
import { io, type Socket } from 'socket.io-client';
import { runLoad } from '../../apps/server/src/bench/worklist-bench-http.ts';
import { api, apiSignIn, type TApiUser } from '../support/api.ts';
import { startReplicaWorld, type TReplicaWorld } from '../support/replica-world.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10);
const CONNECTIONS = 20;
const WORKLIST = '/api/v1/worklist?date_range_type=LAST_1_MONTH&limit=50';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const uptime = (): string => execSync('uptime').toString().trim();

async function worklistLoad(world: TReplicaWorld, admin: TApiUser, upstreams: string[]) {
  world.proxy.route(upstreams);
  // Warm-up: the first requests compile the queries' code paths on each replica.
  await runLoad('autocannon', `${world.proxy.url}${WORKLIST}`, admin.token, 2, CONNECTIONS);
  const result = await runLoad(
    'autocannon',
    `${world.proxy.url}${WORKLIST}`,
    admin.token,
    SECONDS,
    CONNECTIONS,
  );
  return { ...result, load: uptime() };
}

function connect(url: string, token: string): Promise<Socket> {
  const socket = io(url, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: { token },
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

async function fanOut(world: TReplicaWorld, admin: TApiUser) {
  world.proxy.route([world.a.url, world.b.url]);
  const sockets: Socket[] = [];
  const waiting = new Map<Socket, { id: string; resolve: () => void }>();
  const arrivals: number[] = [];
  try {
    // In batches, as many browsers would arrive: not 1,000 handshakes in one tick.
    for (let start = 0; start < SOCKETS; start += 100) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(100, SOCKETS - start) }, () => connect(world.proxy.url, admin.token)),
      );
      await Promise.all(batch.map((socket) => socket.emitWithAck(LISTEN_TOPIC_EVENT, { topic: 'worklist' })));
      sockets.push(...batch);
    }
    const perReplica = [world.a.url, world.b.url].map(
      (url) => world.proxy.upgrades.filter((upstream) => upstream === url).length,
    );
    for (const socket of sockets) {
      socket.on(REALTIME_MESSAGE_EVENT, (message: TRealtimeMessage) => {
        const wanted = waiting.get(socket);
        if (
          wanted &&
          message.type === 'worklist-status-update' &&
          message.data.action === 'upsert' &&
          JSON.stringify(message.data.item).includes(wanted.id)
        ) {
          waiting.delete(socket);
          wanted.resolve();
        }
      });
    }
    const page = await api<{ items: { id: string }[] }>(world.a.url, admin, 'GET', '/worklist?limit=1');
    const study = page.items[0];
    if (!study) throw new Error('the demo seed has no study');
    for (let event = 0; event < EVENTS; event++) {
      const sentAt = performance.now();
      const received = sockets.map(
        (socket) =>
          new Promise<void>((resolve) =>
            waiting.set(socket, {
              id: study.id,
              resolve: () => {
                arrivals.push(performance.now() - sentAt);
                resolve();
              },
            }),
          ),
      );
      await api(world.a.url, admin, 'PUT', `/worklist/${study.id}`, {
        collaboration_enabled: event % 2 === 0,
      });
      await Promise.all(received);
    }
    return { perReplica, p50: percentile(arrivals, 50), p99: percentile(arrivals, 99), load: uptime() };
  } finally {
    for (const socket of sockets) socket.close();
  }
}

if (!process.env.TEST_DATABASE_URL) {
  console.log('replicas bench: skipped: set TEST_DATABASE_URL (and TEST_REDIS_URL) to a PostgreSQL server');
  process.exit(0);
}
const world = await startReplicaWorld({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
try {
  const admin = await apiSignIn(world.proxy.url, 'admin@demo.test');
  const one = await worklistLoad(world, admin, [world.a.url]);
  const two = await worklistLoad(world, admin, [world.a.url, world.b.url]);
  const fan = await fanOut(world, admin);
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(`\nMachine: ${os.cpus().length} × ${cpu}, Node ${process.version}`);
  console.log('| through the balancer | requests | req/s | p99 (ms) | non-2xx | uptime at the end |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const [name, row] of [
    ['worklist, 1 replica', one],
    ['worklist, 2 replicas', two],
  ] as const) {
    console.log(
      `| ${name} | ${row.requests} | ${row.perSecond.toFixed(0)} | ${row.p99Ms.toFixed(0)} | ${row.non2xx} | ${row.load} |`,
    );
  }
  console.log(
    `| fan-out to ${SOCKETS} sockets (${fan.perReplica.join(' + ')}), ${EVENTS} events | ${SOCKETS * EVENTS} deliveries | | p50 ${fan.p50.toFixed(0)}, p99 ${fan.p99.toFixed(0)} | | ${fan.load} |`,
  );
} finally {
  await world.close();
}
