import {
  MAX_PATIENT_DOCUMENT_BYTES,
  MAX_REPORT_IMAGE_BYTES,
  reportImagePath,
  type TReport,
  type TWorklistItem,
} from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../../test/report-test-world.ts';

let server: TTestServer;
let w: TWorld;

beforeAll(async () => {
  server = await startTestServer();
  w = await buildReportWorld(server);
});
afterAll(async () => {
  await server.close();
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const TEXT = Buffer.from('just some text pretending to be a file');

type TFile = { name: string; data: Buffer; type?: string };

async function send(
  user: TWorldUser,
  method: string,
  path: string,
  files: TFile[],
  fields: [string, string][] = [],
) {
  const form = new FormData();
  for (const [key, value] of fields) form.append(key, value);
  for (const file of files) {
    form.append(
      'files',
      new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/pdf' }),
      file.name,
    );
  }
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${w.token(user)}` },
    body: form,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}

async function download(user: TWorldUser, path: string) {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    headers: { authorization: `Bearer ${w.token(user)}` },
  });
  return {
    status: response.status,
    headers: response.headers,
    body: Buffer.from(await response.arrayBuffer()),
  };
}

const count = async (table: typeof t.storedFiles | typeof t.reportImages | typeof t.patientDocuments) =>
  (await server.db.select().from(table)).length;

describe('patient documents', () => {
  it('adds documents checked by content and serves one inline', async () => {
    const study = await w.study();
    const response = await send('transcriptionist', 'POST', `/worklist/${study.id}/document`, [
      { name: 'requisition.pdf', data: PDF },
      { name: 'scan;1 é.pdf', data: PNG, type: 'application/pdf' },
    ]);
    expect(response.status, response.text).toBe(201);
    const item = response.json as TWorklistItem;
    expect(item.patient_documents.map((d) => [d.filename, d.media_type])).toEqual([
      ['requisition.pdf', 'application/pdf'],
      ['scan;1 é.pdf', 'image/png'],
    ]);
    const [pdf, png] = item.patient_documents;
    const served = await download('referrer', `/worklist/${study.id}/document/${pdf?.id}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(served.headers.get('content-disposition')).toMatch(/^inline; filename="requisition.pdf"/);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toMatch(/^private/);
    expect(served.body.equals(PDF)).toBe(true);
    // A PNG named .pdf is served as what it is, with a filename that cannot break the header.
    const image = await download('radiologist', `/worklist/${study.id}/document/${png?.id}`);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('content-disposition')).toBe(
      `inline; filename="scan_1 e.pdf"; filename*=UTF-8''scan%3B1%20%C3%A9.pdf`,
    );
    expect((await download('outsider', `/worklist/${study.id}/document/${pdf?.id}`)).status).toBe(404);
    const other = await w.study();
    expect((await download('radiologist', `/worklist/${other.id}/document/${pdf?.id}`)).status).toBe(404);
  });

  it('refuses files that are not documents, oversized ones and callers who may not', async () => {
    const study = await w.study();
    const files = await count(t.storedFiles);
    const notPdf = await send('transcriptionist', 'POST', `/worklist/${study.id}/document`, [
      { name: 'good.pdf', data: PDF },
      { name: 'fake.pdf', data: TEXT },
    ]);
    expect(notPdf.status).toBe(415);
    expect(notPdf.text).toContain('files (fake.pdf)');
    const big = Buffer.concat([PDF, Buffer.alloc(MAX_PATIENT_DOCUMENT_BYTES)]);
    const tooBig = await send('transcriptionist', 'POST', `/worklist/${study.id}/document`, [
      { name: 'big.pdf', data: big },
    ]);
    expect(tooBig.status).toBe(413);
    expect(tooBig.text).toContain('files');
    expect(tooBig.text).toContain('25 MB');
    expect((await send('transcriptionist', 'POST', `/worklist/${study.id}/document`, [])).status).toBe(400);
    expect(
      (
        await send('otherRadiologist', 'POST', `/worklist/${study.id}/document`, [
          { name: 'a.pdf', data: PDF },
        ])
      ).status,
    ).toBe(403);
    expect(
      (await send('referrer', 'POST', `/worklist/${study.id}/document`, [{ name: 'a.pdf', data: PDF }]))
        .status,
    ).toBe(403);
    expect(
      (await send('outsider', 'POST', `/worklist/${study.id}/document`, [{ name: 'a.pdf', data: PDF }]))
        .status,
    ).toBe(404);
    expect(
      (
        await send('otherFacilityTranscriptionist', 'POST', `/worklist/${study.id}/document`, [
          { name: 'a.pdf', data: PDF },
        ])
      ).status,
    ).toBe(404);
    expect(await count(t.storedFiles)).toBe(files);
    const rows = await server.db
      .select()
      .from(t.patientDocuments)
      .where(eq(t.patientDocuments.studyId, study.id));
    expect(rows).toEqual([]);
  });

  it('PATCH keeps the named documents, removes the rest and adds the new, all or nothing', async () => {
    const study = await w.study();
    await send('radiologist', 'POST', `/worklist/${study.id}/document`, [
      { name: 'keep.pdf', data: PDF },
      { name: 'drop.pdf', data: PDF },
      { name: 'keep-too.png', data: PNG, type: 'image/png' },
    ]);
    const failed = await send(
      'radiologist',
      'PATCH',
      `/worklist/${study.id}/document`,
      [{ name: 'new.pdf', data: TEXT }],
      [['filenames', 'keep.pdf']],
    );
    expect(failed.status).toBe(415);
    const unknown = await send(
      'radiologist',
      'PATCH',
      `/worklist/${study.id}/document`,
      [],
      [
        ['filenames', 'keep.pdf'],
        ['filenames', 'nope.pdf'],
      ],
    );
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('filenames');
    const unchanged = await server.db
      .select()
      .from(t.patientDocuments)
      .where(eq(t.patientDocuments.studyId, study.id));
    expect(unchanged).toHaveLength(3);
    const response = await send(
      'radiologist',
      'PATCH',
      `/worklist/${study.id}/document`,
      [{ name: 'new.pdf', data: PDF }],
      [
        ['filenames', 'keep.pdf'],
        ['filenames', 'keep-too.png'],
      ],
    );
    expect(response.status, response.text).toBe(200);
    expect((response.json as TWorklistItem).patient_documents.map((d) => d.filename).sort()).toEqual([
      'keep-too.png',
      'keep.pdf',
      'new.pdf',
    ]);
    expect((await send('referrer', 'PATCH', `/worklist/${study.id}/document`, [], [])).status).toBe(403);
  });
});

