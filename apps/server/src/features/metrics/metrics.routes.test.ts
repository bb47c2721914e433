import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { configIssues } from '../../test/config-issues.ts';
import * as t from '../../db/schema/index.ts';
import { enqueueJob } from '../../jobs/jobs.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildStudy, buildUser } from '../../test/factories.ts';
import { connectSocket } from '../../test/realtime-client.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { DELIVERY_QUEUES } from '../comm/share-report.ts';

const METRICS_TOKEN = 'metrics-token-of-this-test-0123456789';

/** A port nobody listens on right now (the metrics listener takes it a moment later). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The value of one sample of the exposition text (its labels exactly these), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    if (JSON.stringify(Object.entries(found).sort()) === JSON.stringify(Object.entries(labels).sort())) {
      return Number(match[3]);
    }
  }
  return undefined;
}

let server: TTestServer;
let disabled: TTestServer;
let metricsPort: number;

beforeAll(async () => {
  metricsPort = await freePort();
  [server, disabled] = await Promise.all([
    startTestServer({ env: { METRICS_TOKEN, METRICS_PORT: String(metricsPort) } }),
    startTestServer(),
  ]);
});

afterAll(async () => {
  await Promise.all([server.close(), disabled.close()]);
});

const scrape = async () => {
  const response = await server.request('GET', '/metrics', { token: METRICS_TOKEN });
  expect(response.status).toBe(200);
  return response.text;
};

describe('GET /metrics', () => {
  it('is an unknown route (404) when METRICS_TOKEN and METRICS_PORT are unset', async () => {
    for (const token of [undefined, METRICS_TOKEN]) {
      const response = await disabled.request('GET', '/metrics', token ? { token } : {});
      expect(response.status).toBe(404);
      expect(response.json).toEqual({
        error: { code: 'NOT_FOUND', message: expect.any(String) as string },
      });
    }
  });

  it('answers 401 without the token, with another one, or with another scheme', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${METRICS_TOKEN}x` },
      { authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}` },
      { authorization: `Basic ${Buffer.from(`metrics:${METRICS_TOKEN}`).toString('base64')}` },
      { authorization: METRICS_TOKEN },
    ];
    for (const headers of attempts) {
      const response = await server.request('GET', '/metrics', { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(response.json).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
      expect(response.text).not.toContain('ris_');
    }
  });

  it('answers the Prometheus text format with the token', async () => {
    const response = await server.request('GET', '/metrics', { token: METRICS_TOKEN });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(sample(response.text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(response.text, 'ris_database_info', { kind: server.database.kind })).toBe(1);
    const max = sample(response.text, 'ris_db_pool_connections', { state: 'max' });
    if (server.database.kind === 'postgres') expect(max).toBeGreaterThan(0);
    else expect(max).toBeUndefined();
  });

  it('counts requests by route template, never by raw URL, and leaves /metrics itself out', async () => {
    const facility = await buildFacility(server.db);
    const user = await buildUser(server.db, { role: 'ADMIN', organisationId: facility.organisationId });
    const study = await buildStudy(server.db, { facility, patientName: 'Zebediah Quillfeather' });
    const token = await tokenFor(server, user);
    const missing = randomUUID();
    expect((await server.request('GET', `/api/v1/worklist/${study.id}`, { token })).status).toBe(200);
    expect((await server.request('GET', `/api/v1/worklist/${missing}`)).status).toBe(401);
    expect((await server.request('GET', `/api/v1/no-such-thing/${missing}`)).status).toBe(404);

    const text = await scrape();
    const route = '/api/v1/worklist/:id';
    expect(sample(text, 'ris_http_requests_total', { method: 'GET', route, status: '200' })).toBe(1);
    expect(sample(text, 'ris_http_requests_total', { method: 'GET', route, status: '401' })).toBe(1);
    expect(sample(text, 'ris_http_request_duration_seconds_count', { method: 'GET', route })).toBe(2);
    expect(
      sample(text, 'ris_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBe(1);
    for (const secret of [study.id, missing, 'Quillfeather', study.accessionNumber, 'no-such-thing']) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toContain('route="/metrics"');
  });

  it('counts a failed delivery job as a job failure and an e-mail delivery failure', async () => {
    const queue = DELIVERY_QUEUES.email;
    // A share whose message is gone fails for good at its first attempt.
    await server.db.transaction((tx) => enqueueJob(tx, { queue, payload: { message_id: randomUUID() } }));
    await expect
      .poll(async () => sample(await scrape(), 'ris_job_failures_total', { queue, final: 'true' }), {
        timeout: 5_000,
        interval: 50,
      })
      .toBe(1);
    const text = await scrape();
    expect(sample(text, 'ris_job_attempts_total', { queue, outcome: 'failed' })).toBe(1);
    expect(sample(text, 'ris_delivery_failures_total', { channel: 'email', final: 'true' })).toBe(1);
  });

  it('reads queue depths from the jobs table at scrape time', async () => {
    const queue = 'metrics.test-no-worker';
    await server.db.transaction(async (tx) => {
      await enqueueJob(tx, { queue, payload: {}, runAt: new Date(Date.now() - 60_000) });
      await enqueueJob(tx, { queue, payload: {}, runAt: new Date(Date.now() + 3_600_000) });
      await enqueueJob(tx, { queue, payload: {}, runAt: new Date(Date.now() + 7_200_000) });
    });
    const text = await scrape();
    expect(sample(text, 'ris_jobs', { queue, state: 'due' })).toBe(1);
    expect(sample(text, 'ris_jobs', { queue, state: 'scheduled' })).toBe(2);
    expect(sample(text, 'ris_jobs_oldest_due_seconds', { queue })).toBeGreaterThanOrEqual(59);
  });

  it('shows open sockets in the gauge, and their closing', async () => {
    const user = await buildUser(server.db);
    const socket = await connectSocket(server.url, { auth: { token: await tokenFor(server, user) } });
    try {
      expect(sample(await scrape(), 'ris_realtime_sockets')).toBe(1);
    } finally {
      socket.close();
    }
    await expect.poll(async () => sample(await scrape(), 'ris_realtime_sockets'), { interval: 20 }).toBe(0);
    const text = await scrape();
    expect(sample(text, 'ris_collaboration_connections')).toBe(0);
    expect(sample(text, 'ris_dictation_streams')).toBe(0);
  });

  it('shows how long ago each enabled archive last synced', async () => {
    const facility = await buildFacility(server.db);
    const [archive] = await server.db
      .insert(t.pacsArchives)
      .values({
        organisationId: facility.organisationId,
        name: 'Metrics Orthanc',
        kind: 'dicomweb',
        dicomwebUrl: 'http://127.0.0.1:9/dicom-web',
        lastSuccessAt: new Date(Date.now() - 90_000),
        failureCount: 2,
      })
      .returning();
    if (!archive) throw new Error('archive not inserted');
    const labels = { archive_id: archive.id, archive: 'Metrics Orthanc' };
    const text = await scrape();
    expect(sample(text, 'ris_pacs_sync_lag_seconds', labels)).toBeGreaterThanOrEqual(89);
    expect(sample(text, 'ris_pacs_sync_failures', labels)).toBe(2);
  });
});

describe('METRICS_PORT', () => {
  it('serves /metrics without a token on its own port, and nothing else', async () => {
    const base = `http://127.0.0.1:${metricsPort}`;
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(await response.text(), 'ris_database_info', { kind: server.database.kind })).toBe(1);
    const other = await fetch(`${base}/api/v1/worklist`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
  });
});

describe('METRICS_* settings', () => {
  it('refuses a short or spaced token and a metrics port equal to PORT, naming the variable', () => {
    expect(configIssues({ METRICS_TOKEN: 'short' })).toEqual([expect.stringMatching(/^METRICS_TOKEN: /)]);
    expect(configIssues({ METRICS_TOKEN: 'has a space in the middle' })).toEqual([
      expect.stringMatching(/^METRICS_TOKEN: /),
    ]);
    expect(configIssues({ PORT: '9464', METRICS_PORT: '9464' })).toEqual([
      'METRICS_PORT: must differ from PORT',
    ]);
    expect(loadConfig({}).metrics).toEqual({ token: null, port: null });
  });
});
