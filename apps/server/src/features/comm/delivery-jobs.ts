// The delivery jobs of outbound messages: deliver-email (report shares and support mail over SMTP)
// and deliver-whatsapp (report shares through the WhatsApp Cloud API). Each attempt renders or reads
// what it attaches afresh; the message row follows the job (sent, error kept, failed with reason).
import { eq, inArray } from 'drizzle-orm';
import type { TDb, TTx } from '../../db/client.ts';
import { outboundMessages, storedFiles } from '../../db/schema/index.ts';
import type { BlobStore } from '../../files/blob-store.ts';
import { AppError } from '../../http/app-error.ts';
import type { Mailer, TMailAttachment } from '../../integrations/mail/mailer.ts';
import {
  WhatsappApiError,
  WhatsappClient,
  type TWhatsappConfig,
} from '../../integrations/whatsapp/whatsapp-client.ts';
import {
  errorText,
  PermanentJobError,
  type TJob,
  type TJobHandler,
  type TJobOutcome,
} from '../../jobs/jobs.ts';
import { buildReportFile, type TReportFile } from '../report-output/report-file.ts';
import { DELIVERY_QUEUES } from './share-report.ts';

export type TDeliveryDeps = {
  db: TDb;
  blobs: BlobStore;
  mailer: Mailer;
  whatsapp: TWhatsappConfig | null;
  /** The domain of Message-IDs (`<outbound-<id>@domain>`): the sender address's. */
  messageIdDomain: string;
};

type TMessage = typeof outboundMessages.$inferSelect;

const messageIdOf = (job: TJob) => String(job.payload.message_id ?? '');

async function loadMessage(db: TDb, job: TJob): Promise<TMessage> {
  const [message] = await db
    .select()
    .from(outboundMessages)
    .where(eq(outboundMessages.id, messageIdOf(job)));
  if (!message) throw new PermanentJobError('the message no longer exists');
  return message;
}

/** The report PDF of a share, rendered now; a report that can no longer be rendered fails for good. */
async function renderSharedReport(deps: TDeliveryDeps, message: TMessage): Promise<TReportFile> {
  if (!message.studyId || !message.organisationId) throw new PermanentJobError('the report no longer exists');
  try {
    return await buildReportFile(deps.db, deps.blobs, {
      studyId: message.studyId,
      organisationId: message.organisationId,
      format: 'pdf',
      letterhead: message.withLetterhead,
    });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      throw new PermanentJobError(`the report cannot be rendered: ${error.message}`, { cause: error });
    }
    throw error;
  }
}

/** Support-form uploads, read from the blob store as they were stored. */
async function storedAttachments(deps: TDeliveryDeps, message: TMessage): Promise<TMailAttachment[]> {
  if (message.attachments.length === 0) return [];
  const ids = message.attachments.map((attachment) => attachment.file_id);
  const files = await deps.db.select().from(storedFiles).where(inArray(storedFiles.id, ids));
  const attachments: TMailAttachment[] = [];
  for (const attachment of message.attachments) {
    const file = files.find((row) => row.id === attachment.file_id);
    if (!file) throw new PermanentJobError(`the attachment ${attachment.filename} no longer exists`);
    attachments.push({
      filename: attachment.filename,
      content: await deps.blobs.read(file.storageKey),
      contentType: file.mediaType,
    });
  }
  return attachments;
}

/** The SMTP reply code of a nodemailer error (0 when the server never answered, e.g. refused). */
function smtpResponseCode(error: unknown): number {
  const code =
    typeof error === 'object' && error !== null && 'responseCode' in error ? error.responseCode : 0;
  return typeof code === 'number' ? code : 0;
}

