import type { TReport } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { storeFile } from '../../files/stored-files.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildUser } from '../../test/factories.ts';
import { docxDocumentXml, pdfImageCount, pdfText } from '../../test/pdf-tools.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { RENDER_RATE_LIMIT } from './report-output.routes.ts';

let server: TTestServer;
let w: TWorld;

beforeAll(async () => {
  server = await startTestServer();
  w = await buildReportWorld(server);
});
afterAll(async () => {
  await server.close();
});

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

type TFileResponse = { status: number; headers: Headers; body: Buffer; json: unknown };

async function post(user: TWorldUser, path: string, body: unknown): Promise<TFileResponse> {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${w.token(user)}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const data = Buffer.from(await response.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(data.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, body: data, json };
}

const errorMessage = (response: TFileResponse) =>
  (response.json as { error?: { message?: string } } | undefined)?.error?.message ?? '';

const fileCount = async () => (await server.db.select().from(t.storedFiles)).length;

describe('POST /worklist/report/preview/pdf', () => {
  it("renders the editor's unsaved, sanitised HTML and stores nothing", async () => {
    const { studyId, report } = await w.studyWithReport({ content: '<p>Stored findings.</p>' });
    const files = await fileCount();
    const response = await post('radiologist', '/worklist/report/preview/pdf', {
      worklist_id: studyId,
      html_content: '<h2>Impression</h2><p>Unsaved kidney finding</p><script>alert("evil-script")</script>',
      is_letterhead_enabled: false,
    });
    expect(response.status, errorMessage(response)).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="Patient [^"]+_report\.pdf"; filename\*=UTF-8''/,
    );
    expect(response.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(response.body);
    expect(text).toContain('Unsaved kidney finding');
    expect(text).toContain('Impression');
    expect(text).not.toContain('evil-script');
    expect(text).not.toContain('Stored findings');
    // A draft: signed by nobody yet, shown with the assigned radiologist.
    expect(text).toContain('Dr Rao');
    // Nothing stored or changed.
    expect(await fileCount()).toBe(files);
    const [row] = await server.db.select().from(t.reports).where(eq(t.reports.id, report.id));
    expect(row).toMatchObject({ content: '<p>Stored findings.</p>', version: 1, pdfFileId: null });
  });

  it('answers only who may edit the report (403 to other readers, 404 to everyone else)', async () => {
    const { studyId } = await w.studyWithReport();
    const { studyId: collaborative } = await w.studyWithReport({ collaborationEnabled: true });
    const { studyId: finalId } = await w.studyWithReport({ status: 'FINAL' });
    const files = await fileCount();
    const expected: [TWorldUser, string, number][] = [
      ['admin', studyId, 200],
      ['radiologist', studyId, 200],
      ['transcriptionist', collaborative, 200],
      ['transcriptionist', studyId, 403],
      ['otherRadiologist', studyId, 403],
      ['reporter', studyId, 403],
      ['facilityAdmin', studyId, 403],
      ['otherFacilityTranscriptionist', studyId, 404],
      ['referrer', studyId, 404],
      ['outsider', studyId, 404],
      // A final report changes only by addendum: nobody lays new text out as it.
      ['admin', finalId, 403],
      ['radiologist', finalId, 403],
      ['referrer', finalId, 403],
      ['outsider', finalId, 404],
    ];
    for (const [user, worklistId, status] of expected) {
      const response = await post(user, '/worklist/report/preview/pdf', {
        worklist_id: worklistId,
        html_content: '<p>Forged findings</p>',
      });
      expect(response.status, `${user}: ${errorMessage(response)}`).toBe(status);
      if (status === 403) expect(errorMessage(response)).toContain('html_content');
    }
    // Previews store nothing (the finalisation above stored its one PDF).
    expect(await fileCount()).toBe(files);
  });

  it('marks every preview PRELIMINARY, without signing notes', async () => {
    const { studyId } = await w.studyWithReport({ status: 'IN_REVIEW' });
    const response = await post('admin', '/worklist/report/preview/pdf', {
      worklist_id: studyId,
      html_content: '<p>Preview words</p>',
    });
    expect(response.status, errorMessage(response)).toBe(200);
    const text = await pdfText(response.body);
    expect(text).toContain('Preview words');
    expect(text).toContain('PRELIMINARY');
    expect(text).not.toContain('Electronically signed');
  });

  it('refuses bad bodies with 4xx naming the field', async () => {
    const { studyId } = await w.studyWithReport();
    const missing = await post('admin', '/worklist/report/preview/pdf', { html_content: '<p>x</p>' });
    expect(missing.status).toBe(400);
    expect(errorMessage(missing)).toContain('worklist_id');
    const flag = await post('admin', '/worklist/report/preview/pdf', {
      worklist_id: studyId,
      html_content: '<p>x</p>',
      is_letterhead_enabled: 'yes',
    });
    expect(flag.status).toBe(400);
    expect(errorMessage(flag)).toContain('is_letterhead_enabled');
    const html = await post('admin', '/worklist/report/preview/pdf', {
      worklist_id: studyId,
      html_content: 7,
    });
    expect(html.status).toBe(400);
    expect(errorMessage(html)).toContain('html_content');
    const noReport = await w.study();
    const none = await post('admin', '/worklist/report/preview/pdf', {
      worklist_id: noReport.id,
      html_content: '',
    });
    expect(none.status).toBe(404);
  });
});

