// The part headers of a multipart/related answer (WADO-RS instances, frames, bulk data) may name the
// archive's own URL (Content-Location): those headers are rewritten to the proxy, or dropped, as the
// answer streams; part bodies pass byte for byte. A part's headers end at the first blank line after
// its delimiter ("--boundary"), which by the multipart rules never occurs inside a body.
import { Transform, type TransformCallback } from 'node:stream';

const HEADER_END = Buffer.from('\r\n\r\n');
/** Part headers longer than this are not headers: the answer is refused mid-stream. */
const MAX_HEADER_BYTES = 16 * 1024;

/** The boundary of a multipart content type, or null. */
export function boundaryOf(contentType: string): string | null {
  if (!/^multipart\//i.test(contentType.trim())) return null;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2] ?? null;
}

/** A stream that rewrites each part's headers with `rewrite` (a header block, CRLF-separated). */
export function multipartHeaderRewriter(boundary: string, rewrite: (headers: string) => string): Transform {
  const delimiter = Buffer.from(`--${boundary}`);
  let carry: Buffer = Buffer.alloc(0);
  let inHeaders = false;

  function drain(push: (chunk: Buffer) => void, final: boolean): void {
    for (;;) {
      if (!inHeaders) {
        const at = carry.indexOf(delimiter);
        if (at === -1) {
          const keep = final ? 0 : Math.min(carry.length, delimiter.length - 1);
          if (carry.length > keep) push(carry.subarray(0, carry.length - keep));
          carry = carry.subarray(carry.length - keep);
          return;
        }
        push(carry.subarray(0, at + delimiter.length));
        carry = carry.subarray(at + delimiter.length);
        inHeaders = true;
        continue;
      }
      // After a delimiter: "--" closes the body (the rest is epilogue), else CRLF and headers.
      if (carry.length < 2 && !final) return;
      if (carry.subarray(0, 2).toString('latin1') === '--') {
        push(carry);
        carry = Buffer.alloc(0);
        inHeaders = false;
        return;
      }
      const end = carry.indexOf(HEADER_END);
      if (end === -1) {
        if (carry.length > MAX_HEADER_BYTES) throw new Error('multipart part headers too long');
        if (final) push(carry);
        if (final) carry = Buffer.alloc(0);
        return;
      }
      push(Buffer.from(rewrite(carry.subarray(0, end).toString('latin1')), 'latin1'));
      carry = carry.subarray(end);
      inHeaders = false;
    }
  }

  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      carry = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
      try {
        drain((part) => this.push(part), false);
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback: TransformCallback) {
      try {
        drain((part) => this.push(part), true);
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}

/** Rewrites or drops Content-Location headers of a part header block with `url` (null: drop). */
export function rewriteContentLocation(headers: string, url: (value: string) => string | null): string {
  return headers
    .split('\r\n')
    .flatMap((line) => {
      const match = /^content-location:\s*(.*)$/i.exec(line);
      if (!match) return [line];
      const rewritten = url((match[1] ?? '').trim());
      return rewritten === null ? [] : [`Content-Location: ${rewritten}`];
    })
    .join('\r\n');
}
