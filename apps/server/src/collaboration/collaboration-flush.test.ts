import type { TReport, TWorklistItem } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportVersions, reports } from '../db/schema/index.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { acknowledged, appendParagraph, openEditor, type TEditor } from './collab-test-client.ts';

// Save as draft, submit for review and finalize act on what the editors have sent, not on what the
// last debounced store wrote: the debounce here is longer than the test, so only the commands'
// own store (flushReportDocument) can have written the typed text.
let server: TTestServer;
let world: TWorld;
const editors: TEditor[] = [];

beforeAll(async () => {
  server = await startTestServer({
    env: { COLLAB_STORE_DEBOUNCE_MS: '60000', COLLAB_STORE_MAX_DEBOUNCE_MS: '60000' },
  });
  world = await buildReportWorld(server);
});

afterAll(async () => {
  for (const editor of editors) editor.close();
  await server.close();
});

async function typed(user: TWorldUser, reportId: string, text: string): Promise<TEditor> {
  const editor = await openEditor(server.url, reportId, world.token(user));
  editors.push(editor);
  appendParagraph(editor.document, text);
  // The server has the change (the provider's unsynced changes are acknowledged); nothing stored yet.
  await acknowledged(editor);
  return editor;
}

async function stored(reportId: string) {
  const [row] = await server.db.select().from(reports).where(eq(reports.id, reportId));
  if (!row) throw new Error('no report');
  return row;
}

describe('commands store the open collaborative document first', () => {
  it('save as draft right after typing saves the typed text', async () => {
    const { report } = await world.studyWithReport();
    await typed('radiologist', report.id, 'Typed just before saving.');
    expect((await stored(report.id)).content).not.toContain('Typed just before saving.');

    const response = await world.call('radiologist', 'POST', '/worklist/report/save', {
      report_id: report.id,
      by_user_id: world.users.radiologist.id,
    });
    expect(response.status).toBe(200);
    const saved = response.json as TReport;
    const expected = '<p>Findings: normal.</p><p>Typed just before saving.</p>';
    expect(saved).toMatchObject({ status: 'DRAFTED', content: expected, version: report.version + 1 });
    const row = await stored(report.id);
    expect(row).toMatchObject({ content: expected, version: report.version + 1 });
    expect(row.ydocState).not.toBeNull();
  });

  it('submit for review right after typing the first words submits them', async () => {
    const { studyId, report } = await world.studyWithReport({ collaborationEnabled: true, content: '' });
    await typed('transcriptionist', report.id, 'Dictated findings.');

    const response = await world.call('transcriptionist', 'PUT', `/worklist/${studyId}`, {
      status: 'IN_REVIEW',
      by_user_id: world.users.transcriptionist.id,
    });
    expect(response.status).toBe(200);
    expect((response.json as TWorklistItem).status).toBe('IN_REVIEW');
    const row = await stored(report.id);
    expect(row.content).toContain('<p>Dictated findings.</p>');
    expect(row.contentText).toBe('Dictated findings.');
    expect(row.updatedBy).toBe(world.users.transcriptionist.id);
  });

  it('finalize without html_content right after typing finalizes the typed text', async () => {
    const { studyId, report } = await world.studyWithReport();
    await typed('radiologist', report.id, 'Impression: no acute findings.');

    const response = await world.call('radiologist', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'FINAL',
    });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({
      status: 'COMPLETED',
      content: '<p>Findings: normal.</p><p>Impression: no acute findings.</p>',
    });
    expect(await world.studyStatus(studyId)).toBe('FINAL');
  });

  it('a saved draft stays a version of its own when the same editor keeps typing', async () => {
    const { report } = await world.studyWithReport();
    const editor = await typed('radiologist', report.id, 'Saved sentence.');
    const save = await world.call('radiologist', 'POST', '/worklist/report/save', {
      report_id: report.id,
      by_user_id: world.users.radiologist.id,
    });
    const savedVersion = (save.json as TReport).version;

    appendParagraph(editor.document, 'Typed after saving.');
    await acknowledged(editor);
    const again = await world.call('radiologist', 'POST', '/worklist/report/save', {
      report_id: report.id,
      by_user_id: world.users.radiologist.id,
    });
    expect((again.json as TReport).version).toBe(savedVersion + 1);

    const versions = await server.db
      .select({ version: reportVersions.version, content: reportVersions.content })
      .from(reportVersions)
      .where(eq(reportVersions.reportId, report.id));
    const first = versions.find((row) => row.version === savedVersion);
    expect(first?.content).toBe('<p>Findings: normal.</p><p>Saved sentence.</p>');
    expect(versions.find((row) => row.version === savedVersion + 1)?.content).toContain(
      'Typed after saving.',
    );
  });

  it('a command on a report nobody has open reads it as stored', async () => {
    const { report } = await world.studyWithReport({ content: '<p>Stored only.</p>' });
    const response = await world.call('radiologist', 'POST', '/worklist/report/save', {
      report_id: report.id,
      by_user_id: world.users.radiologist.id,
    });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ content: '<p>Stored only.</p>', version: report.version });
  });
});
