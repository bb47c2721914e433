import nodemailer from 'nodemailer';
import type { Mailer, TMailMessage, TMailResult } from './mailer.ts';

type TTransport = ReturnType<typeof nodemailer.createTransport>;

/** Sends through an SMTP server (SMTP_URL, e.g. smtps://user:pass@mail.example.org:465). */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  readonly #transport: TTransport;
  readonly #from: string;

  constructor(url: string, from: string) {
    this.#transport = nodemailer.createTransport(url);
    this.#from = from;
  }

  async send(message: TMailMessage): Promise<TMailResult> {
    const info = await this.#transport.sendMail({
      from: this.#from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html === undefined ? {} : { html: message.html }),
    });
    return { delivery: 'smtp', id: String(info.messageId) };
  }

  async close(): Promise<void> {
    this.#transport.close();
  }
}
