// Upload limits are applied while a form streams in: an oversize file is refused as soon as it
// crosses its limit, before the rest of the upload has even been sent, and nothing is stored.
import http from 'node:http';
import { MAX_REPORT_IMAGE_BYTES } from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { hugePng } from '../../documents/sample-report.ts';
import { buildReportWorld, type TWorld } from '../../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let server: TTestServer;
let w: TWorld;

beforeAll(async () => {
  server = await startTestServer();
  w = await buildReportWorld(server);
});
afterAll(async () => {
  await server.close();
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const BOUNDARY = 'ris-upload-limit-test';

const stored = async () => [
  (await server.db.select().from(t.storedFiles)).length,
  (await server.db.select().from(t.reportImages)).length,
];

/**
 * POSTs a multipart upload of one PNG `bytes` long, and never finishes it: the request stays open
 * after the file's bytes, so only a server that answers while the upload streams can answer at all.
 */
function unfinishedUpload(path: string, bytes: number): Promise<{ status: number; body: string }> {
  const url = new URL(`${server.url}/api/v1${path}`);
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${w.token('radiologist')}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() });
      });
    });
    request.write(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="huge.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    );
    request.write(PNG);
    const chunk = Buffer.alloc(256 * 1024);
    let sent = PNG.byteLength;
    const pump = (): void => {
      while (sent < bytes && !request.destroyed) {
        sent += chunk.byteLength;
        if (!request.write(chunk)) {
          request.once('drain', pump);
          return;
        }
      }
      // No closing boundary and no end(): the upload is never complete.
    };
    pump();
  });
}

async function sendImages(reportId: string, images: Buffer[]) {
  const form = new FormData();
  images.forEach((data, i) => form.append('files', new Blob([new Uint8Array(data)]), `k${i}.png`));
  const response = await fetch(`${server.url}/api/v1/worklist/report/${reportId}/upload-images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${w.token('radiologist')}` },
    body: form,
  });
  return { status: response.status, body: await response.text() };
}

describe('upload limits', () => {
  it('refuses an 11 MB key image with 413 while it is still being sent, storing nothing', async () => {
    const { report } = await w.studyWithReport();
    const before = await stored();
    const response = await unfinishedUpload(`/worklist/report/${report.id}/upload-images`, 11 * 1024 * 1024);
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toMatchObject({
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'files: each image must be at most 10 MB' },
    });
    expect(await stored()).toEqual(before);
  });

  it('refuses a patient document over 25 MB the same way', async () => {
    const study = await w.study();
    const before = await stored();
    const response = await unfinishedUpload(`/worklist/${study.id}/document`, 26 * 1024 * 1024);
    expect(response.status).toBe(413);
    expect(response.body).toContain('files: each document must be at most 25 MB');
    expect(await stored()).toEqual(before);
  });

  it('limits the images of one upload in number and in total size', async () => {
    const { report } = await w.studyWithReport();
    const before = await stored();
    const many = await sendImages(
      report.id,
      Array.from({ length: 11 }, () => PNG),
    );
    expect(many.status).toBe(413);
    expect(many.body).toContain('files: at most 10 images may be uploaded at once');
    const nine = Buffer.concat([PNG, Buffer.alloc(MAX_REPORT_IMAGE_BYTES - 1024 * 1024)]);
    const heavy = await sendImages(report.id, [nine, nine, nine, nine, nine]);
    expect(heavy.status).toBe(413);
    expect(heavy.body).toContain('files: the images of one upload must be at most 40 MB together');
    expect(await stored()).toEqual(before);
    expect((await sendImages(report.id, [PNG, PNG])).status).toBe(201);
  });

  it('refuses a key image over 25 megapixels (a tiny file of huge dimensions), storing nothing', async () => {
    const { report } = await w.studyWithReport();
    const before = await stored();
    const bomb = await sendImages(report.id, [PNG, hugePng(6000, 6000).data]);
    expect(bomb.status).toBe(413);
    expect(JSON.parse(bomb.body)).toMatchObject({
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message: 'files (k1.png): the image is 6000 × 6000 pixels; at most 25 megapixels are accepted',
      },
    });
    expect(await stored()).toEqual(before);
    expect((await sendImages(report.id, [hugePng(5000, 5000).data])).status).toBe(201);
  });
});