describe('key images', () => {
  it('uploads images by content, serves them to readers, and keeps them in the text', async () => {
    const { studyId, report } = await w.studyWithReport();
    const response = await send('radiologist', 'POST', `/worklist/report/${report.id}/upload-images`, [
      { name: 'axial.png', data: PNG, type: 'image/png' },
      { name: 'anim.gif', data: GIF, type: 'image/gif' },
    ]);
    expect(response.status, response.text).toBe(201);
    const { images } = response.json as TReport;
    expect(images.map((i) => [i.filename, i.media_type, i.position])).toEqual([
      ['axial.png', 'image/png', 0],
      ['anim.gif', 'image/gif', 1],
    ]);
    const url = reportImagePath(report.id, images[0]?.id ?? '');
    expect(images[0]?.url).toBe(url);
    const html = `<p>See</p><p><img src="${url}" alt="axial"></p>`;
    const saved = await w.call('radiologist', 'PUT', `/worklist/report/${report.id}`, {
      content: html,
      version: report.version,
      by_user_id: w.users.radiologist.id,
    });
    expect((saved.json as TReport).content).toContain(`src="${url}"`);
    const served = await download('otherRadiologist', url.replace('/api/v1', ''));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.body.equals(PNG)).toBe(true);
    expect((await download('referrer', url.replace('/api/v1', ''))).status).toBe(404);
    expect((await download('outsider', url.replace('/api/v1', ''))).status).toBe(404);
    const other = await w.studyWithReport();
    expect(
      (await download('radiologist', `/worklist/report/${other.report.id}/images/${images[0]?.id}`)).status,
    ).toBe(404);
    // Another report's content keeps only its own images: this report's image is dropped there.
    const borrowed = await w.call('radiologist', 'PUT', `/worklist/report/${other.report.id}`, {
      content: `<p>Copied</p><img src="${url}">`,
      version: other.report.version,
      by_user_id: w.users.radiologist.id,
    });
    expect(borrowed.status, borrowed.text).toBe(200);
    expect((borrowed.json as TReport).content).toBe('<p>Copied</p>');
    expect(studyId).toBeTruthy();
  });

  it('refuses images that are not images, oversized ones and non-editors, storing nothing', async () => {
    const { report } = await w.studyWithReport();
    const before = [await count(t.storedFiles), await count(t.reportImages)];
    const path = `/worklist/report/${report.id}/upload-images`;
    const pdfAsPng = await send('radiologist', 'POST', path, [
      { name: 'scan.png', data: PDF, type: 'image/png' },
    ]);
    expect(pdfAsPng.status).toBe(415);
    expect(pdfAsPng.text).toContain('files (scan.png)');
    const text = await send('radiologist', 'POST', path, [
      { name: 'ok.png', data: PNG, type: 'image/png' },
      { name: 'notes.jpg', data: TEXT, type: 'image/jpeg' },
    ]);
    expect(text.status).toBe(415);
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_REPORT_IMAGE_BYTES)]);
    const tooBig = await send('radiologist', 'POST', path, [
      { name: 'big.png', data: big, type: 'image/png' },
    ]);
    expect(tooBig.status).toBe(413);
    expect(tooBig.text).toContain('10 MB');
    expect((await send('transcriptionist', 'POST', path, [{ name: 'a.png', data: PNG }])).status).toBe(403);
    expect((await send('otherRadiologist', 'POST', path, [{ name: 'a.png', data: PNG }])).status).toBe(403);
    expect((await send('outsider', 'POST', path, [{ name: 'a.png', data: PNG }])).status).toBe(404);
    expect([await count(t.storedFiles), await count(t.reportImages)]).toEqual(before);
  });

  it('deletes an image for editors only, and refuses uploads to a final report', async () => {
    const { report } = await w.studyWithReport();
    const uploaded = await send('radiologist', 'POST', `/worklist/report/${report.id}/upload-images`, [
      { name: 'a.png', data: PNG, type: 'image/png' },
    ]);
    const imageId = (uploaded.json as TReport).images[0]?.id ?? '';
    const path = `/worklist/report/${report.id}/images/${imageId}`;
    expect((await w.call('otherRadiologist', 'DELETE', path)).status).toBe(403);
    expect((await w.call('outsider', 'DELETE', path)).status).toBe(404);
    const deleted = await w.call('radiologist', 'DELETE', path);
    expect(deleted.status).toBe(200);
    expect((deleted.json as TReport).images).toEqual([]);
    expect((await w.call('radiologist', 'DELETE', path)).status).toBe(404);

    const final = await w.studyWithReport({ status: 'FINAL' });
    const refused = await send('radiologist', 'POST', `/worklist/report/${final.report.id}/upload-images`, [
      { name: 'late.png', data: PNG, type: 'image/png' },
    ]);
    expect(refused.status).toBe(409);
  });
});
