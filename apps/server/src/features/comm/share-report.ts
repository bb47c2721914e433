// Sharing a final report by e-mail or WhatsApp: one outbound message per recipient, and a delivery
// job per message when the channel's provider is configured (otherwise the message waits in the
// outbox). The PDF is rendered when the job runs, never stored with the message.
import { createHash } from 'node:crypto';
import type { TDeliveryChannel } from '@ris/domain';
import { eq } from 'drizzle-orm';
import type { TScope } from '../../access/scope.ts';
import type { TTx } from '../../db/client.ts';
import { outboundMessages, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { enqueueJob } from '../../jobs/jobs.ts';
import { findVisibleStudyReport, type TStudyRow } from '../reports/report.queries.ts';
import { isFinalReport, mayReadStudyReport } from './comm.policy.ts';

export const DELIVERY_QUEUES: Record<TDeliveryChannel, string> = {
  email: 'deliver-email',
  whatsapp: 'deliver-whatsapp',
};
/** About a day and a half of retries at the default back-off (30 s doubling, capped at an hour). */
export const DELIVERY_MAX_ATTEMPTS = 40;

export type TShareReportInput = {
  scope: TScope;
  studyId: string;
  channel: TDeliveryChannel;
  recipients: readonly string[];
  withLetterhead: boolean;
  /** The request's Idempotency-Key header, if any. */
  idempotencyKey: string | undefined;
  /** SMTP (e-mail) or the WhatsApp Cloud API is configured: queue a delivery job per message. */
  providerConfigured: boolean;
};

/**
 * The stored form of an Idempotency-Key: a hash over the sender, the study, the channel, the
 * recipient and the client's key, so one key names one message and never another user's.
 */
export function outboundIdempotencyKey(
  input: Pick<TShareReportInput, 'studyId' | 'channel'> & { userId: string; recipient: string; key: string },
): string {
  const hash = createHash('sha256')
    .update([input.userId, input.studyId, input.channel, input.recipient, input.key].join('\n'))
    .digest('hex');
  return `share:${hash}`;
}

/** Subject and text of a share (kept with the message, so the outbox shows what goes out). */
export function shareText(study: TStudyRow, senderName: string): { subject: string; body: string } {
  const patient = study.patientName.trim() || 'patient';
  const what = [study.modality, study.studyDescription].filter(Boolean).join(' ');
  const when = study.studyDatetime ? study.studyDatetime.toISOString().slice(0, 10) : null;
  const about = [what, when].filter(Boolean).join(', ');
  return {
    subject: `Radiology report — ${patient}`,
    body: [
      `Please find attached the radiology report of ${patient}${about ? ` (${about})` : ''}.`,
      '',
      `Sent by ${senderName || 'the radiology team'}.`,
    ].join('\n'),
  };
}

/**
 * Scoped load (404 outside the caller's view), FINAL only (409) (the route has checked by_user_id);
 * then in the caller's transaction one message per distinct recipient (an Idempotency-Key already
 * used for a recipient returns that message instead), and its job. Returns the message ids in the
 * recipients' order.
 */
export async function shareReport(tx: TTx, input: TShareReportInput): Promise<string[]> {
  const { scope } = input;
  const found = await findVisibleStudyReport(tx, scope, input.studyId);
  if (!found || !mayReadStudyReport(scope, found.study, found.report))
    throw AppError.notFound('Worklist item');
  const { study, report } = found;
  if (!isFinalReport(study, report)) throw new AppError('CONFLICT', 'Only a final report can be shared');

  const [sender] = await tx
    .select({ name: users.displayName })
    .from(users)
    .where(eq(users.id, scope.principal.userId));
  const text = shareText(study, sender?.name ?? '');
  const ids: string[] = [];
  for (const recipient of new Set(input.recipients)) {
    const key =
      input.idempotencyKey === undefined
        ? null
        : outboundIdempotencyKey({
            ...input,
            userId: scope.principal.userId,
            recipient,
            key: input.idempotencyKey,
          });
    const [created] = await tx
      .insert(outboundMessages)
      .values({
        organisationId: scope.organisationId,
        channel: input.channel,
        kind: 'report',
        recipient,
        subject: text.subject,
        body: text.body,
        withLetterhead: input.withLetterhead,
        idempotencyKey: key,
        studyId: study.id,
        reportId: report.id,
        status: 'PENDING',
        createdBy: scope.principal.userId,
      })
      .onConflictDoNothing({ target: outboundMessages.idempotencyKey })
      .returning({ id: outboundMessages.id });
    if (!created) {
      const [existing] = await tx
        .select({ id: outboundMessages.id })
        .from(outboundMessages)
        .where(eq(outboundMessages.idempotencyKey, key ?? ''));
      if (!existing) throw new Error('outbound message: idempotency key conflict without a row');
      ids.push(existing.id);
      continue;
    }
    ids.push(created.id);
    if (input.providerConfigured) {
      const jobId = await enqueueJob(tx, {
        queue: DELIVERY_QUEUES[input.channel],
        payload: { message_id: created.id },
        idempotencyKey: `outbound:${created.id}`,
        maxAttempts: DELIVERY_MAX_ATTEMPTS,
      });
      await tx.update(outboundMessages).set({ jobId }).where(eq(outboundMessages.id, created.id));
    }
  }
  return ids;
}
