import { createServer, type Server } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { FAST_JOBS_ENV } from '../../test/comm-test-helpers.ts';
import { buildReportWorld, type TWorld } from '../../test/report-test-world.ts';
import { closedPort } from '../../test/smtp-capture.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import {
  enqueueFinalReportWebhook,
  FINAL_REPORT_WEBHOOK_QUEUE,
  signWebhook,
  verifyWebhookSignature,
  type TFinalReportEvent,
} from './final-report-webhook.ts';

const SECRET = 'webhook-secret-of-the-test-0123456789';

type TDelivery = { headers: Record<string, string | string[] | undefined>; body: string; answered: number };

/** The receiving service: verifies the signature, answers the queued statuses (then 200). */
async function startReceiver(port: number, statuses: number[]) {
  const deliveries: TDelivery[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const timestamp = String(request.headers['x-ris-timestamp'] ?? '');
      const signature = String(request.headers['x-ris-signature'] ?? '');
      const valid = verifyWebhookSignature(SECRET, timestamp, body, signature);
      const answered = valid ? (statuses.shift() ?? 200) : 401;
      deliveries.push({ headers: request.headers, body, answered });
      response.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { deliveries, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let port: number;
let server: TTestServer;
let w: TWorld;
let receiver: Awaited<ReturnType<typeof startReceiver>> | null = null;

beforeAll(async () => {
  port = await closedPort();
  server = await startTestServer({
    env: {
      FINAL_REPORT_WEBHOOK_URL: `http://127.0.0.1:${port}/seed/final/report`,
      FINAL_REPORT_WEBHOOK_SECRET: SECRET,
      ...FAST_JOBS_ENV,
    },
  });
  w = await buildReportWorld(server);
});
afterAll(async () => {
  await server.close();
  await receiver?.close();
});

const webhookJobs = (reportId: string) =>
  server.db
    .select()
    .from(t.jobs)
    .where(eq(t.jobs.idempotencyKey, `${FINAL_REPORT_WEBHOOK_QUEUE}:${reportId}`));

describe('signWebhook', () => {
  it('is sha256=<hex HMAC-SHA256(secret, timestamp.body)> and verifies only the same input', () => {
    const signature = signWebhook('k'.repeat(16), '1700000000', '{"a":1}');
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature('k'.repeat(16), '1700000000', '{"a":1}', signature)).toBe(true);
    expect(verifyWebhookSignature('k'.repeat(16), '1700000001', '{"a":1}', signature)).toBe(false);
    expect(verifyWebhookSignature('k'.repeat(16), '1700000000', '{"a":2}', signature)).toBe(false);
  });
});

describe('final-report webhook', () => {
  it('is posted signed; while the service is down or failing it is retried; it is delivered once', async () => {
    const { studyId, report } = await w.studyWithReport({
      status: 'FINAL',
      content: '<p>Impression: no acute intracranial abnormality.</p>',
    });
    // What the finalize transaction does (the same key: enqueued once however often this runs).
    const jobId = await server.db.transaction((tx) =>
      enqueueFinalReportWebhook(tx, server.app.deps.config, report.id),
    );
    const again = await server.db.transaction((tx) =>
      enqueueFinalReportWebhook(tx, server.app.deps.config, report.id),
    );
    expect(again).toBe(jobId);
    expect(await webhookJobs(report.id)).toHaveLength(1);

    // Down: attempts fail and are retried.
    // Observed between two attempts (a worker may be running the next one at any moment).
    await expect
      .poll(
        async () => {
          const [down] = await webhookJobs(report.id);
          return (
            (down?.attempts ?? 0) >= 2 &&
            down?.status === 'pending' &&
            /not reached/.test(down.lastError ?? '')
          );
        },
        { timeout: 15_000 },
      )
      .toBe(true);

    // Up, answering 503 once, then 200.
    receiver = await startReceiver(port, [503]);
    await expect
      .poll(async () => (await webhookJobs(report.id))[0]?.status, { timeout: 15_000 })
      .toBe('succeeded');
    const { deliveries } = receiver;
    expect(deliveries.map((d) => d.answered)).toEqual([503, 200]);
    for (const delivery of deliveries) {
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['x-ris-event-id']).toBe(jobId);
    }
    const event = JSON.parse(deliveries[1]?.body ?? '{}') as TFinalReportEvent;
    expect(event).toMatchObject({
      event: 'report.finalized',
      report_id: report.id,
      worklist_id: studyId,
    });
    expect(event.report_content).toContain('no acute intracranial abnormality');
    expect(event.finalized_at).not.toBeNull();
  });

  it('is queued by finalizing through the API, in the finalize transaction, and not by a refused one', async () => {
    const { report } = await w.studyWithReport({ content: '<p>Findings: normal.</p>' });
    const refused = await w.call('transcriptionist', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'FINAL',
    });
    expect(refused.status).toBe(403);
    expect(await webhookJobs(report.id)).toHaveLength(0);
    const final = await w.call('radiologist', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'FINAL',
    });
    expect(final.status, final.text).toBe(200);
    const [job] = await webhookJobs(report.id);
    expect(job?.payload).toEqual({ report_id: report.id });
  });

  it('is not queued when no webhook is configured', async () => {
    const { report } = await w.studyWithReport({ status: 'FINAL' });
    const id = await server.db.transaction((tx) =>
      enqueueFinalReportWebhook(tx, { finalReportWebhook: null }, report.id),
    );
    expect(id).toBeNull();
  });
});
