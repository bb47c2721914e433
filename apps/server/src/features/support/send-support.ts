// The support form: one e-mail to SUPPORT_EMAIL (reply-to the person who wrote), with its uploads
// stored first; sent by a delivery job when SMTP is configured, else kept in the outbox.
import {
  MAX_SUPPORT_FILE_BYTES,
  MAX_SUPPORT_FILES,
  type TDeliveryState,
  type TSupportFields,
} from '@ris/domain';
import { eq } from 'drizzle-orm';
import type { TPrincipal } from '../../auth/principal.ts';
import type { TTx } from '../../db/client.ts';
import { outboundMessages, type TOutboundAttachment } from '../../db/schema/index.ts';
import type { BlobStore } from '../../files/blob-store.ts';
import { storeFile } from '../../files/stored-files.ts';
import { enqueueJob } from '../../jobs/jobs.ts';
import type { TFormLimits, TUpload } from '../../http/multipart.ts';
import { DELIVERY_MAX_ATTEMPTS, DELIVERY_QUEUES } from '../comm/share-report.ts';

/** upload_files: PNG, JPEG, PDF or WebP by content, MAX_SUPPORT_FILES of MAX_SUPPORT_FILE_BYTES. */
export const SUPPORT_UPLOAD_LIMITS: TFormLimits = {
  noun: 'file',
  accept: ['image/png', 'image/jpeg', 'application/pdf', 'image/webp'],
  acceptLabel: 'PNG, JPEG, PDF or WebP',
  maxBytes: MAX_SUPPORT_FILE_BYTES,
  maxFiles: MAX_SUPPORT_FILES,
  maxTotalBytes: MAX_SUPPORT_FILES * MAX_SUPPORT_FILE_BYTES,
  fileFields: ['upload_files'],
};

export type TSendSupportInput = {
  principal: TPrincipal;
  fields: TSupportFields;
  files: readonly TUpload[];
  supportEmail: string;
  /** SMTP is configured: queue a delivery job (else the message waits in the outbox). */
  smtpConfigured: boolean;
};

/** Subject and text of a support mail, as the outbox shows them. */
export function supportText(fields: TSupportFields, principal: TPrincipal) {
  return {
    subject: `Support request from ${fields.user_name}`,
    body: [
      fields.message,
      '',
      '—',
      `${fields.user_name} <${fields.email}>`,
      `User id: ${principal.userId}; role: ${principal.role ?? 'none'}`,
    ].join('\n'),
  };
}

/** Stores the uploads and the message (and its job) in the caller's transaction. */
export async function sendSupport(
  tx: TTx,
  blobs: BlobStore,
  input: TSendSupportInput,
): Promise<{ id: string; state: TDeliveryState }> {
  const { principal, fields } = input;
  const attachments: TOutboundAttachment[] = [];
  for (const file of input.files) {
    const stored = await storeFile(tx, blobs, {
      data: file.data,
      originalName: file.filename,
      organisationId: principal.organisationId,
      createdBy: principal.userId,
      accept: SUPPORT_UPLOAD_LIMITS.accept,
      maxBytes: SUPPORT_UPLOAD_LIMITS.maxBytes,
    });
    attachments.push({ file_id: stored.id, filename: file.filename });
  }
  const text = supportText(fields, principal);
  const [message] = await tx
    .insert(outboundMessages)
    .values({
      organisationId: principal.organisationId,
      channel: 'email',
      kind: 'support',
      recipient: input.supportEmail,
      subject: text.subject,
      body: text.body,
      attachments,
      status: 'PENDING',
      createdBy: principal.userId,
    })
    .returning({ id: outboundMessages.id });
  if (!message) throw new Error('outbound message insert returned nothing');
  if (!input.smtpConfigured) return { id: message.id, state: 'outbox' };
  const jobId = await enqueueJob(tx, {
    queue: DELIVERY_QUEUES.email,
    payload: { message_id: message.id, reply_to: fields.email },
    idempotencyKey: `outbound:${message.id}`,
    maxAttempts: DELIVERY_MAX_ATTEMPTS,
  });
  await tx.update(outboundMessages).set({ jobId }).where(eq(outboundMessages.id, message.id));
  return { id: message.id, state: 'pending' };
}