describe('letterhead', () => {
  it("draws the facility's letterhead images only when asked and enabled", async () => {
    const { studyId } = await w.studyWithReport({ content: '<p>Letterhead check</p>' });
    const header = await storeFile(server.db, server.app.deps.blobs, {
      data: PNG,
      originalName: 'header.png',
      organisationId: w.organisationId,
      createdBy: null,
      accept: ['image/png'],
      maxBytes: 1024,
    });
    await server.db
      .update(t.facilities)
      .set({ letterheadEnabled: true, letterheadHeaderFileId: header.id })
      .where(eq(t.facilities.id, w.facility.id));
    try {
      const body = { worklist_id: studyId, html_content: '<p>Letterhead check</p>' };
      const withLetterhead = await post('admin', '/worklist/report/preview/pdf', {
        ...body,
        is_letterhead_enabled: true,
      });
      const without = await post('admin', '/worklist/report/preview/pdf', {
        ...body,
        is_letterhead_enabled: false,
      });
      expect(withLetterhead.status).toBe(200);
      expect(await pdfImageCount(withLetterhead.body)).toBeGreaterThan(await pdfImageCount(without.body));
      await server.db
        .update(t.facilities)
        .set({ letterheadEnabled: false })
        .where(eq(t.facilities.id, w.facility.id));
      // Asked for, but the facility has it switched off: the space is left blank, no image.
      const disabled = await post('admin', '/worklist/report/preview/pdf', {
        ...body,
        is_letterhead_enabled: true,
      });
      expect(await pdfImageCount(disabled.body)).toBe(await pdfImageCount(without.body));
    } finally {
      await server.db
        .update(t.facilities)
        .set({ letterheadEnabled: false, letterheadHeaderFileId: null })
        .where(eq(t.facilities.id, w.facility.id));
    }
  });
});

async function uploadKeyImage(reportId: string): Promise<string> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'key.png');
  const response = await fetch(`${server.url}/api/v1/worklist/report/${reportId}/upload-images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${w.token('radiologist')}` },
    body: form,
  });
  const report = (await response.json()) as TReport;
  const url = report.images.at(-1)?.url;
  if (response.status !== 201 || !url) throw new Error(`upload failed: ${response.status}`);
  return url;
}

