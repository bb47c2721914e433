import { createHash } from 'node:crypto';
import type { TReport } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { pdfText } from '../../test/pdf-tools.ts';
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

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** GET of a pdf_url as a browser follows a link: no bearer token. */
async function download(pdfUrl: string) {
  const response = await fetch(`${server.url}${pdfUrl}`);
  return {
    status: response.status,
    headers: response.headers,
    body: Buffer.from(await response.arrayBuffer()),
  };
}

async function reportRow(reportId: string) {
  const [row] = await server.db.select().from(t.reports).where(eq(t.reports.id, reportId));
  if (!row) throw new Error('no report');
  return row;
}

const pdfFileCount = async () =>
  (await server.db.select().from(t.storedFiles).where(eq(t.storedFiles.mediaType, 'application/pdf'))).length;

async function finalize(reportId: string, html?: string) {
  const response = await w.call('radiologist', 'POST', '/worklist/report/pdf-generate', {
    report_id: reportId,
    status: 'FINAL',
    ...(html === undefined ? {} : { html_content: html }),
  });
  expect(response.status, response.text).toBe(200);
  return response.json as TReport;
}

describe('finalizing stores the PDF', () => {
  it('keeps the final PDF with its hash and serves it through the signed pdf_url without a bearer', async () => {
    const { studyId, report } = await w.studyWithReport();
    const patientName = 'Sita / "Devi" सीता देवी';
    await server.db.update(t.studies).set({ patientName }).where(eq(t.studies.id, studyId));
    const final = await finalize(report.id, '<p>Final kidney words</p>');
    expect(final.pdf_url).toMatch(
      new RegExp(
        `^/api/v1/worklist/report/${report.id}/pdf\\?uid=[0-9a-f-]{36}&expires=\\d+&signature=[0-9a-f]{64}$`,
      ),
    );
    expect(final.final_pdf_sha256).toMatch(/^[0-9a-f]{64}$/);
    const row = await reportRow(report.id);
    expect(row.pdfFileId).not.toBeNull();
    expect(row.finalPdfFileId).toBe(row.pdfFileId);

    const file = await download(final.pdf_url ?? '');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('cache-control')).toBe('no-store');
    expect(sha256(file.body)).toBe(final.final_pdf_sha256);
    // Slashes and quotes never reach the name; the Devanagari name comes through filename*.
    const disposition = file.headers.get('content-disposition') ?? '';
    expect(disposition).toBe(
      `attachment; filename="Sita Devi_report.pdf"; filename*=UTF-8''${encodeURIComponent('Sita Devi सीता देवी_report.pdf')}`,
    );
    const text = await pdfText(file.body);
    expect(text).toContain('Final kidney words');
    expect(text).toContain('सीता देवी');
    // The preliminary marking may come out letter-spaced (a watermark): compare without whitespace.
    expect(text.replace(/\s+/g, '')).not.toContain('PRELIMINARY');

    // Every reader gets a link of their own; a referring physician too, now that it is final.
    const read = await w.call('referrer', 'GET', `/worklist/${studyId}/report`);
    const forReferrer = read.json as TReport;
    expect(forReferrer.final_pdf_sha256).toBe(final.final_pdf_sha256);
    expect(forReferrer.pdf_url).toContain(`uid=${w.users.referrer.id}`);
    expect(sha256((await download(forReferrer.pdf_url ?? '')).body)).toBe(final.final_pdf_sha256);
  });

  it('refuses forged, altered, expired and outdated links alike (403)', async () => {
    const { report } = await w.studyWithReport();
    const final = await finalize(report.id, '<p>Signed link</p>');
    const url = new URL(final.pdf_url ?? '', server.url);
    const path = (mutate: (query: URLSearchParams) => void, pathname = url.pathname) => {
      const query = new URLSearchParams(url.search);
      mutate(query);
      return `${pathname}?${query.toString()}`;
    };
    const signature = url.searchParams.get('signature') ?? '';
    const flipped = `${signature[0] === 'a' ? 'b' : 'a'}${signature.slice(1)}`;
    const attempts = [
      path((q) => q.set('signature', flipped)),
      path((q) => q.set('expires', String(Number(q.get('expires')) + 3600))),
      path((q) => q.set('uid', w.users.admin.id)),
      path(() => undefined, url.pathname.replace(report.id, '00000000-0000-4000-8000-000000000000')),
      // Correctly signed, but expired a second ago.
      server.app.reportDownloads.pathFor(
        report.id,
        (await reportRow(report.id)).pdfFileId ?? '',
        w.users.radiologist.id,
        Math.floor(Date.now() / 1000) - 1,
      ),
    ];
    for (const attempt of attempts) {
      const response = await download(attempt);
      expect(response.status, attempt).toBe(403);
      expect(response.body.toString('utf8')).toContain('invalid or has expired');
    }
    const malformed = await download(path((q) => q.delete('signature')));
    expect(malformed.status).toBe(400);
    // The untouched link still works; it stops once its user may no longer read the report.
    expect((await download(final.pdf_url ?? '')).status).toBe(200);
    await server.db.update(t.users).set({ status: 'INACTIVE' }).where(eq(t.users.id, w.users.radiologist.id));
    try {
      expect((await download(final.pdf_url ?? '')).status).toBe(403);
    } finally {
      await server.db.update(t.users).set({ status: 'ACTIVE' }).where(eq(t.users.id, w.users.radiologist.id));
      // Disabling ended the radiologist's sessions (migration 0010's trigger); the next tests sign
      // requests with the same session, so it is brought back with the account.
      await server.db
        .update(t.authSessions)
        .set({ revokedAt: null, revokedReason: null })
        .where(eq(t.authSessions.userId, w.users.radiologist.id));
    }
  });

  it('answers 409 (not 500) when the stored PDF is missing from file storage', async () => {
    const { report } = await w.studyWithReport();
    const final = await finalize(report.id, '<p>Lost bytes</p>');
    const row = await reportRow(report.id);
    const [file] = await server.db
      .select()
      .from(t.storedFiles)
      .where(eq(t.storedFiles.id, row.pdfFileId ?? ''));
    if (!file) throw new Error('no stored PDF');
    await server.app.deps.blobs.delete(file.storageKey);
    const response = await download(final.pdf_url ?? '');
    expect(response.status).toBe(409);
    expect(JSON.parse(response.body.toString('utf8'))).toMatchObject({
      error: { code: 'CONFLICT', details: { reason: 'file-missing' } },
    });
  });

  it('an addendum brings a new current PDF; the final original and its hash stay', async () => {
    const { report } = await w.studyWithReport();
    const final = await finalize(report.id, '<p>Original words</p>');
    const before = await reportRow(report.id);
    const response = await w.call('radiologist', 'POST', `/worklist/report/${report.id}/addendum`, {
      content: '<p>Late addendum words</p>',
      by_user_id: w.users.radiologist.id,
    });
    expect(response.status, response.text).toBe(201);
    const amended = response.json as TReport;
    const after = await reportRow(report.id);
    expect(after.finalPdfFileId).toBe(before.finalPdfFileId);
    expect(after.finalPdfSha256).toBe(before.finalPdfSha256);
    expect(after.pdfFileId).not.toBe(before.pdfFileId);
    expect(amended.final_pdf_sha256).toBe(final.final_pdf_sha256);
    expect(amended.pdf_url).not.toBe(final.pdf_url);
    const current = await download(amended.pdf_url ?? '');
    expect(current.status).toBe(200);
    expect(sha256(current.body)).not.toBe(final.final_pdf_sha256);
    const text = await pdfText(current.body);
    expect(text).toContain('Original words');
    expect(text).toContain('Late addendum words');
    expect(text).toMatch(/Addendum 1 — Dr Rao, /);
    // The link to the final original still serves the original, unchanged.
    const original = await download(final.pdf_url ?? '');
    expect(original.status).toBe(200);
    expect(sha256(original.body)).toBe(final.final_pdf_sha256);
  });

  it('a draft pdf-generate stores a preliminary PDF that later ones replace', async () => {
    const { report } = await w.studyWithReport({ content: '<p>Draft words</p>' });
    const response = await w.call('radiologist', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'DRAFTED',
    });
    expect(response.status, response.text).toBe(200);
    const draft = response.json as TReport;
    expect(draft.final_pdf_sha256).toBeNull();
    expect(draft.pdf_url).not.toBeNull();
    const file = await download(draft.pdf_url ?? '');
    expect(file.status).toBe(200);
    const text = await pdfText(file.body);
    expect(text).toContain('Draft words');
    expect(text.replace(/\s+/g, '')).toContain('PRELIMINARY');
    const first = (await reportRow(report.id)).pdfFileId;
    const final = await finalize(report.id);
    const row = await reportRow(report.id);
    expect(row.pdfFileId).not.toBe(first);
    expect(row.finalPdfFileId).toBe(row.pdfFileId);
    // The draft's link is outdated now.
    expect((await download(draft.pdf_url ?? '')).status).toBe(403);
    expect((await download(final.pdf_url ?? '')).status).toBe(200);
  });

  it('a failed render finalizes nothing', async () => {
    const { studyId, report } = await w.studyWithReport({ content: '<p>Will not finalize</p>' });
    // The radiologist's signature points at a stored file whose bytes are gone from the blob store.
    const [missing] = await server.db
      .insert(t.storedFiles)
      .values({
        organisationId: w.organisationId,
        storageKey: '2024/01/00000000-0000-4000-8000-0000000000aa',
        sha256: '0'.repeat(64),
        sizeBytes: 10,
        mediaType: 'image/png',
      })
      .returning();
    await server.db
      .update(t.users)
      .set({ signatureFileId: missing?.id ?? null })
      .where(eq(t.users.id, w.users.radiologist.id));
    const pdfs = await pdfFileCount();
    try {
      const response = await w.call('radiologist', 'POST', '/worklist/report/pdf-generate', {
        report_id: report.id,
        status: 'FINAL',
      });
      expect(response.status).toBe(409);
      expect(response.text).toContain('signature');
    } finally {
      await server.db
        .update(t.users)
        .set({ signatureFileId: null })
        .where(eq(t.users.id, w.users.radiologist.id));
    }
    const row = await reportRow(report.id);
    expect(row).toMatchObject({
      status: 'CREATED',
      pdfFileId: null,
      finalPdfFileId: null,
      finalPdfSha256: null,
    });
    expect(await w.studyStatus(studyId)).toBe('ASSIGNED');
    expect(
      await server.db.select().from(t.reportSignatures).where(eq(t.reportSignatures.reportId, report.id)),
    ).toEqual([]);
    expect(await pdfFileCount()).toBe(pdfs);
  });
});
