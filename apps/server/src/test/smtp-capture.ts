// A real SMTP server on 127.0.0.1 for tests: mail sent through SMTP_URL arrives here.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type TCapturedMail = { from: string; to: string[]; raw: string; decoded: string };

export type TSmtpCapture = {
  url: string;
  port: number;
  /** Every mail that arrived, in order (taken by nextMail or not). */
  received: TCapturedMail[];
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

/** A port of 127.0.0.1 that was free a moment ago (nothing listens on it now: "SMTP down"). */
export async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export async function startSmtpCapture(
  options: {
    port?: number;
    /** RCPT TO these addresses is refused with 550 (a permanent failure). */
    rejectRecipients?: readonly string[];
  } = {},
): Promise<TSmtpCapture> {
  const received: TCapturedMail[] = [];
  const arrived: TCapturedMail[] = [];
  const waiting: ((mail: TCapturedMail) => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.rejectRecipients?.includes(address.address)) {
        const error = Object.assign(new Error('5.1.1 No such user here'), { responseCode: 550 });
        callback(error);
        return;
      }
      callback();
    },
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
        received.push(mail);
        const waiter = waiting.shift();
        if (waiter) waiter(mail);
        else arrived.push(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    nextMail() {
      const mail = arrived.shift();
      if (mail) return Promise.resolve(mail);
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TMimeAttachment = { filename: string; contentType: string; data: Buffer };

/** A header of a MIME entity (unfolded), or null. */
export function mimeHeader(entity: string, name: string): string | null {
  const head = entity.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const match = new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(unfolded);
  return match?.[1]?.trim() ?? null;
}

/**
 * The attachments of a raw message as nodemailer writes it (multipart/mixed, base64 parts with
 * Content-Disposition: attachment): enough to check what arrived without a full MIME parser.
 */
export function mimeAttachments(raw: string): TMimeAttachment[] {
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((m) => m[1] ?? '');
  const attachments: TMimeAttachment[] = [];
  for (const boundary of boundaries) {
    for (const part of raw.split(`--${boundary}`)) {
      const entity = part.replace(/^\r?\n/, '');
      const disposition = mimeHeader(entity, 'Content-Disposition');
      if (!disposition?.toLowerCase().startsWith('attachment')) continue;
      const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? '';
      const contentType = (mimeHeader(entity, 'Content-Type') ?? '').split(';')[0]?.trim() ?? '';
      const body = entity
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join('\n');
      const encoding = (mimeHeader(entity, 'Content-Transfer-Encoding') ?? '').toLowerCase();
      const data =
        encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64') : Buffer.from(body, 'utf8');
      attachments.push({ filename, contentType, data });
    }
  }
  return attachments;
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=) of a header value. */
export function decodeMimeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, encoding: string, text: string) => {
      if (encoding.toLowerCase() === 'b') return Buffer.from(text, 'base64').toString('utf8');
      const bytes = text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => `%${hex}`);
      return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
    });
}
