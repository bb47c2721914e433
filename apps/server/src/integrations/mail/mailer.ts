import type { TConfig } from '../../config.ts';
import type { TDb } from '../../db/client.ts';
import { OutboxMailer } from './outbox-mailer.ts';
import { SmtpMailer } from './smtp-mailer.ts';

export type TMailAttachment = { filename: string; content: Buffer; contentType: string };

export type TMailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Files sent with the mail (a report PDF, support-form uploads). */
  attachments?: readonly TMailAttachment[];
  /** Where answers go (the support form: the person who wrote it). */
  replyTo?: string;
  /**
   * The Message-ID header, e.g. `<outbound-<id>@ris.example.org>`: the same on every attempt of one
   * message, so a receiver can drop the duplicate of a retry after an uncertain send.
   */
  messageId?: string;
  /** The organisation the mail is sent for; null for people outside any (after sign-up). */
  organisationId?: string | null;
  /** The user whose action caused the mail, if any. */
  createdBy?: string | null;
};

export type TMailResult = { delivery: 'smtp' | 'outbox'; id: string };

/** Sends one e-mail. Implementations: SMTP (nodemailer) or the outbox table read by admins. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: TMailMessage): Promise<TMailResult>;
  close(): Promise<void>;
}

export type TMailLogger = { info(object: object, message: string): void };

/** SMTP when SMTP_URL is set; otherwise the outbox (and, in development, the mail is logged). */
export function createMailer(config: Pick<TConfig, 'mail' | 'env'>, db: TDb, log: TMailLogger): Mailer {
  if (config.mail.smtpUrl) return new SmtpMailer(config.mail.smtpUrl, config.mail.from);
  return new OutboxMailer(db, { logBodies: config.env === 'development', log });
}
