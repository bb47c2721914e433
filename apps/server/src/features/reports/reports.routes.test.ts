import { MAX_REPORT_CONTENT_LENGTH, type TReport } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import type { TDomainEventMap } from '../../events/domain-events.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { buildReportWorld, type TWorld } from '../../test/report-test-world.ts';

let server: TTestServer;
let w: TWorld;

beforeAll(async () => {
  server = await startTestServer();
  w = await buildReportWorld(server);
});
afterAll(async () => {
  await server.close();
});

const versionsOf = async (reportId: string) =>
  server.db.select().from(t.reportVersions).where(eq(t.reportVersions.reportId, reportId));
const reportRow = async (reportId: string) =>
  (await server.db.select().from(t.reports).where(eq(t.reports.id, reportId)))[0];
const put = (user: Parameters<TWorld['call']>[0], report: { id: string }, content: string, version: number) =>
  w.call(user, 'PUT', `/worklist/report/${report.id}`, { content, version, by_user_id: w.users[user].id });

function captured<TName extends keyof TDomainEventMap>(name: TName) {
  const seen: TDomainEventMap[TName][] = [];
  const off = server.app.events.on(name, (payload) => seen.push(payload));
  return { seen, off };
}

describe('POST /worklist/report and GET /worklist/{id}/report', () => {
  it('creates the report once (201), and a second open gets the same one (200)', async () => {
    const study = await w.study();
    const body = { worklist_id: study.id, content: '<p>First</p>', by_user_id: w.users.radiologist.id };
    const [a, b] = await Promise.all([
      w.call('radiologist', 'POST', '/worklist/report', body),
      w.call('admin', 'POST', '/worklist/report', { ...body, by_user_id: w.users.admin.id }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect((a.json as TReport).id).toBe((b.json as TReport).id);
    const report = a.json as TReport;
    expect(report).toMatchObject({ worklist_id: study.id, status: 'CREATED', version: 1, pdf_url: null });
    expect(await versionsOf(report.id)).toHaveLength(1);

    const read = await w.call('radiologist', 'GET', `/worklist/${study.id}/report`);
    expect(read.status).toBe(200);
    expect((read.json as TReport).id).toBe(report.id);
  });

  it('answers 404 for a study without a report, and sanitises what it stores', async () => {
    const study = await w.study();
    expect((await w.call('radiologist', 'GET', `/worklist/${study.id}/report`)).status).toBe(404);
    const created = await w.call('radiologist', 'POST', '/worklist/report', {
      worklist_id: study.id,
      content: '<p onclick="x()">Hi<script>alert(1)</script><img src="javascript:alert(1)"></p>',
      by_user_id: w.users.radiologist.id,
    });
    expect(created.status).toBe(201);
    expect((created.json as TReport).content).toBe('<p>Hi</p>');
  });

  it('refuses to create for read-only roles (403), unwritable studies (409) and outsiders (404)', async () => {
    const study = await w.study();
    const body = (user: keyof TWorld['users']) => ({
      worklist_id: study.id,
      content: '<p>x</p>',
      by_user_id: w.users[user].id,
    });
    expect(
      (await w.call('otherRadiologist', 'POST', '/worklist/report', body('otherRadiologist'))).status,
    ).toBe(403);
    expect((await w.call('facilityAdmin', 'POST', '/worklist/report', body('facilityAdmin'))).status).toBe(
      403,
    );
    expect(
      (await w.call('transcriptionist', 'POST', '/worklist/report', body('transcriptionist'))).status,
    ).toBe(403);
    expect((await w.call('referrer', 'POST', '/worklist/report', body('referrer'))).status).toBe(404);
    expect((await w.call('outsider', 'POST', '/worklist/report', body('outsider'))).status).toBe(404);
    const unassigned = await w.study({ status: 'TO_READ', assignee: null });
    const refused = await w.call('admin', 'POST', '/worklist/report', {
      ...body('admin'),
      worklist_id: unassigned.id,
    });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('assigned');
    const rows = await server.db.select().from(t.reports).where(eq(t.reports.studyId, study.id));
    expect(rows).toEqual([]);
  });

  it('lets every reader read and everyone else get 404', async () => {
    const { studyId, report } = await w.studyWithReport();
    for (const user of [
      'radiologist',
      'otherRadiologist',
      'transcriptionist',
      'facilityAdmin',
      'admin',
    ] as const) {
      expect((await w.call(user, 'GET', `/worklist/${studyId}/report`)).status, user).toBe(200);
    }
    // Referrers read only FINAL reports; other organisations and other facilities never.
    expect((await w.call('referrer', 'GET', `/worklist/${studyId}/report`)).status).toBe(404);
    expect((await w.call('outsider', 'GET', `/worklist/${studyId}/report`)).status).toBe(404);
    expect((await w.call('otherFacilityTranscriptionist', 'GET', `/worklist/${studyId}/report`)).status).toBe(
      404,
    );
    const final = await w.call('radiologist', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'FINAL',
    });
    expect(final.status).toBe(200);
    expect((await w.call('referrer', 'GET', `/worklist/${studyId}/report`)).status).toBe(200);
  });
});

describe('PUT /worklist/report/{id}', () => {
  it('saves a new version, keeps every version, and a no-op changes nothing', async () => {
    const { report } = await w.studyWithReport({ content: '<p>v1</p>' });
    const events = captured('report.content.changed');
    const saved = await put('radiologist', report, '<p>v2</p>', 1);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json).toMatchObject({
      version: 2,
      content: '<p>v2</p>',
      updated_by: w.users.radiologist.id,
    });
    const same = await put('radiologist', report, '<p>v2</p>', 2);
    expect(same.json).toMatchObject({ version: 2 });
    events.off();
    expect((await versionsOf(report.id)).map((v) => [v.version, v.kind, v.content]).sort()).toEqual([
      [1, 'EDIT', '<p>v1</p>'],
      [2, 'EDIT', '<p>v2</p>'],
    ]);
    expect(events.seen).toEqual([
      expect.objectContaining({ reportId: report.id, html: '<p>v2</p>', version: 2, source: 'rest' }),
    ]);
    expect((await reportRow(report.id))?.contentText).toBe('v2');
  });

  it('answers a stale version with 409 naming who changed it and when', async () => {
    const { report } = await w.studyWithReport({ collaborationEnabled: true });
    expect((await put('radiologist', report, '<p>mine</p>', 1)).status).toBe(200);
    const stale = await put('transcriptionist', report, '<p>theirs</p>', 1);
    expect(stale.status).toBe(409);
    const error = (stale.json as { error: { message: string; details: Record<string, unknown> } }).error;
    expect(error.message).toMatch(/^Dr Rao changed this report at \d\d:\d\d; reload to see their changes$/);
    expect(error.details).toMatchObject({ current_version: 2, changed_by: w.users.radiologist.id });
    expect((await reportRow(report.id))?.content).toBe('<p>mine</p>');
  });

  it('lets the transcriptionist edit only while collaboration is on', async () => {
    const off = await w.studyWithReport({ collaborationEnabled: false });
    expect((await put('transcriptionist', off.report, '<p>t</p>', 1)).status).toBe(403);
    const on = await w.studyWithReport({ collaborationEnabled: true });
    const saved = await put('transcriptionist', on.report, '<p>typed by t</p>', 1);
    expect(saved.status).toBe(200);
    const authors = (saved.json as TReport).authors.map((a) => a.display_name);
    expect(authors).toEqual(['Dr Rao', 'Tia Transcriber']);
  });

  it('refuses read-only roles (403) and outsiders (404) without changing anything', async () => {
    const { studyId, report } = await w.studyWithReport({ content: '<p>kept</p>' });
    expect((await put('otherRadiologist', report, '<p>x</p>', 1)).status).toBe(403);
    expect((await put('facilityAdmin', report, '<p>x</p>', 1)).status).toBe(403);
    expect((await put('referrer', report, '<p>x</p>', 1)).status).toBe(404);
    expect((await put('outsider', report, '<p>x</p>', 1)).status).toBe(404);
    expect((await put('otherFacilityTranscriptionist', report, '<p>x</p>', 1)).status).toBe(404);
    const acting = await w.call('radiologist', 'PUT', `/worklist/report/${report.id}`, {
      content: '<p>x</p>',
      version: 1,
      by_user_id: w.users.admin.id,
    });
    expect(acting.status).toBe(403);
    expect(await reportRow(report.id)).toMatchObject({ content: '<p>kept</p>', version: 1 });
    expect(await versionsOf(report.id)).toHaveLength(1);
    expect(await w.studyStatus(studyId)).toBe('ASSIGNED');
  });

  it('answers oversize content with 4xx naming content', async () => {
    const { report } = await w.studyWithReport();
    const big = `<p>${'a'.repeat(MAX_REPORT_CONTENT_LENGTH)}</p>`;
    const response = await put('radiologist', report, big, 1);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.text).toContain('content');
    const huge = await put('radiologist', report, 'é'.repeat(4 * MAX_REPORT_CONTENT_LENGTH), 1);
    expect(huge.status).toBe(413);
    expect(huge.text).toContain('content');
    expect((await reportRow(report.id))?.version).toBe(1);
  });

  it('refuses edits of a FINAL report with 409 (use an addendum)', async () => {
    const { report } = await w.studyWithReport({ status: 'FINAL' });
    const response = await put('radiologist', report, '<p>late change</p>', report.version);
    expect(response.status).toBe(409);
    expect(response.text).toContain('addendum');
  });
});

