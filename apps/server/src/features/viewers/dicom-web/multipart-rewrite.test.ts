import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { boundaryOf, multipartHeaderRewriter, rewriteContentLocation } from './multipart-rewrite.ts';

const ARCHIVE = 'http://127.0.0.1:8042/dicom-web';
const PROXY = 'https://ris.example/dicom-web';

function multipart(boundary: string, parts: Array<{ location: string; body: Buffer }>): Buffer {
  const chunks: Buffer[] = [Buffer.from('preamble\r\n')];
  for (const part of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Type: application/dicom\r\nContent-Location: ${part.location}\r\n\r\n`,
      ),
    );
    chunks.push(part.body, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

async function through(input: Buffer, boundary: string, chunkSize: number): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for (let at = 0; at < input.length; at += chunkSize) pieces.push(input.subarray(at, at + chunkSize));
  const rewriter = multipartHeaderRewriter(boundary, (headers) =>
    rewriteContentLocation(headers, (url) =>
      url.startsWith(ARCHIVE) ? `${PROXY}${url.slice(ARCHIVE.length)}` : null,
    ),
  );
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(pieces).pipe(rewriter)) out.push(chunk as Buffer);
  return Buffer.concat(out);
}

describe('multipart part headers', () => {
  it('reads the boundary of a multipart content type, quoted or not', () => {
    expect(boundaryOf('multipart/related; type="application/dicom"; boundary=abc-1')).toBe('abc-1');
    expect(boundaryOf('multipart/related; boundary="a b"; type=application/dicom')).toBe('a b');
    expect(boundaryOf('application/dicom+json')).toBeNull();
  });

  it('rewrites Content-Location to the proxy and keeps the bodies byte for byte, whatever the chunking', async () => {
    const boundary = 'b0undary';
    const bodies = [Buffer.from([0, 1, 2, 13, 10, 13, 10, 45, 45, 255]), Buffer.alloc(5000, 7)];
    const input = multipart(boundary, [
      { location: `${ARCHIVE}/studies/1.2/series/3/instances/4`, body: bodies[0] ?? Buffer.alloc(0) },
      { location: 'http://elsewhere.example/x', body: bodies[1] ?? Buffer.alloc(0) },
    ]);
    const expected = Buffer.concat([
      Buffer.from(
        `preamble\r\n--${boundary}\r\nContent-Type: application/dicom\r\nContent-Location: ${PROXY}/studies/1.2/series/3/instances/4\r\n\r\n`,
      ),
      bodies[0] ?? Buffer.alloc(0),
      Buffer.from(`\r\n--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`),
      bodies[1] ?? Buffer.alloc(0),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    for (const size of [1, 2, 3, 7, 64, 1000, input.length]) {
      const output = await through(input, boundary, size);
      expect(output.equals(expected), `chunks of ${size}`).toBe(true);
      expect(output.toString('latin1')).not.toContain(ARCHIVE);
    }
  });
});
