// The delivery jobs of outbound messages: deliver-email (report shares and support mail over SMTP)
// and deliver-whatsapp (report shares through the WhatsApp Cloud API). Each attempt renders or reads
// what it attaches afresh; the message row follows the job (sent, error kept, failed with reason).
// What the sender reads of a failure (outbound_messages.error, GET /comm/messages) is a provider's
// answer or a fixed sentence (shownError); the raw error stays in jobs.last_error and the logs.
import { eq, inArray } from 'drizzle-orm';
import type { TDb, TTx } from '../../db/client.ts';
import { outboundMessages, storedFiles } from '../../db/schema/index.ts';
import { BlobNotFoundError, type BlobStore } from '../../files/blob-store.ts';
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

/**
 * Attempts after which a report that fails to render for a reason other than its content (a bug,
 * an unexpected renderer error) stops being retried: the same data renders the same way, and each
 * attempt costs a render. Database or storage hiccups get these few retries.
 */
export const RENDER_MAX_ATTEMPTS = 3;

/** A permanent failure whose message the sender may read as it is (it names no internals). */
class ShownJobError extends PermanentJobError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ShownJobError';
  }
}

/** The report of a share could not be rendered (the cause says why; the sender is told no more). */
class ReportPreparationError extends Error {
  constructor(options: { cause: unknown }) {
    super(`the report could not be rendered: ${errorText(options.cause)}`, options);
    this.name = 'ReportPreparationError';
  }
}

const messageIdOf = (job: TJob) => String(job.payload.message_id ?? '');

async function loadMessage(db: TDb, job: TJob): Promise<TMessage> {
  const [message] = await db
    .select()
    .from(outboundMessages)
    .where(eq(outboundMessages.id, messageIdOf(job)));
  if (!message) throw new ShownJobError('The message no longer exists');
  return message;
}

/**
 * The report PDF of a share, rendered now. A report that can no longer be rendered (a 4xx: gone, a
 * stored image missing) fails for good at once; any other render failure after RENDER_MAX_ATTEMPTS.
 */
async function renderSharedReport(deps: TDeliveryDeps, job: TJob, message: TMessage): Promise<TReportFile> {
  if (!message.studyId || !message.organisationId) throw new ShownJobError('The report no longer exists');
  try {
    return await buildReportFile(deps.db, deps.blobs, {
      studyId: message.studyId,
      organisationId: message.organisationId,
      format: 'pdf',
      letterhead: message.withLetterhead,
    });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      throw new ShownJobError(`The report could not be prepared: ${error.message}`, { cause: error });
    }
    const failure = new ReportPreparationError({ cause: error });
    if (job.attempt >= RENDER_MAX_ATTEMPTS) throw new PermanentJobError(failure.message, { cause: failure });
    throw failure;
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
    const missing = () => new ShownJobError(`The attachment ${attachment.filename} no longer exists`);
    if (!file) throw missing();
    let content: Buffer;
    try {
      content = await deps.blobs.read(file.storageKey);
    } catch (error) {
      // Bytes gone from storage do not come back on a retry.
      if (error instanceof BlobNotFoundError) throw new ShownJobError(missing().message, { cause: error });
      throw error;
    }
    attachments.push({ filename: attachment.filename, content, contentType: file.mediaType });
  }
  return attachments;
}

/** The SMTP reply code of a nodemailer error (0 when the server never answered, e.g. refused). */
function smtpResponseCode(error: unknown): number {
  const code =
    typeof error === 'object' && error !== null && 'responseCode' in error ? error.responseCode : 0;
  return typeof code === 'number' ? code : 0;
}

/** The SMTP server's reply line of a nodemailer error, when the server answered. */
function smtpReply(error: unknown): string | null {
  if (smtpResponseCode(error) === 0) return null;
  const reply = typeof error === 'object' && error !== null && 'response' in error ? error.response : null;
  return typeof reply === 'string' && reply.trim() ? reply.trim().slice(0, 500) : null;
}

/**
 * What the sender reads of a failed attempt: our own sentences (ShownJobError), the provider's
 * answer (Graph API error, SMTP reply), or a fixed sentence — never an internal error's text.
 */
export function shownError(outcome: Extract<TJobOutcome, { kind: 'failed' }>): string {
  const retry = outcome.willRetry ? '; it will be retried' : '';
  let error: unknown = outcome.cause;
  for (let depth = 0; error instanceof Error && depth < 5; depth++, error = error.cause) {
    if (error instanceof ShownJobError) return error.message;
    if (error instanceof WhatsappApiError) {
      return error.status === null ? `WhatsApp could not be reached${retry}` : error.message;
    }
    const reply = smtpReply(error);
    if (reply) return `The mail server answered: ${reply}`;
    if (error instanceof ReportPreparationError) return `The report could not be prepared${retry}`;
  }
  return `Sending failed${retry}`;
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
  const error = shownError(outcome);
  await tx
    .update(outboundMessages)
    .set(outcome.willRetry ? { error } : { error, status: 'REJECTED' })
    .where(eq(outboundMessages.id, id));
}

function emailHandler(deps: TDeliveryDeps): TJobHandler {
  return {
    async run({ job }) {
      const message = await loadMessage(deps.db, job);
      if (message.status === 'FULFILLED') return { provider_message_id: message.providerMessageId };
      if (deps.mailer.kind !== 'smtp')
        throw new ShownJobError('Sending failed: e-mail is no longer configured');
      let attachments: TMailAttachment[];
      if (message.kind === 'report') {
        const file = await renderSharedReport(deps, job, message);
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
      if (!deps.whatsapp) throw new ShownJobError('Sending failed: WhatsApp is no longer configured');
      const client = new WhatsappClient(deps.whatsapp);
      try {
        // A retry after a successful upload sends the media uploaded then (ids live for 30 days).
        let mediaId = typeof job.progress.media_id === 'string' ? job.progress.media_id : null;
        let filename = typeof job.progress.file_name === 'string' ? job.progress.file_name : null;
        if (!mediaId || !filename) {
          const file = await renderSharedReport(deps, job, message);
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