describe('key images', () => {
  it("draws the report's own key images, never another report's", async () => {
    const { studyId, report } = await w.studyWithReport();
    const own = await uploadKeyImage(report.id);
    const other = await w.studyWithReport();
    const foreign = await uploadKeyImage(other.report.id);
    const render = async (html: string) => {
      const response = await post('radiologist', '/worklist/report/preview/pdf', {
        worklist_id: studyId,
        html_content: html,
      });
      expect(response.status, errorMessage(response)).toBe(200);
      return pdfImageCount(response.body);
    };
    const none = await render('<p>No image</p>');
    expect(await render(`<p>Own</p><img src="${own}">`)).toBe(none + 1);
    expect(await render(`<p>Foreign</p><img src="${foreign}">`)).toBe(none);
  });
});

describe('POST /worklist/report/preview/docx', () => {
  it('answers the stored report as a DOCX', async () => {
    const { studyId } = await w.studyWithReport({ content: '<p>Docx stored words</p>' });
    const response = await post('transcriptionist', '/worklist/report/preview/docx', {
      worklist_id: studyId,
      is_letterhead_enabled: true,
    });
    expect(response.status, errorMessage(response)).toBe(200);
    expect(response.headers.get('content-type')).toBe(DOCX_TYPE);
    expect(response.headers.get('content-disposition')).toMatch(/_report\.docx"/);
    expect(response.body.subarray(0, 2).toString('latin1')).toBe('PK');
    const xml = await docxDocumentXml(response.body);
    expect(xml).toContain('Docx stored words');
    const outsider = await post('outsider', '/worklist/report/preview/docx', { worklist_id: studyId });
    expect(outsider.status).toBe(404);
  });
});

describe('signed by chosen radiologists', () => {
  it('primary-rad: signed by the assigned radiologist; 409 without one', async () => {
    const { studyId } = await w.studyWithReport({ content: '<p>Primary</p>' });
    const response = await post('admin', '/worklist/report/primary-rad/pdf', { worklist_id: studyId });
    expect(response.status, errorMessage(response)).toBe(200);
    const text = await pdfText(response.body);
    expect(text).toContain('Dr Rao');
    expect(text).not.toContain('Dr Other');
    await server.db.update(t.studies).set({ lastAssignedUserId: null }).where(eq(t.studies.id, studyId));
    const unassigned = await post('admin', '/worklist/report/primary-rad/pdf', { worklist_id: studyId });
    expect(unassigned.status).toBe(409);
    expect(errorMessage(unassigned)).toContain('assigned radiologist');
  });

  it('by-rad pdf and docx: the chosen radiologists only, in order', async () => {
    const { studyId } = await w.studyWithReport({ status: 'FINAL', content: '<p>By rad</p>' });
    const body = { worklist_id: studyId, rad_user_ids: [w.users.otherRadiologist.id, w.users.reporter.id] };
    const pdf = await post('admin', '/worklist/report/by-rad/pdf', body);
    expect(pdf.status, errorMessage(pdf)).toBe(200);
    const text = await pdfText(pdf.body);
    expect(text).toContain('Dr Other');
    expect(text).toContain('Rep Reporter');
    expect(text).not.toContain('Dr Rao');
    expect(text.indexOf('Dr Other')).toBeLessThan(text.indexOf('Rep Reporter'));
    const docx = await post('facilityAdmin', '/worklist/report/by-rad/docx', body);
    expect(docx.status, errorMessage(docx)).toBe(200);
    const xml = await docxDocumentXml(docx.body);
    expect(xml).toContain('Dr Other');
    expect(xml).toContain('Rep Reporter');
    expect(xml).not.toContain('Dr Rao');
  });

  it('by-rad: administrators, facility administrators and editors only; other readers 403', async () => {
    const { studyId } = await w.studyWithReport();
    const { studyId: finalId } = await w.studyWithReport({ status: 'FINAL' });
    const expected: [TWorldUser, string, number][] = [
      ['admin', studyId, 200],
      ['facilityAdmin', studyId, 200],
      ['radiologist', studyId, 200],
      ['otherRadiologist', studyId, 403],
      ['transcriptionist', studyId, 403],
      ['otherFacilityTranscriptionist', studyId, 404],
      ['outsider', studyId, 404],
      ['admin', finalId, 200],
      ['facilityAdmin', finalId, 200],
      ['radiologist', finalId, 403],
      ['referrer', finalId, 403],
      ['outsider', finalId, 404],
    ];
    for (const [user, worklistId, status] of expected) {
      for (const format of ['pdf', 'docx']) {
        const response = await post(user, `/worklist/report/by-rad/${format}`, {
          worklist_id: worklistId,
          rad_user_ids: [w.users.otherRadiologist.id],
        });
        expect(response.status, `${user} ${format}: ${errorMessage(response)}`).toBe(status);
        if (status === 403) expect(errorMessage(response)).toContain('rad_user_ids');
      }
    }
  });

  it('refuses too many, unknown, non-radiologist and foreign rad_user_ids naming the field', async () => {
    const { studyId } = await w.studyWithReport();
    const elsewhere = await buildUser(server.db, { facilities: [await buildFacility(server.db)] });
    const inactive = await buildUser(server.db, { facilities: [w.facility], status: 'INACTIVE' });
    const otherFacility = await buildFacility(server.db, { organisationId: w.organisationId });
    const notHere = await buildUser(server.db, { facilities: [otherFacility] });
    const cases: [string, unknown][] = [
      ['too many', Array.from({ length: 11 }, () => w.users.radiologist.id)],
      ['none', []],
      ['not a uuid', ['nope']],
      ['unknown', ['00000000-0000-4000-8000-000000000000']],
      ['transcriptionist', [w.users.transcriptionist.id]],
      ['admin', [w.users.admin.id]],
      ['another organisation', [elsewhere.id]],
      ['inactive', [inactive.id]],
      ["a radiologist of another of the organisation's facilities", [notHere.id]],
      ['one good, one unusable', [w.users.otherRadiologist.id, w.users.transcriptionist.id]],
    ];
    for (const [label, ids] of cases) {
      for (const format of ['pdf', 'docx']) {
        const response = await post('admin', `/worklist/report/by-rad/${format}`, {
          worklist_id: studyId,
          rad_user_ids: ids,
        });
        expect(response.status, `${label} ${format}`).toBe(400);
        expect(errorMessage(response), label).toContain('rad_user_ids');
        const json = JSON.stringify(response.json);
        // One answer whatever the reason: it tells nobody who is a radiologist where.
        if (!['too many', 'none', 'not a uuid'].includes(label)) {
          expect(errorMessage(response)).toBe(
            "rad_user_ids: each must be an active radiologist of this study's facility",
          );
          for (const id of ids as string[]) expect(json).not.toContain(id);
        }
      }
    }
  });
});

describe('rate limit', () => {
  it('limits each user to 60 renders a minute across the routes (429), others are not affected', async () => {
    const user = await buildUser(server.db, { role: 'ADMIN', organisationId: w.organisationId });
    const token = await tokenFor(server, user);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const paths = ['/worklist/report/preview/docx', '/worklist/report/primary-rad/pdf'];
    const statuses: number[] = [];
    for (let i = 0; i <= RENDER_RATE_LIMIT.max; i++) {
      const response = await fetch(`${server.url}/api/v1${paths[i % 2] ?? ''}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ worklist_id: unknown }),
      });
      statuses.push(response.status);
      if (response.status === 429) {
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('TOO_MANY_REQUESTS');
        expect(body.error.message).toContain('Please try again in');
      } else {
        await response.arrayBuffer();
      }
    }
    expect(statuses.slice(0, RENDER_RATE_LIMIT.max).every((status) => status === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const { studyId } = await w.studyWithReport();
    const other = await post('admin', '/worklist/report/preview/docx', { worklist_id: studyId });
    expect(other.status, errorMessage(other)).toBe(200);
  });
});