/** The message follows its job: sent, retrying (error kept), or failed with the reason. */
async function settleMessage(tx: TTx, job: TJob, outcome: TJobOutcome): Promise<void> {
  const id = messageIdOf(job);
  if (outcome.kind === 'succeeded') {
    const providerId = outcome.result.provider_message_id;
    await tx
      .update(outboundMessages)
      .set({
        status: 'FULFILLED',
        providerMessageId: typeof providerId === 'string' ? providerId : null,
        error: null,
        sentAt: new Date(),
      })
      .where(eq(outboundMessages.id, id));
    return;
  }
  await tx
    .update(outboundMessages)
    .set(outcome.willRetry ? { error: outcome.error } : { error: outcome.error, status: 'REJECTED' })
    .where(eq(outboundMessages.id, id));
}

function emailHandler(deps: TDeliveryDeps): TJobHandler {
  return {
    async run({ job }) {
      const message = await loadMessage(deps.db, job);
      if (message.status === 'FULFILLED') return { provider_message_id: message.providerMessageId };
      if (deps.mailer.kind !== 'smtp') throw new PermanentJobError('SMTP_URL is no longer set');
      let attachments: TMailAttachment[];
      if (message.kind === 'report') {
        const file = await renderSharedReport(deps, message);
        attachments = [{ filename: file.fileName, content: file.data, contentType: file.mediaType }];
      } else {
        attachments = await storedAttachments(deps, message);
      }
      const replyTo = typeof job.payload.reply_to === 'string' ? job.payload.reply_to : undefined;
      try {
        const sent = await deps.mailer.send({
          to: message.recipient,
          subject: message.subject ?? '',
          text: message.body,
          attachments,
          messageId: `<outbound-${message.id}@${deps.messageIdDomain}>`,
          ...(replyTo ? { replyTo } : {}),
        });
        return { provider_message_id: sent.id };
      } catch (error) {
        // 5xx from the SMTP server (550 no such mailbox, 552 too large …) will not change on a retry.
        if (smtpResponseCode(error) >= 500) throw new PermanentJobError(errorText(error), { cause: error });
        throw error;
      }
    },
    settle: settleMessage,
  };
}

function whatsappHandler(deps: TDeliveryDeps): TJobHandler {
  return {
    async run({ job, saveProgress, signal }) {
      const message = await loadMessage(deps.db, job);
      if (message.status === 'FULFILLED') return { provider_message_id: message.providerMessageId };
      if (!deps.whatsapp) throw new PermanentJobError('WHATSAPP_PHONE_NUMBER_ID is no longer set');
      const client = new WhatsappClient(deps.whatsapp);
      try {
        // A retry after a successful upload sends the media uploaded then (ids live for 30 days).
        let mediaId = typeof job.progress.media_id === 'string' ? job.progress.media_id : null;
        let filename = typeof job.progress.file_name === 'string' ? job.progress.file_name : null;
        if (!mediaId || !filename) {
          const file = await renderSharedReport(deps, message);
          mediaId = await client.uploadMedia(
            { data: file.data, filename: file.fileName, mediaType: file.mediaType },
            signal,
          );
          filename = file.fileName;
          await saveProgress({ media_id: mediaId, file_name: filename });
        }
        const wamid = await client.sendDocument(
          { to: message.recipient, mediaId, filename, caption: message.subject ?? filename },
          signal,
        );
        return { provider_message_id: wamid };
      } catch (error) {
        if (error instanceof WhatsappApiError && error.permanent) {
          throw new PermanentJobError(error.message, { cause: error });
        }
        throw error;
      }
    },
    settle: settleMessage,
  };
}

/** "RIS <no-reply@ris.example.org>" → "ris.example.org" (Message-IDs of our mail use it). */
export function messageIdDomainOf(from: string): string {
  const domain = /@([^\s>]+)/.exec(from)?.[1]?.toLowerCase();
  return domain && /^[a-z0-9.-]+$/.test(domain) ? domain : 'ris.localhost';
}

/** The handlers of both delivery queues, for the job runner. */
export function deliveryJobHandlers(deps: TDeliveryDeps): Record<string, TJobHandler> {
  return { [DELIVERY_QUEUES.email]: emailHandler(deps), [DELIVERY_QUEUES.whatsapp]: whatsappHandler(deps) };
}
