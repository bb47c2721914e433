// A real SMTP server on 127.0.0.1 for tests: mail sent through SMTP_URL arrives here.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type TCapturedMail = { from: string; to: string[]; raw: string; decoded: string };

export type TSmtpCapture = {
  url: string;
  /** The next mail to arrive (or one that arrived and was not taken yet). */
  nextMail(): Promise<TCapturedMail>;
  close(): Promise<void>;
};

/** Undoes quoted-printable (soft line breaks, =XX) so links can be read from the raw message. */
export function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

export async function startSmtpCapture(): Promise<TSmtpCapture> {
  const arrived: TCapturedMail[] = [];
  const waiting: ((mail: TCapturedMail) => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
        const mail = {
          from,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          decoded: decodeQuotedPrintable(raw),
        };
        const waiter = waiting.shift();
        if (waiter) waiter(mail);
        else arrived.push(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    nextMail() {
      const mail = arrived.shift();
      if (mail) return Promise.resolve(mail);
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
