import type { TDb } from '../../db/client.ts';
import { outboundMessages } from '../../db/schema/index.ts';
import type { Mailer, TMailLogger, TMailMessage, TMailResult } from './mailer.ts';

/**
 * Without SMTP, mail waits in outbound_messages (channel email, status PENDING) where admins read
 * it; in development the message is also logged so links can be followed from the terminal.
 */
export class OutboxMailer implements Mailer {
  readonly kind = 'outbox' as const;
  readonly #db: TDb;
  readonly #logBodies: boolean;
  readonly #log: TMailLogger;

  constructor(db: TDb, options: { logBodies: boolean; log: TMailLogger }) {
    this.#db = db;
    this.#logBodies = options.logBodies;
    this.#log = options.log;
  }

  async send(message: TMailMessage): Promise<TMailResult> {
    const [row] = await this.#db
      .insert(outboundMessages)
      .values({
        organisationId: message.organisationId ?? null,
        channel: 'email',
        recipient: message.to,
        subject: message.subject,
        body: message.text,
        status: 'PENDING',
        createdBy: message.createdBy ?? null,
      })
      .returning({ id: outboundMessages.id });
    if (!row) throw new Error('outbox insert returned no row');
    if (this.#logBodies) {
      this.#log.info(
        { to: message.to, subject: message.subject, outbox_id: row.id },
        `e-mail kept in the outbox (no SMTP_URL):\n${message.text}`,
      );
    }
    return { delivery: 'outbox', id: row.id };
  }

  async close(): Promise<void> {}
}
