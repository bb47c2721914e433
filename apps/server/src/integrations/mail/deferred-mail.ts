import type { Mailer, TMailMessage } from './mailer.ts';

export type TDeferredMailLogger = { error(object: object, message: string): void };

/**
 * The response a deferred mail waits for: an http.ServerResponse (Fastify's `reply.raw`). 'finish'
 * fires once the whole answer has been handed to the operating system, 'close' when the client went
 * away first; either way the answer can no longer be slowed down by the mail.
 */
export type TResponseEnd = {
  readonly writableFinished: boolean;
  readonly destroyed: boolean;
  once(event: 'finish' | 'close', listener: () => void): unknown;
};

/** Resolves in a later turn of the event loop than the end of `response` (or of the current one). */
export function afterResponse(response?: TResponseEnd): Promise<void> {
  return new Promise((resolve) => {
    const later = () => setImmediate(resolve);
    if (!response || response.writableFinished || response.destroyed) {
      later();
      return;
    }
    response.once('finish', later);
    response.once('close', later);
  });
}

/**
 * Sends mail after the response, so an answer that must not reveal whether an account exists takes
 * the same time whether a mail was sent or not (SMTP can take seconds; even creating the link's token
 * is a database round trip). Nothing of the mail's work starts before the response has been sent.
 * Failures are logged; the mail interface stays the place to add retries. `settled()` waits for
 * every mail in flight (tests, shutdown).
 */
export class DeferredMail {
  readonly #mailer: Mailer;
  readonly #log: TDeferredMailLogger;
  readonly #inFlight = new Set<Promise<void>>();

  constructor(mailer: Mailer, log: TDeferredMailLogger) {
    this.#mailer = mailer;
    this.#log = log;
  }

  /**
   * Sends a message, or composes one first (e.g. creating the link token it carries) and sends it if
   * the composer returns one; either way only after `response` has been sent (without one: in a
   * later turn of the event loop, never before the caller's current work).
   */
  dispatch(message: TMailMessage | (() => Promise<TMailMessage | null>), response?: TResponseEnd): void {
    const composed = afterResponse(response).then(() =>
      typeof message === 'function' ? message() : message,
    );
    const sending = composed
      .then((mail) => (mail ? this.#mailer.send(mail) : null))
      .then(
        () => undefined,
        (error: unknown) => this.#log.error({ err: error }, 'e-mail could not be composed or sent'),
      );
    this.#inFlight.add(sending);
    void sending.finally(() => this.#inFlight.delete(sending));
  }

  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
  }
}