describe('POST /worklist/report/save', () => {
  it('drafts the report and the study, with history and a worklist update', async () => {
    const { studyId, report } = await w.studyWithReport();
    const changes = captured('worklist.item.changed');
    const statuses = captured('report.status.changed');
    const saved = await w.call('transcriptionist', 'POST', '/worklist/report/save', {
      report_id: report.id,
      by_user_id: w.users.transcriptionist.id,
    });
    expect(saved.status).toBe(403);
    const response = await w.call('radiologist', 'POST', '/worklist/report/save', {
      report_id: report.id,
      by_user_id: w.users.radiologist.id,
    });
    changes.off();
    statuses.off();
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({ status: 'DRAFTED' });
    expect(await w.studyStatus(studyId)).toBe('DRAFTED');
    expect(changes.seen.map((e) => [e.item.id, e.item.status])).toEqual([[studyId, 'DRAFTED']]);
    expect(statuses.seen).toEqual([expect.objectContaining({ reportId: report.id, status: 'DRAFTED' })]);
    const history = await w.call('radiologist', 'GET', `/worklist/statuses/${studyId}`);
    expect(
      (history.json as { history: { from_status: string; to_status: string }[] }).history,
    ).toContainEqual(
      expect.objectContaining({
        from_status: 'ASSIGNED',
        to_status: 'DRAFTED',
        by_user_fk: w.users.radiologist.id,
      }),
    );
  });
});

