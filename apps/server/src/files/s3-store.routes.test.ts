// The server with S3_* set keeps uploads in the bucket: a patient document goes in through the API,
// lands as an object under S3_PREFIX, comes back byte for byte, and a store that stops answering
// gives the API's 503 error, not a 500 or a hang.
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import type { TWorklistItem } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema/index.ts';
import { buildReportWorld, type TWorld } from '../test/report-test-world.ts';
import { startS3Server, type TS3Server } from '../test/s3-server.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { s3ClientOf } from './s3-store.ts';

let s3: TS3Server;
let server: TTestServer;
let w: TWorld;

beforeAll(async () => {
  s3 = await startS3Server();
  server = await startTestServer({ env: { ...s3.env, S3_PREFIX: 'ris/files' } });
  w = await buildReportWorld(server);
});
afterAll(async () => {
  await server.close();
  await s3.close();
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

async function upload(studyId: string): Promise<{ status: number; item: TWorklistItem }> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), 'requisition.pdf');
  const response = await fetch(`${server.url}/api/v1/worklist/${studyId}/document`, {
    method: 'POST',
    headers: { authorization: `Bearer ${w.token('transcriptionist')}` },
    body: form,
  });
  return { status: response.status, item: (await response.json()) as TWorklistItem };
}

async function download(path: string): Promise<Response> {
  return fetch(`${server.url}/api/v1${path}`, {
    headers: { authorization: `Bearer ${w.token('radiologist')}` },
  });
}

describe('files in an S3-compatible store', () => {
  it('reports the bucket as up in /readyz', async () => {
    const response = await server.request('GET', '/readyz');
    expect(response.json).toMatchObject({ status: 'ready', files: 'up' });
  });

  it('stores an uploaded patient document as an object under S3_PREFIX and serves it back', async () => {
    const study = await w.study();
    const { status, item } = await upload(study.id);
    expect(status).toBe(201);
    const [document] = item.patient_documents;
    if (!document) throw new Error('no document');

    const [row] = await server.db
      .select({ file: t.storedFiles })
      .from(t.patientDocuments)
      .innerJoin(t.storedFiles, eq(t.storedFiles.id, t.patientDocuments.fileId))
      .where(eq(t.patientDocuments.id, document.id));
    expect(row?.file).toMatchObject({ storageDriver: 's3', sizeBytes: PDF.byteLength });
    const client = s3ClientOf(s3.config());
    const object = await client.send(
      new HeadObjectCommand({ Bucket: s3.bucket, Key: `ris/files/${row?.file.storageKey}` }),
    );
    expect(object.ContentLength).toBe(PDF.byteLength);
    client.destroy();

    const served = await download(`/worklist/${study.id}/document/${document.id}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await served.arrayBuffer()).equals(PDF)).toBe(true);
  });

  it('answers 503 in the API error shape once the store stops answering', async () => {
    const study = await w.study();
    const { item } = await upload(study.id);
    const documentId = item.patient_documents[0]?.id;
    await s3.close();
    const served = await download(`/worklist/${study.id}/document/${documentId}`);
    expect(served.status).toBe(503);
    expect(await served.json()).toEqual({
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'The file store is not answering. Please try again in a moment.',
      },
    });
    const refused = await upload(study.id);
    expect(refused.status).toBe(503);
    // The refused upload left no document behind (its transaction rolled back).
    const documents = await server.db
      .select()
      .from(t.patientDocuments)
      .where(eq(t.patientDocuments.studyId, study.id));
    expect(documents).toHaveLength(1);
  });
});
