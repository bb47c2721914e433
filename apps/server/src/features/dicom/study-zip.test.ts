// The WADO-RS → zip path without an archive: multipart parts read across any chunking, and the zip
// written from them read back by an independent reader (JSZip).
import { randomBytes } from 'node:crypto';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { boundaryOf, multipartParts, type TPartEvent } from './multipart-parts.ts';
import { instanceEntryName } from './study-zip.ts';
import { partsAsFiles, zipStream } from './zip-stream.ts';

const BOUNDARY = 'b0undary-42';

function multipart(parts: Buffer[], preamble = ''): Buffer {
  const pieces: Buffer[] = [Buffer.from(preamble)];
  for (const part of parts) {
    pieces.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Type: application/dicom\r\n\r\n`),
      part,
      Buffer.from('\r\n'),
    );
  }
  pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(pieces);
}

async function* chunked(body: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < body.length; at += size) yield body.subarray(at, at + size);
}

async function collect(events: AsyncIterable<TPartEvent>) {
  const parts: { headers: Record<string, string>; body: Buffer }[] = [];
  let data: Buffer[] = [];
  let headers: Record<string, string> = {};
  for await (const event of events) {
    if (event.type === 'start') {
      headers = event.headers;
      data = [];
    } else if (event.type === 'data') data.push(event.chunk);
    else parts.push({ headers, body: Buffer.concat(data) });
  }
  return parts;
}

async function bytesOf(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const chunk of stream) out.push(chunk);
  return Buffer.concat(out);
}

// Parts that look like a delimiter's beginning, empty, and large.
const PARTS = [
  Buffer.concat([Buffer.from(`\r\n--${BOUNDARY.slice(0, 5)}`), randomBytes(300), Buffer.from('\r\n-')]),
  Buffer.alloc(0),
  randomBytes(70_000),
];

describe('multipart parts', () => {
  it('reads the boundary of a Content-Type, quoted or not', () => {
    expect(boundaryOf(`multipart/related; type="application/dicom"; boundary=${BOUNDARY}`)).toBe(BOUNDARY);
    expect(boundaryOf('multipart/related; boundary="a b"; type=x')).toBe('a b');
    expect(boundaryOf('application/dicom+json')).toBeNull();
    expect(boundaryOf(null)).toBeNull();
  });

  it('gives every part byte for byte however the body is chunked', async () => {
    const body = multipart(PARTS, 'a preamble\r\n');
    for (const size of [1, 3, 17, 4096, body.length]) {
      const parts = await collect(multipartParts(chunked(body, size), BOUNDARY));
      expect(
        parts.map((part) => part.body),
        `chunks of ${size}`,
      ).toEqual(PARTS);
      expect(parts[0]?.headers).toEqual({ 'content-type': 'application/dicom' });
    }
  });

  it('fails on a body cut short or without any delimiter', async () => {
    const body = multipart(PARTS);
    await expect(collect(multipartParts(chunked(body.subarray(0, 500), 64), BOUNDARY))).rejects.toThrow(
      /cut short/,
    );
    await expect(collect(multipartParts(chunked(Buffer.from('not multipart'), 4), BOUNDARY))).rejects.toThrow(
      /without a delimiter/,
    );
  });
});

describe('the zip written as the parts arrive', () => {
  it('is read back by JSZip with every entry, name and content', async () => {
    const body = multipart(PARTS);
    const zip = await bytesOf(
      zipStream(partsAsFiles(multipartParts(chunked(body, 1000), BOUNDARY), instanceEntryName)),
    );
    const read = await JSZip.loadAsync(zip);
    const names = Object.keys(read.files);
    expect(names).toEqual(['DICOM/IM00001.dcm', 'DICOM/IM00002.dcm', 'DICOM/IM00003.dcm']);
    const contents = await Promise.all(names.map((name) => read.files[name]?.async('nodebuffer')));
    expect(contents).toEqual(PARTS);
  });

  it('adds Zip64 records where offsets or the entry count outgrow the classic fields', async () => {
    const body = multipart(PARTS);
    const events = () => partsAsFiles(multipartParts(chunked(body, 4096), BOUNDARY), instanceEntryName);
    // Lowered thresholds: the second and third entries start "beyond 4 GiB", and there are "too many".
    const zip = await bytesOf(zipStream(events(), { zip64From: { offset: 400, entries: 2 } }));
    expect(zip.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    const read = await JSZip.loadAsync(zip);
    const names = Object.keys(read.files);
    expect(names).toHaveLength(3);
    const contents = await Promise.all(names.map((name) => read.files[name]?.async('nodebuffer')));
    expect(contents).toEqual(PARTS);
  });

  it('is a valid empty zip when the study has no instances', async () => {
    const zip = await bytesOf(
      zipStream(partsAsFiles(multipartParts(chunked(multipart([]), 5), BOUNDARY), instanceEntryName)),
    );
    expect(zip).toHaveLength(22);
    expect(Object.keys((await JSZip.loadAsync(zip)).files)).toEqual([]);
  });
});
