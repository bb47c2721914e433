import nodemailer from 'nodemailer';
import type { Mailer, TMailMessage, TMailResult } from './mailer.ts';

type TTransport = ReturnType<typeof nodemailer.createTransport>;

/** Sends through an SMTP server (SMTP_URL, e.g. smtps://user:pass@mail.example.org:465). */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  readonly #transport: TTransport;
  readonly #from: string;

  constructor(url: string, from: string) {
    this.#transport = nodemailer.createTransport({
      url,
      // A server that accepts the connection and then hangs must not hold a job for minutes
      // (the URL's own query parameters, e.g. ?socketTimeout=…, still win).
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 120_000,
    });
    this.#from = from;
  }

  async send(message: TMailMessage): Promise<TMailResult> {
    const info = await this.#transport.sendMail({
      from: this.#from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html === undefined ? {} : { html: message.html }),
      ...(message.replyTo === undefined ? {} : { replyTo: message.replyTo }),
      ...(message.messageId === undefined ? {} : { messageId: message.messageId }),
      ...(message.attachments === undefined
        ? {}
        : {
            attachments: message.attachments.map((attachment) => ({
              filename: attachment.filename,
              content: attachment.content,
              contentType: attachment.contentType,
            })),
          }),
    });
    return { delivery: 'smtp', id: String(info.messageId) };
  }

  async close(): Promise<void> {
    this.#transport.close();
  }
}
