import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { notificationTopic } from '@ris/domain';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acknowledged,
  appendParagraph,
  openEditor,
  typeAtStart,
  until,
  type TEditor,
} from '../../apps/server/src/collaboration/collab-test-client.ts';
import {
  aboutItem,
  connectSocket,
  disconnected,
  listenTopic,
  MessageLog,
  type TTestSocket,
} from '../../apps/server/src/test/realtime-client.ts';
import { api, apiSignIn, type TApiUser } from '../support/api.ts';
import { eventually, startReplicaWorld, type TReplicaWorld } from '../support/replica-world.ts';

// Two server processes on one PostgreSQL database and one Redis, behind a balancer that alternates
// per request and per WebSocket upgrade (no sticky sessions). Everything goes through the balancer
// except where a test names replica A or B. The in-process tests (realtime-redis, collaboration-redis,
// revocation-replicas) prove the mechanisms; this proves the deployment: real processes, real proxy.
const ADMIN = 'admin@demo.test';
const RADIOLOGIST = 'radiologist@demo.test';
const TRANSCRIPTIONIST = 'transcriptionist@demo.test';
const REFERRER = 'referrer@demo.test';
const REPORTER = 'reporter@demo.test';
const PER_IP_LIMIT = 15;
const PER_ACCOUNT_FAILURES = 3;
const WEBHOOK_SECRET = 'replica-webhook-secret-0123456789';

type TItem = { id: string; facility_fk: string };

let world: TReplicaWorld;
let webhook: Server;
const deliveries: { eventId: string; reportId: string }[] = [];
const sockets: TTestSocket[] = [];
const editors: TEditor[] = [];
let admin: TApiUser;
let radiologist: TApiUser;
let transcriptionist: TApiUser;
/** TO_READ demo studies of the transcriptionist's facilities, each used by one test. */
let toRead: TItem[] = [];

/** A socket through the balancer listening to the worklist, and the replica it landed on. */
async function worklistSocket(user: TApiUser, options: { reconnection?: boolean } = {}) {
  const socket = await connectSocket(world.proxy.url, { auth: { token: user.token }, ...options });
  sockets.push(socket);
  const replica = world.proxy.upgrades.at(-1);
  const log = new MessageLog(socket);
  const listen = async () => {
    expect(await listenTopic(socket, 'worklist')).toMatchObject({ ok: true });
    expect(await listenTopic(socket, notificationTopic(user.id))).toMatchObject({ ok: true });
  };
  await listen();
  return { socket, log, replica, listen };
}

/** Two sockets through the balancer, one on each replica (upgrades alternate). */
async function socketsOnBoth(user: TApiUser, options: { reconnection?: boolean } = {}) {
  const first = await worklistSocket(user, options);
  const second = await worklistSocket(user, options);
  expect(new Set([first.replica, second.replica])).toEqual(new Set([world.a.url, world.b.url]));
  return first.replica === world.a.url ? { onA: first, onB: second } : { onA: second, onB: first };
}

/** The next unused TO_READ demo study, assigned to the radiologist. */
async function assignedStudy(): Promise<TItem> {
  const study = toRead.shift();
  if (!study) throw new Error('the demo seed has too few TO_READ studies');
  await api(world.proxy.url, admin, 'PUT', '/worklist/assign/radiologist', {
    worklist_ids: [study.id],
    last_assigned_user_fk: radiologist.id,
  });
  return study;
}

