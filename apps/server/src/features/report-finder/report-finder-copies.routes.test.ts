// The reports' copies of their study's arrival, facility, priority tag and deletion (migration 0025)
// after every API write that touches a study or its report: they equal the study's, and the finder
// follows them on the very next request.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/rows.ts';
import { idsFound } from '../../test/report-finder-world.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let server: TTestServer;
let w: TWorld;

beforeAll(async () => {
  server = await startTestServer();
  w = await buildReportWorld(server);
});

afterAll(async () => {
  await server?.close();
});

/** The organisation's reports whose copies differ from their study (none, always). */
async function copiesApart(): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    server.db,
    sql`select r.id from reports r join studies s on s.id = r.study_id
      where r.organisation_id = ${w.organisationId}::uuid
        and (r.study_created_at, r.facility_id, r.priority_tag, r.study_deleted)
          is distinct from (s.created_at, s.facility_id, s.priority_tag, s.status = 'DELETED')`,
  );
  return rows.map((row) => row.id);
}

async function ok(user: TWorldUser, method: string, path: string, body?: unknown) {
  const response = await w.call(user, method, path, body);
  expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
  return response;
}

const found = (user: TWorldUser, params: Record<string, string | string[]>) =>
  idsFound(server, w.token(user), params);

describe("reports' copies of their study after each API write", () => {
  it('a priority set on the item, in bulk and removed', async () => {
    const { studyId, report } = await w.studyWithReport({ content: '<p>Renal calculus.</p>' });
    expect(await copiesApart()).toEqual([]);
    const admin = w.users.admin.id;
    await ok('admin', 'PUT', `/worklist/${studyId}`, { priority_tag: 'URGENT', by_user_id: admin });
    expect(await copiesApart()).toEqual([]);
    expect(await found('radiologist', { q: 'calculus', priority_tags: ['URGENT'] })).toEqual([report.id]);
    await ok('admin', 'PUT', '/worklist/assign/priority-tag', {
      worklist_ids: [studyId],
      priority_tag: 'EMERGENCY',
      by_user_id: admin,
    });
    expect(await copiesApart()).toEqual([]);
    expect(await found('radiologist', { q: 'calculus', priority_tags: ['URGENT'] })).toEqual([]);
    await ok('admin', 'PUT', '/worklist/unassign/priority-tag', {
      worklist_ids: [studyId],
      by_user_id: admin,
    });
    expect(await copiesApart()).toEqual([]);
    expect(await found('radiologist', { q: 'calculus', priority_tags: ['EMERGENCY'] })).toEqual([]);
  });

  it('a report created, written, saved, finalised and given an addendum', async () => {
    const { report } = await w.studyWithReport({ content: '<p>Hepatic cyst.</p>' });
    expect(await copiesApart()).toEqual([]);
    const radiologist = w.users.radiologist.id;
    await ok('radiologist', 'PUT', `/worklist/report/${report.id}`, {
      content: '<p>Hepatic cyst, simple.</p>',
      version: report.version,
      by_user_id: radiologist,
    });
    await ok('radiologist', 'POST', '/worklist/report/save', {
      report_id: report.id,
      by_user_id: radiologist,
    });
    expect(await copiesApart()).toEqual([]);
    expect(await found('radiologist', { q: 'hepatic simple' })).toEqual([report.id]);
    expect(await found('referrer', { q: 'hepatic' })).toEqual([]);
    await ok('radiologist', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'FINAL',
    });
    expect(await copiesApart()).toEqual([]);
    expect(await found('referrer', { q: 'hepatic' })).toEqual([report.id]);
    await ok('radiologist', 'POST', `/worklist/report/${report.id}/addendum`, {
      content: '<p>Addendum: no biliary dilatation.</p>',
      by_user_id: radiologist,
    });
    expect(await copiesApart()).toEqual([]);
    expect(await found('referrer', { q: 'biliary' })).toEqual([report.id]);
  });

  it("a study deleted: its report is an admin's only from the next request", async () => {
    const { studyId, report } = await w.studyWithReport({ content: '<p>Splenic laceration.</p>' });
    expect(await found('radiologist', { q: 'splenic' })).toEqual([report.id]);
    await ok('admin', 'DELETE', `/worklist/${studyId}`, { by_user_id: w.users.admin.id });
    expect(await copiesApart()).toEqual([]);
    expect(await found('radiologist', { q: 'splenic' })).toEqual([]);
    expect(await found('facilityAdmin', { q: 'splenic' })).toEqual([]);
    expect(await found('admin', { q: 'splenic' })).toEqual([report.id]);
  });
});
