import type { Mailer, TMailMessage } from './mailer.ts';

export type TDeferredMailLogger = { error(object: object, message: string): void };

/**
 * Sends mail after the response, so an answer that must not reveal whether an account exists takes
 * the same time whether a mail was sent or not (SMTP can take seconds). Failures are logged; the
 * mail interface stays the place to add retries. `settled()` waits for every mail in flight (tests,
 * shutdown).
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
   * the composer returns one; either way after the caller has answered.
   */
  dispatch(message: TMailMessage | (() => Promise<TMailMessage | null>)): void {
    const composed =
      typeof message === 'function' ? Promise.resolve().then(message) : Promise.resolve(message);
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
