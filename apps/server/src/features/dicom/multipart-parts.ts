// A multipart/related body (RFC 2046, as WADO-RS answers a study: one part per instance) read as
// it arrives: each part's headers, then its bytes in pieces, then its end. Never holds more than one
// network chunk plus a delimiter's length in memory, whatever the size of a part.

export type TPartEvent =
  { type: 'start'; headers: Record<string, string> } | { type: 'data'; chunk: Buffer } | { type: 'end' };

/** The boundary parameter of a multipart Content-Type, or null. */
export function boundaryOf(contentType: string | null): string | null {
  if (!contentType || !/^multipart\//i.test(contentType.trim())) return null;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2] ?? null;
}

const CRLF = Buffer.from('\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');
/** Largest header block of one part accepted (a malformed body must not grow memory). */
const MAX_HEADER_BYTES = 16 * 1024;

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** The parts of a multipart body; throws on a body that is not one (no delimiter, headers too long, cut short). */
export async function* multipartParts(
  body: AsyncIterable<Uint8Array>,
  boundary: string,
): AsyncGenerator<TPartEvent> {
  // Every delimiter is CRLF "--" boundary; a leading CRLF lets the first one match too.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let buffer: Buffer = Buffer.from(CRLF);
  let state: 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'done' = 'preamble';
  const chunks = body[Symbol.asyncIterator]();
  let exhausted = false;

  const more = async (): Promise<boolean> => {
    if (exhausted) return false;
    const next = await chunks.next();
    if (next.done) {
      exhausted = true;
      return false;
    }
    buffer = buffer.length === 0 ? Buffer.from(next.value) : Buffer.concat([buffer, next.value]);
    return true;
  };

  try {
    yield* parts();
  } finally {
    // Stopped early (the browser went away, a bad body): let the source go too.
    if (!exhausted) await chunks.return?.();
  }

  async function* parts(): AsyncGenerator<TPartEvent> {
    while (state !== 'done') {
      if (state === 'preamble') {
        const at = buffer.indexOf(delimiter);
        if (at >= 0) {
          buffer = buffer.subarray(at + delimiter.length);
          state = 'after-delimiter';
        } else {
          buffer = buffer.subarray(Math.max(0, buffer.length - delimiter.length));
          if (!(await more())) throw new Error('multipart body without a delimiter');
        }
      } else if (state === 'after-delimiter') {
        if (buffer.length >= 2 && buffer[0] === 0x2d && buffer[1] === 0x2d) {
          state = 'done';
          continue;
        }
        const eol = buffer.indexOf(CRLF);
        if (eol >= 0) {
          buffer = buffer.subarray(eol + CRLF.length);
          state = 'headers';
        } else if (buffer.length > MAX_HEADER_BYTES || !(await more())) {
          throw new Error('multipart body cut short after a delimiter');
        }
      } else if (state === 'headers') {
        // A part without headers starts with the blank line itself.
        const end = buffer.subarray(0, 2).equals(CRLF) ? -2 : buffer.indexOf(HEADERS_END);
        if (end === -2 || end >= 0) {
          const headers = end === -2 ? {} : parseHeaders(buffer.subarray(0, end).toString('latin1'));
          buffer = buffer.subarray(end === -2 ? 2 : end + HEADERS_END.length);
          yield { type: 'start', headers };
          state = 'body';
        } else if (buffer.length > MAX_HEADER_BYTES || !(await more())) {
          throw new Error('multipart part headers too long or cut short');
        }
      } else {
        const at = buffer.indexOf(delimiter);
        if (at >= 0) {
          if (at > 0) yield { type: 'data', chunk: buffer.subarray(0, at) };
          yield { type: 'end' };
          buffer = buffer.subarray(at + delimiter.length);
          state = 'after-delimiter';
        } else {
          // Keep what could be the start of a delimiter split across chunks.
          const safe = buffer.length - (delimiter.length - 1);
          if (safe > 0) {
            yield { type: 'data', chunk: buffer.subarray(0, safe) };
            buffer = buffer.subarray(safe);
          }
          if (!(await more())) throw new Error('multipart body cut short inside a part');
        }
      }
    }
  }
}
