// Durable background jobs and the outbound message outbox (e-mail, WhatsApp).
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, primaryId, timestamps, timestamptz } from './columns.ts';
import { jobStatusEnum, messageChannelEnum, requestStatusEnum } from './enums.ts';
import { storedFiles } from './files.ts';
import { organisations } from './organisations.ts';
import { reports } from './reports.ts';
import { studies } from './studies.ts';
import { users } from './users.ts';

/**
 * A background job. Workers claim due jobs with
 * `SELECT ... WHERE status = 'pending' AND queue = $1 AND run_at <= now() ORDER BY run_at
 * FOR UPDATE SKIP LOCKED LIMIT n`, retry with back-off until max_attempts, and must be idempotent.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: primaryId(),
    queue: text('queue').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    status: jobStatusEnum('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(8),
    runAt: timestamptz('run_at').notNull().defaultNow(),
    lockedAt: timestamptz('locked_at'),
    /** Worker id (host:pid) holding the job while it runs. */
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    /** Enqueueing the same key twice yields one job (INSERT ... ON CONFLICT DO NOTHING). */
    idempotencyKey: text('idempotency_key').unique('jobs_idempotency_key_uq'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    ...timestamps(),
  },
  (t) => [
    // The claim query above.
    index('jobs_pending_queue_run_at_idx')
      .on(t.queue, t.runAt)
      .where(sql`${t.status} = 'pending'`),
    // Finding jobs whose worker died (running with an old locked_at).
    index('jobs_running_locked_at_idx')
      .on(t.lockedAt)
      .where(sql`${t.status} = 'running'`),
  ],
);

export const OUTBOUND_KINDS = ['account', 'report', 'support'] as const;
export type TOutboundKind = (typeof OUTBOUND_KINDS)[number];
export type TOutboundAttachment = { file_id: string; filename: string };

/**
 * An e-mail or WhatsApp message to send (sharing a report PDF, support mail ...). Admins read this
 * outbox when no provider is configured; status follows INITIATED → PENDING → FULFILLED | REJECTED.
 */
export const outboundMessages = pgTable(
  'outbound_messages',
  {
    id: primaryId(),
    /** Null for mail to a person outside any organisation (a password reset after sign-up). */
    organisationId: uuid('organisation_id').references(() => organisations.id, { onDelete: 'cascade' }),
    channel: messageChannelEnum('channel').notNull(),
    /** report (a shared report PDF), support (the support form), account (identity mail). */
    kind: text('kind').$type<TOutboundKind>().notNull().default('account'),
    /** An e-mail address or an E.164 phone number. */
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body: text('body').notNull().default(''),
    /** A report share: attach the letterhead variant of the PDF. */
    withLetterhead: boolean('with_letterhead').notNull().default(false),
    /** Stored files attached as they are (support form uploads). */
    attachments: jsonb('attachments').$type<TOutboundAttachment[]>().notNull().default([]),
    /** One message per key: a repeated request (Idempotency-Key header) does not send twice. */
    idempotencyKey: text('idempotency_key').unique('outbound_messages_idempotency_key_uq'),
    attachmentFileId: uuid('attachment_file_id').references(() => storedFiles.id, {
      onDelete: 'set null',
    }),
    studyId: uuid('study_id').references(() => studies.id, { onDelete: 'set null' }),
    reportId: uuid('report_id').references(() => reports.id, { onDelete: 'set null' }),
    status: requestStatusEnum('status').notNull().default('INITIATED'),
    providerMessageId: text('provider_message_id'),
    error: text('error'),
    jobId: uuid('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    sentAt: timestamptz('sent_at'),
  },
  (t) => [
    index('outbound_messages_organisation_created_idx').on(t.organisationId, t.createdAt),
    index('outbound_messages_study_idx')
      .on(t.studyId)
      .where(sql`${t.studyId} is not null`),
    index('outbound_messages_job_idx')
      .on(t.jobId)
      .where(sql`${t.jobId} is not null`),
  ],
);