async function signInStatus(email: string, password: string, ip: string): Promise<number> {
  const response = await fetch(`${world.proxy.url}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email, password }),
  });
  await response.arrayBuffer();
  return response.status;
}

// Two processes cannot share the embedded PGlite: without PostgreSQL this file says so loudly, and
// fails where the e2e suite is required (CI, which always has PostgreSQL).
const POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
if (!POSTGRES) {
  const message = 'two-replica e2e tests did not run: they need TEST_DATABASE_URL (PostgreSQL) and Redis';
  if (process.env.RIS_REQUIRE_E2E === '1') throw new Error(message);
  console.error(`skipped: ${message}`);
}

describe.runIf(POSTGRES)('two replicas behind a balancer', () => {
  beforeAll(async () => {
    webhook = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const parsed = JSON.parse(body) as { report_id: string };
        deliveries.push({ eventId: String(request.headers['x-ris-event-id']), reportId: parsed.report_id });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
    const address = webhook.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    world = await startReplicaWorld({
      AUTH_RATE_LIMIT_PER_MINUTE: String(PER_IP_LIMIT),
      AUTH_MAX_FAILURES_PER_ACCOUNT: String(PER_ACCOUNT_FAILURES),
      AUTH_MAX_ACCOUNTS_PER_IP: '1000',
      FINAL_REPORT_WEBHOOK_URL: `http://127.0.0.1:${port}/final`,
      FINAL_REPORT_WEBHOOK_SECRET: WEBHOOK_SECRET,
      JOBS_POLL_INTERVAL_MS: '100',
    });
    // Few sign-ins from this address: the per-IP limit counts them too (for a minute, in Redis).
    [admin, radiologist, transcriptionist] = await Promise.all([
      apiSignIn(world.proxy.url, ADMIN),
      apiSignIn(world.proxy.url, RADIOLOGIST),
      apiSignIn(world.proxy.url, TRANSCRIPTIONIST),
    ]);
    const page = await api<{ items: TItem[] }>(
      world.proxy.url,
      transcriptionist,
      'GET',
      '/worklist?statuses=TO_READ&date_range_type=LAST_1_MONTH&limit=20',
    );
    toRead = page.items;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    for (const editor of editors) editor.close();
    await world?.close();
    await new Promise((resolve) => webhook?.close(resolve));
  });

  it('sends a worklist change made on replica A to a socket on replica B', async () => {
    const { onB } = await socketsOnBoth(admin);
    const study = await assignedStudy();
    // Made on A directly: only Redis can carry it to B.
    await api(world.a.url, admin, 'PUT', `/worklist/${study.id}`, { collaboration_enabled: true });
    const message = await onB.log.next(aboutItem(study.id));
    expect(message).toMatchObject({ type: 'worklist-status-update', data: { action: 'upsert' } });
  });

  it('lets two editors on different replicas co-edit one report and converge', async () => {
    const study = await assignedStudy();
    await api(world.proxy.url, admin, 'PUT', `/worklist/${study.id}`, { collaboration_enabled: true });
    const report = await api<{ id: string }>(world.proxy.url, radiologist, 'POST', '/worklist/report', {
      worklist_id: study.id,
      content: '<p>Findings: normal.</p>',
      by_user_id: radiologist.id,
    });
    const upgrades = world.proxy.upgrades.length;
    const first = await openEditor(world.proxy.url, report.id, radiologist.token);
    editors.push(first);
    const second = await openEditor(world.proxy.url, report.id, transcriptionist.token);
    editors.push(second);
    expect(new Set(world.proxy.upgrades.slice(upgrades))).toEqual(new Set([world.a.url, world.b.url]));

    appendParagraph(first.document, 'From one replica.');
    typeAtStart(second.document, 'From the other. ');
    const expected = '<p>From the other. Findings: normal.</p><p>From one replica.</p>';
    await until(first.document, () => first.html() === expected);
    await until(second.document, () => second.html() === expected);
    await Promise.all([acknowledged(first), acknowledged(second)]);
  });

  it('runs each final-report webhook job exactly once across both replicas', async () => {
    // Four reports finalized at once (two through each replica): four jobs, both replicas polling.
    const finalized = await Promise.all(
      [0, 1, 2, 3].map(async (index) => {
        const study = await assignedStudy();
        const report = await api<{ id: string }>(world.proxy.url, radiologist, 'POST', '/worklist/report', {
          worklist_id: study.id,
          content: `<p>Final report ${index}.</p>`,
          by_user_id: radiologist.id,
        });
        await api(world.proxy.url, radiologist, 'POST', '/worklist/report/pdf-generate', {
          report_id: report.id,
          status: 'FINAL',
        });
        return report.id;
      }),
    );
    const done = await eventually('every job done', async () => {
      const jobs = await query<{ status: string }>(
        "SELECT status FROM jobs WHERE queue = 'final-report-webhook'",
      );
      return jobs.length === 4 && jobs.every((job) => job.status === 'succeeded') ? jobs : undefined;
    });
    expect(done).toHaveLength(4);
    expect(deliveries.map((d) => d.reportId).sort()).toEqual([...finalized].sort());
    expect(new Set(deliveries.map((d) => d.eventId)).size).toBe(4);
  });

  it('holds the per-IP limit across replicas: the request past the limit is refused, not the one past twice it', async () => {
    // A new address at each run: the counts live in Redis for a minute.
    const ip = `2001:db8::${randomBytes(2).toString('hex')}`;
    const statuses: number[] = [];
    for (let index = 0; index <= PER_IP_LIMIT; index++) {
      statuses.push(await signInStatus(`nobody-${index}@example.test`, 'wrong-password', ip));
    }
    expect(statuses.slice(0, PER_IP_LIMIT).every((status) => status === 401)).toBe(true);
    expect(statuses[PER_IP_LIMIT]).toBe(429);
    // Another address is not affected.
    expect(await signInStatus('nobody@example.test', 'wrong-password', `${ip}:1`)).toBe(401);
  });

  it('holds the per-account failure limit across replicas', async () => {
    const statuses: number[] = [];
    for (let index = 0; index <= PER_ACCOUNT_FAILURES; index++) {
      statuses.push(await signInStatus(REFERRER, 'wrong-password', '198.51.100.9'));
    }
    expect(statuses).toEqual([...Array<number>(PER_ACCOUNT_FAILURES).fill(401), 429]);
  });

  it('refuses a user disabled on replica A on replica B at the very next request, API and socket', async () => {
    const reporter = await apiSignIn(world.proxy.url, REPORTER);
    const { onB } = await socketsOnBoth(reporter);
    const gone = disconnected(onB.socket);
    await api(world.a.url, admin, 'POST', '/user', {
      id: reporter.id,
      status: 'INACTIVE',
      by_user_id: admin.id,
    });
    const next = await fetch(`${world.b.url}/api/v1/worklist?limit=1`, {
      headers: { authorization: `Bearer ${reporter.token}` },
    });
    expect(next.status).toBe(401);
    expect(await gone).toBe('io server disconnect');
  });

  it('loses no acknowledged write when replica A is killed, and its sockets reconnect to B', async () => {
    const { onA, onB } = await socketsOnBoth(admin, { reconnection: true });
    const details = await api<{ facilities: { id: string }[] }>(
      world.proxy.url,
      admin,
      'GET',
      `/user/details/${admin.id}`,
    );
    const facility = details.facilities[0];
    if (!facility) throw new Error('the demo admin has no facility');
    const order = (index: number) =>
      fetch(`${world.proxy.url}/api/v1/worklist/create/order`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          patient_name: `Replica Patient ${index}`,
          patient_id: `REPLICA-${index}`,
          modality: 'CT',
          study: 'CT Head replica',
          facility_fk: facility.id,
        }),
      }).then(async (response) => (response.ok ? ((await response.json()) as { id: string }).id : null));
    // Writes in flight while A dies: those answered 2xx must all be stored.
    const writes = Array.from({ length: 12 }, (_, index) => order(index));
    const reconnected = new Promise((resolve) => onA.socket.io.once('reconnect', resolve));
    await world.a.kill();
    const acknowledged = (await Promise.allSettled(writes)).flatMap((result) =>
      result.status === 'fulfilled' && result.value ? [result.value] : [],
    );
    expect(acknowledged.length).toBeGreaterThan(0);
    const after = await order(100);
    expect(after).not.toBeNull();
    const stored = await query<{ id: string }>('SELECT id FROM studies WHERE id = ANY($1)', [
      [...acknowledged, after],
    ]);
    expect(stored.map((row) => row.id).sort()).toEqual([...acknowledged, after].sort());

    await reconnected;
    expect(world.proxy.upgrades.at(-1)).toBe(world.b.url);
    // As the web client does: a reconnected socket listens again (its rooms were on the dead replica).
    await onA.listen();
    const later = await order(101);
    if (!later) throw new Error('a write after the failover was refused');
    await Promise.all([onA.log.next(aboutItem(later)), onB.log.next(aboutItem(later))]);
  });
});

async function query<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: world.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}
