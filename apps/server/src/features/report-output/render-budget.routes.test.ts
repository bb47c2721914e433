// Rendering never blocks the server: documents render in the render pool's worker threads, /healthz
// answers while a long render runs, and a render past its budget (time, queue) answers the one error
// shape and leaves the database as it was. Ordering is observed through the pool's 'start' event
// and the pending request, never through timings.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { TReport } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { renderPool } from '../../documents/render-pool.ts';
import { pdfText } from '../../test/pdf-tools.ts';
import { buildReportWorld, type TWorld } from '../../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { RENDER_OUTSIDE_TRANSACTION_CHARS } from './report-pdf-store.ts';

const SENTENCE = 'The lungs are clear with no focal consolidation, effusion or pneumothorax seen. ';

/** Ordinary prose of about `chars` characters, in paragraphs of ~600 characters and one long one. */
function prose(chars: number): string {
  const paragraph = `<p>${SENTENCE.repeat(8)}</p>`;
  const half = Math.floor(chars / 2);
  return `${paragraph.repeat(Math.ceil(half / paragraph.length))}<p>${SENTENCE.repeat(Math.ceil(half / SENTENCE.length))}</p>`;
}

const settled = <T>(promise: Promise<T>) => {
  const state = { done: false };
  void promise.then(
    () => (state.done = true),
    () => (state.done = true),
  );
  return state;
};

describe('rendering in worker threads (one render at a time, no queue)', () => {
  let server: TTestServer;
  let w: TWorld;
  beforeAll(async () => {
    server = await startTestServer({ env: { RENDER_THREADS: '1', RENDER_QUEUE_MAX: '0' } });
    w = await buildReportWorld(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers /healthz while a 300,000-character report renders, in a worker of the pool', async () => {
    const { studyId } = await w.studyWithReport();
    const started = once(renderPool(), 'start');
    const preview = w.call('radiologist', 'POST', '/worklist/report/preview/pdf', {
      worklist_id: studyId,
      html_content: prose(300_000),
    });
    const previewState = settled(preview);
    await started;
    const health = await server.request('GET', '/healthz');
    expect(health.status).toBe(200);
    // The render is still running: /healthz did not wait for it.
    expect(previewState.done).toBe(false);
    const response = await preview;
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
  });

  it('renders a long final report with no transaction open, and stores the PDF of what is committed', async () => {
    const { studyId, report } = await w.studyWithReport();
    const started = once(renderPool(), 'start');
    const finalize = w.call('radiologist', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'FINAL',
      html_content: `<p>Opening words.</p>${prose(RENDER_OUTSIDE_TRANSACTION_CHARS + 10_000)}`,
    });
    await started;
    // While the PDF renders, nothing is locked: the study can be changed, and the change shows in the
    // stored PDF (the document changed, so it is rendered again with the committed state).
    await server.db
      .update(t.studies)
      .set({ patientName: 'Renamed Meanwhile' })
      .where(eq(t.studies.id, studyId));
    const response = await finalize;
    expect(response.status, response.text).toBe(200);
    const final = response.json as TReport;
    const file = Buffer.from(await (await fetch(`${server.url}${final.pdf_url ?? ''}`)).arrayBuffer());
    expect(createHash('sha256').update(file).digest('hex')).toBe(final.final_pdf_sha256);
    const text = await pdfText(file);
    expect(text).toContain('Opening words.');
    expect(text).toContain('Renamed Meanwhile');
  });

  it('refuses a render when every thread is busy and the queue is full (503 RENDER_BUSY)', async () => {
    const { studyId } = await w.studyWithReport();
    const started = once(renderPool(), 'start');
    const long = w.call('radiologist', 'POST', '/worklist/report/preview/pdf', {
      worklist_id: studyId,
      html_content: prose(300_000),
    });
    const longState = settled(long);
    await started;
    const busy = await w.call('radiologist', 'POST', '/worklist/report/preview/docx', {
      worklist_id: studyId,
    });
    expect(longState.done).toBe(false);
    expect(busy.status).toBe(503);
    expect(busy.json).toEqual({ error: { code: 'RENDER_BUSY', message: expect.any(String) } });
    expect((await long).status).toBe(200);
  });
});

describe('a render past its time budget', () => {
  let server: TTestServer;
  let w: TWorld;
  beforeAll(async () => {
    // 100 ms: far less than a 300,000-character report needs (over a second on any machine).
    server = await startTestServer({ env: { RENDER_TIMEOUT_MS: '100' } });
    w = await buildReportWorld(server);
  });
  afterAll(async () => {
    await server.close();
  });

  async function snapshot(reportId: string) {
    const [report] = await server.db.select().from(t.reports).where(eq(t.reports.id, reportId));
    const versions = await server.db
      .select()
      .from(t.reportVersions)
      .where(eq(t.reportVersions.reportId, reportId));
    const files = await server.db.select({ id: t.storedFiles.id }).from(t.storedFiles);
    return { report, versions: versions.length, files: files.length };
  }

  it('answers 422 DOCUMENT_TOO_COMPLEX on a preview', async () => {
    const { studyId } = await w.studyWithReport();
    const response = await w.call('radiologist', 'POST', '/worklist/report/preview/pdf', {
      worklist_id: studyId,
      html_content: prose(300_000),
    });
    expect(response.status).toBe(422);
    expect(response.json).toEqual({
      error: { code: 'DOCUMENT_TOO_COMPLEX', message: expect.any(String), details: { reason: 'TIMEOUT' } },
    });
  });

  it('finalizes nothing when the final PDF cannot be rendered', async () => {
    const { report } = await w.studyWithReport();
    const before = await snapshot(report.id);
    const response = await w.call('radiologist', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'FINAL',
      html_content: prose(300_000),
    });
    expect(response.status).toBe(422);
    expect((response.json as { error: { code: string } }).error.code).toBe('DOCUMENT_TOO_COMPLEX');
    expect(await snapshot(report.id)).toEqual(before);
    expect(before.report?.status).not.toBe('COMPLETED');
  });

  it('adds no addendum when the new PDF cannot be rendered', async () => {
    // A long final report (finalized under a larger budget): set in the database, as rendering it
    // under this one fails.
    const { studyId, report } = await w.studyWithReport();
    await server.db
      .update(t.reports)
      .set({ status: 'COMPLETED', content: prose(300_000), finalizedAt: new Date() })
      .where(eq(t.reports.id, report.id));
    await server.db.update(t.studies).set({ status: 'FINAL' }).where(eq(t.studies.id, studyId));
    const before = await snapshot(report.id);
    const response = await w.call('radiologist', 'POST', `/worklist/report/${report.id}/addendum`, {
      content: '<p>Addendum: no change.</p>',
      by_user_id: w.users.radiologist.id,
    });
    expect(response.status, response.text).toBe(422);
    expect(await snapshot(report.id)).toEqual(before);
  });
});
