// Delivery of reports by e-mail and WhatsApp, the support form and the outbox (spec §7 /comm/*).
import { z } from 'zod';
import { ZUuid } from '../common/uuid.ts';
import { ZFormBoolean } from '../reports/report-output.schemas.ts';

/** The most recipients one share request may name. */
export const MAX_REPORT_RECIPIENTS = 10;
/** Support form limits. */
export const MAX_SUPPORT_MESSAGE_LENGTH = 5_000;
export const MAX_SUPPORT_FILES = 5;
export const MAX_SUPPORT_FILE_BYTES = 5 * 1024 * 1024;

/** An E.164 telephone number: "+", country code, subscriber number; 8 to 15 digits in all. */
export const E164_PATTERN = /^\+[1-9][0-9]{7,14}$/;
export const ZE164 = z.string().trim().regex(E164_PATTERN, 'must be an E.164 number such as +919876543210');
export const ZEmailAddress = z.string().trim().toLowerCase().pipe(z.email('must be a valid e-mail address'));

export const ZSendReportEmailBody = z.object({
  worklist_id: ZUuid,
  emails: z.array(ZEmailAddress).min(1).max(MAX_REPORT_RECIPIENTS),
  with_letterhead: ZFormBoolean.default(false),
  by_user_id: ZUuid,
});
export type TSendReportEmailBody = z.infer<typeof ZSendReportEmailBody>;

export const ZSendReportWhatsappBody = z.object({
  worklist_id: ZUuid,
  mobile_numbers: z.array(ZE164).min(1).max(MAX_REPORT_RECIPIENTS),
  with_letterhead: ZFormBoolean.default(false),
  by_user_id: ZUuid,
});
export type TSendReportWhatsappBody = z.infer<typeof ZSendReportWhatsappBody>;

export const DELIVERY_CHANNELS = ['email', 'whatsapp'] as const;
export type TDeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

/**
 * What the sender sees of a message: pending (queued or retrying), sent, failed (with the reason),
 * or outbox (no provider is configured: the message waits where admins can read it).
 */
export const DELIVERY_STATES = ['pending', 'sent', 'failed', 'outbox'] as const;
export type TDeliveryState = (typeof DELIVERY_STATES)[number];

export const ZDeliveryMessage = z.object({
  id: ZUuid,
  channel: z.enum(DELIVERY_CHANNELS),
  recipient: z.string(),
  state: z.enum(DELIVERY_STATES),
  /** Why the last attempt failed (pending: will be retried; failed: gave up). */
  error: z.string().nullable(),
  attempts: z.number().int(),
  with_letterhead: z.boolean(),
  worklist_id: ZUuid.nullable(),
  created_by: ZUuid.nullable(),
  created_by_display_name: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type TDeliveryMessage = z.infer<typeof ZDeliveryMessage>;

/** Answer of both send-report-pdf calls: one message per recipient, queued (202). */
export const ZSendReportResponse = z.object({ messages: z.array(ZDeliveryMessage) });
export type TSendReportResponse = z.infer<typeof ZSendReportResponse>;

/** GET /comm/messages?worklist_id=: the deliveries of one study's report, newest first. */
export const ZDeliveryListQuery = z.object({ worklist_id: ZUuid });
export const ZDeliveryList = z.object({ items: z.array(ZDeliveryMessage) });
export type TDeliveryList = z.infer<typeof ZDeliveryList>;

/** GET /comm/outbox (admins): every outbound message of the organisation with its content. */
export const ZOutboxQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  channel: z.enum(DELIVERY_CHANNELS).optional(),
});
export const ZOutboxMessage = ZDeliveryMessage.extend({
  subject: z.string().nullable(),
  body: z.string(),
  attachment_name: z.string().nullable(),
});
export type TOutboxMessage = z.infer<typeof ZOutboxMessage>;
export const ZOutboxPage = z.object({
  items: z.array(ZOutboxMessage),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type TOutboxPage = z.infer<typeof ZOutboxPage>;

/** POST /comm/email/send-support (multipart; the text fields, files come as upload_files). */
export const ZSupportFields = z.object({
  user_id: ZUuid,
  user_name: z.string().trim().min(1).max(200),
  email: ZEmailAddress,
  message: z.string().trim().min(1).max(MAX_SUPPORT_MESSAGE_LENGTH),
});
export type TSupportFields = z.infer<typeof ZSupportFields>;
export const ZSupportResponse = z.object({ id: ZUuid, state: z.enum(DELIVERY_STATES) });
export type TSupportResponse = z.infer<typeof ZSupportResponse>;
