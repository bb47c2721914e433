// Reading outbound messages (report shares, support mail, account mail) with what the sender and the
// admins see of them: the delivery state, attempts, the last error, the attachment's name.
import { reportFileName, type TDeliveryMessage, type TDeliveryState, type TOutboxMessage } from '@ris/domain';
import { and, count, desc, eq, inArray, ne, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client.ts';
import { jobs, outboundMessages, studies, users } from '../../db/schema/index.ts';

const columns = {
  message: outboundMessages,
  attempts: jobs.attempts,
  jobStatus: jobs.status,
  createdByName: users.displayName,
  patientName: studies.patientName,
};

type TDeliveryRow = {
  message: typeof outboundMessages.$inferSelect;
  attempts: number | null;
  jobStatus: (typeof jobs.$inferSelect)['status'] | null;
  createdByName: string | null;
  patientName: string | null;
};

function selectDeliveries(db: TDbOrTx, where: SQL | undefined) {
  return db
    .select(columns)
    .from(outboundMessages)
    .leftJoin(jobs, eq(jobs.id, outboundMessages.jobId))
    .leftJoin(users, eq(users.id, outboundMessages.createdBy))
    .leftJoin(studies, eq(studies.id, outboundMessages.studyId))
    .where(where)
    .orderBy(desc(outboundMessages.createdAt), desc(outboundMessages.id));
}

/**
 * sent (FULFILLED), failed (REJECTED), pending (a job will deliver it, perhaps after a failed
 * attempt), outbox (no provider was configured: no job, it waits for an admin to read it).
 */
export function deliveryState(message: typeof outboundMessages.$inferSelect): TDeliveryState {
  if (message.status === 'FULFILLED') return 'sent';
  if (message.status === 'REJECTED') return 'failed';
  return message.jobId ? 'pending' : 'outbox';
}

export function presentDelivery(row: TDeliveryRow): TDeliveryMessage {
  const { message } = row;
  return {
    id: message.id,
    channel: message.channel,
    recipient: message.recipient,
    state: deliveryState(message),
    error: message.status === 'FULFILLED' ? null : message.error,
    attempts: row.attempts ?? 0,
    with_letterhead: message.withLetterhead,
    worklist_id: message.studyId,
    created_by: message.createdBy,
    created_by_display_name: row.createdByName || null,
    created_at: message.createdAt.toISOString(),
    sent_at: message.sentAt?.toISOString() ?? null,
  };
}

function attachmentName(row: TDeliveryRow): string | null {
  const { message } = row;
  if (message.kind === 'report') return reportFileName(row.patientName ?? '', 'pdf');
  const names = message.attachments.map((attachment) => attachment.filename);
  return names.length > 0 ? names.join(', ') : null;
}

export function presentOutboxMessage(row: TDeliveryRow): TOutboxMessage {
  return {
    ...presentDelivery(row),
    subject: row.message.subject,
    body: row.message.body,
    attachment_name: attachmentName(row),
  };
}

/** These messages (ids), newest first. */
export async function loadDeliveries(db: TDbOrTx, ids: readonly string[]): Promise<TDeliveryMessage[]> {
  if (ids.length === 0) return [];
  const rows = await selectDeliveries(db, inArray(outboundMessages.id, [...ids]));
  return rows.map(presentDelivery);
}

/** The report shares of one study in one organisation (optionally only one sender's), newest first. */
export async function listStudyDeliveries(
  db: TDbOrTx,
  input: { organisationId: string; studyId: string; createdBy?: string | undefined },
): Promise<TDeliveryMessage[]> {
  const rows = await selectDeliveries(
    db,
    and(
      eq(outboundMessages.organisationId, input.organisationId),
      eq(outboundMessages.studyId, input.studyId),
      eq(outboundMessages.kind, 'report'),
      input.createdBy ? eq(outboundMessages.createdBy, input.createdBy) : undefined,
    ),
  ).limit(200);
  return rows.map(presentDelivery);
}

/**
 * A page of the organisation's outbound messages, newest first (the admins' outbox). Account mail
 * (password resets, sign-in links: live one-time tokens) is never listed: an admin reading it could
 * take over the account.
 */
export async function listOutbox(
  db: TDbOrTx,
  input: {
    organisationId: string;
    channel?: 'email' | 'whatsapp' | undefined;
    limit: number;
    offset: number;
  },
): Promise<{ items: TOutboxMessage[]; total: number }> {
  const where = and(
    eq(outboundMessages.organisationId, input.organisationId),
    ne(outboundMessages.kind, 'account'),
    input.channel ? eq(outboundMessages.channel, input.channel) : undefined,
  );
  const [rows, [totals]] = await Promise.all([
    selectDeliveries(db, where).limit(input.limit).offset(input.offset),
    db.select({ total: count() }).from(outboundMessages).where(where),
  ]);
  return { items: rows.map(presentOutboxMessage), total: totals?.total ?? 0 };
}
