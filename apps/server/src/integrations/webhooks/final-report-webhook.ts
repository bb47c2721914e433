// The final-report webhook (FINAL_REPORT_WEBHOOK_URL): every finalized report is posted there, signed
// with HMAC-SHA256, through a durable job (the specification's separate service, POST /seed/final/report).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { TConfig } from '../../config.ts';
import type { TDb, TDbOrTx } from '../../db/client.ts';
import { reports } from '../../db/schema/index.ts';
import { enqueueJob, PermanentJobError, type TJobHandler } from '../../jobs/jobs.ts';

export const FINAL_REPORT_WEBHOOK_QUEUE = 'final-report-webhook';
const TIMEOUT_MS = 10_000;
/** About a day and a half of retries at the default back-off (30 s doubling, capped at an hour). */
const MAX_ATTEMPTS = 40;

export type TFinalReportEvent = {
  event: 'report.finalized';
  report_id: string;
  worklist_id: string;
  report_content: string;
  finalized_at: string | null;
};

/**
 * In the finalize transaction: queue the webhook of this report when one is configured (null
 * otherwise). One job per report, whatever happens to the transaction's retries.
 */
export async function enqueueFinalReportWebhook(
  tx: TDbOrTx,
  config: Pick<TConfig, 'finalReportWebhook'>,
  reportId: string,
): Promise<string | null> {
  if (!config.finalReportWebhook) return null;
  return enqueueJob(tx, {
    queue: FINAL_REPORT_WEBHOOK_QUEUE,
    payload: { report_id: reportId },
    idempotencyKey: `${FINAL_REPORT_WEBHOOK_QUEUE}:${reportId}`,
    maxAttempts: MAX_ATTEMPTS,
  });
}

/** `sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>`: the X-RIS-Signature header. */
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does to check a delivery (documented for integrators; used by the tests). */
export function verifyWebhookSignature(
  secret: string,
  timestamp: string,
  body: string,
  signature: string,
): boolean {
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Posts {event, report_id, worklist_id, report_content, finalized_at} with X-RIS-Event-Id (the job
 * id: the same on every retry, so the receiver can drop duplicates), X-RIS-Timestamp (unix seconds)
 * and X-RIS-Signature. Any 2xx is delivered; anything else, or no answer within 10 s, is retried.
 * The content is the report's as it is when the delivery is made (an addendum made meanwhile is in).
 */
export function finalReportWebhookHandler(db: TDb, config: Pick<TConfig, 'finalReportWebhook'>): TJobHandler {
  return {
    async run({ job, signal }) {
      const webhook = config.finalReportWebhook;
      if (!webhook) throw new PermanentJobError('FINAL_REPORT_WEBHOOK_URL is no longer set');
      const reportId = String(job.payload.report_id ?? '');
      const [report] = await db
        .select({
          id: reports.id,
          studyId: reports.studyId,
          content: reports.content,
          status: reports.status,
          finalizedAt: reports.finalizedAt,
        })
        .from(reports)
        .where(eq(reports.id, reportId));
      if (!report) throw new PermanentJobError(`report ${reportId} no longer exists`);
      const event: TFinalReportEvent = {
        event: 'report.finalized',
        report_id: report.id,
        worklist_id: report.studyId,
        report_content: report.content,
        finalized_at: report.finalizedAt?.toISOString() ?? null,
      };
      const body = JSON.stringify(event);
      const timestamp = String(Math.floor(Date.now() / 1000));
      let response: Response;
      try {
        response = await fetch(webhook.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-ris-event-id': job.id,
            'x-ris-timestamp': timestamp,
            'x-ris-signature': signWebhook(webhook.secret, timestamp, body),
          },
          body,
          redirect: 'manual',
          signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]),
        });
      } catch (error) {
        const reason =
          error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
        throw new Error(`final-report webhook not reached: ${reason}`);
      }
      await response.body?.cancel();
      if (response.status < 200 || response.status > 299) {
        throw new Error(`final-report webhook answered HTTP ${response.status}`);
      }
      return { status: response.status };
    },
  };
}