describe('POST /worklist/report/pdf-generate', () => {
  it('finalizes: html becomes the content, report COMPLETED, study FINAL, signature', async () => {
    const { studyId, report } = await w.studyWithReport({ collaborationEnabled: true });
    const refused = await w.call('transcriptionist', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'FINAL',
    });
    expect(refused.status).toBe(403);
    expect(
      (
        await w.call('otherRadiologist', 'POST', '/worklist/report/pdf-generate', {
          report_id: report.id,
          status: 'FINAL',
        })
      ).status,
    ).toBe(403);
    const stale = await w.call('radiologist', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'FINAL',
      html_content: '<p>Final words</p>',
      version: 7,
    });
    expect(stale.status).toBe(409);
    const response = await w.call('radiologist', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'FINAL',
      html_content: '<p>Final words</p><script>x</script>',
      version: 1,
    });
    expect(response.status, response.text).toBe(200);
    const final = response.json as TReport;
    expect(final).toMatchObject({
      status: 'COMPLETED',
      content: '<p>Final words</p>',
      version: 2,
      finalized_by: w.users.radiologist.id,
      // The final PDF is stored with the finalisation (report-output/report-pdf.routes.test.ts).
      pdf_url: expect.stringMatching(/^\/api\/v1\/worklist\/report\/.+\/pdf\?/),
      final_pdf_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(final.authors).toContainEqual(
      expect.objectContaining({ user_id: w.users.radiologist.id, signed: true }),
    );
    expect(await w.studyStatus(studyId)).toBe('FINAL');
    const signatures = await server.db
      .select()
      .from(t.reportSignatures)
      .where(eq(t.reportSignatures.reportId, report.id));
    expect(signatures.map((s) => s.userId)).toEqual([w.users.radiologist.id]);
    // Final is final: a second finalize, a save and an edit are refused.
    const again = await w.call('radiologist', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'FINAL',
    });
    expect(again.status).toBe(409);
  });

  it('lets an admin finalize, and refuses an empty report', async () => {
    const { report } = await w.studyWithReport({ content: '' });
    const empty = await w.call('admin', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'FINAL',
    });
    expect(empty.status).toBe(422);
    expect(empty.text).toContain('html_content');
    const ok = await w.call('admin', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'FINAL',
      html_content: '<p>Signed by admin</p>',
    });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ status: 'COMPLETED', finalized_by: w.users.admin.id });
  });

  it('with status DRAFTED saves the given content as draft', async () => {
    const { studyId, report } = await w.studyWithReport();
    const response = await w.call('radiologist', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'DRAFTED',
      html_content: '<p>draft via pdf-generate</p>',
    });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ status: 'DRAFTED', content: '<p>draft via pdf-generate</p>' });
    expect(await w.studyStatus(studyId)).toBe('DRAFTED');
  });

  it('leaves nothing half-saved when finalizing fails', async () => {
    const { studyId, report } = await w.studyWithReport({ content: '<p>before</p>' });
    await server.db.update(t.studies).set({ status: 'TO_READ' }).where(eq(t.studies.id, studyId));
    const response = await w.call('radiologist', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'FINAL',
      html_content: '<p>after</p>',
    });
    expect(response.status).toBe(409);
    expect(await reportRow(report.id)).toMatchObject({
      content: '<p>before</p>',
      version: 1,
      status: 'CREATED',
    });
    expect(await w.studyStatus(studyId)).toBe('TO_READ');
  });
});

