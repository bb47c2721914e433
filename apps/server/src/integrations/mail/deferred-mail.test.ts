import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { DeferredMail, type TResponseEnd } from './deferred-mail.ts';
import type { Mailer, TMailMessage } from './mailer.ts';

class FakeResponse extends EventEmitter implements TResponseEnd {
  writableFinished = false;
  destroyed = false;
  finish(): void {
    this.writableFinished = true;
    this.emit('finish');
    this.emit('close');
  }
}

function recordingMailer(): Mailer & { sent: TMailMessage[] } {
  const sent: TMailMessage[] = [];
  return {
    kind: 'outbox',
    sent,
    send: async (message) => {
      sent.push(message);
      return { delivery: 'outbox', id: String(sent.length) };
    },
    close: async () => undefined,
  };
}

const message: TMailMessage = { to: 'someone@example.test', subject: 'Hello', text: 'Hello' };
/** Lets every callback already queued (microtasks, I/O, immediates) run; not a wait for the mail. */
const drainEventLoop = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('DeferredMail', () => {
  it('starts composing only after the response has finished, however long that takes', async () => {
    const mailer = recordingMailer();
    const mail = new DeferredMail(mailer, { error: () => undefined });
    const response = new FakeResponse();
    const events: string[] = [];
    mail.dispatch(async () => {
      events.push(response.writableFinished ? 'composed after the answer' : 'composed before the answer');
      return message;
    }, response);
    await drainEventLoop();
    expect(events).toEqual([]);
    response.finish();
    await mail.settled();
    expect(events).toEqual(['composed after the answer']);
    expect(mailer.sent).toEqual([message]);
  });

  it('also starts once the client has gone away (close without finish)', async () => {
    const mailer = recordingMailer();
    const mail = new DeferredMail(mailer, { error: () => undefined });
    const response = new FakeResponse();
    mail.dispatch(message, response);
    await drainEventLoop();
    expect(mailer.sent).toEqual([]);
    response.destroyed = true;
    response.emit('close');
    await mail.settled();
    expect(mailer.sent).toEqual([message]);
  });

  it('without a response, never composes within the caller’s own turn of the event loop', async () => {
    const mail = new DeferredMail(recordingMailer(), { error: () => undefined });
    let composed = false;
    mail.dispatch(async () => {
      composed = true;
      return null;
    });
    // Microtasks of the caller (e.g. the rest of a route handler) run before the composer.
    await Promise.resolve();
    await Promise.resolve();
    expect(composed).toBe(false);
    await mail.settled();
    expect(composed).toBe(true);
  });
});