describe('POST /worklist/report/{id}/addendum', () => {
  it('adds addenda below the unchanged original, in order', async () => {
    const { report } = await w.studyWithReport({ status: 'FINAL', content: '<p>Original</p>' });
    const draft = await w.studyWithReport();
    expect(
      (
        await w.call('radiologist', 'POST', `/worklist/report/${draft.report.id}/addendum`, {
          content: '<p>too early</p>',
          by_user_id: w.users.radiologist.id,
        })
      ).status,
    ).toBe(409);
    for (const user of ['transcriptionist', 'otherRadiologist', 'facilityAdmin'] as const) {
      const refused = await w.call(user, 'POST', `/worklist/report/${report.id}/addendum`, {
        content: '<p>no</p>',
        by_user_id: w.users[user].id,
      });
      expect(refused.status, user).toBe(403);
    }
    expect(
      (
        await w.call('outsider', 'POST', `/worklist/report/${report.id}/addendum`, {
          content: '<p>no</p>',
          by_user_id: w.users.outsider.id,
        })
      ).status,
    ).toBe(404);
    const first = await w.call('radiologist', 'POST', `/worklist/report/${report.id}/addendum`, {
      content: '<p>Addendum one<script>x</script></p>',
      by_user_id: w.users.radiologist.id,
    });
    expect(first.status, first.text).toBe(201);
    const second = await w.call('admin', 'POST', `/worklist/report/${report.id}/addendum`, {
      content: '<p>Addendum two</p>',
      by_user_id: w.users.admin.id,
    });
    const result = second.json as TReport;
    expect(result.content).toBe('<p>Original</p>');
    expect(result.version).toBe(report.version + 2);
    expect(result.addenda.map((a) => [a.version, a.content, a.created_by_display_name])).toEqual([
      [report.version + 1, '<p>Addendum one</p>', 'Dr Rao'],
      [report.version + 2, '<p>Addendum two</p>', 'Admin Ada'],
    ]);
    const kinds = (await versionsOf(report.id)).filter((v) => v.kind === 'ADDENDUM');
    expect(kinds).toHaveLength(2);
    const empty = await w.call('radiologist', 'POST', `/worklist/report/${report.id}/addendum`, {
      content: '<p><script>x</script></p>',
      by_user_id: w.users.radiologist.id,
    });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('content');
  });
});
