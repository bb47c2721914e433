// writeReportContent: the contract the collaboration server's persistence relies on.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../../db/client.ts';
import * as t from '../../db/schema/index.ts';
import { DomainEvents, type TDomainEventMap } from '../../events/domain-events.ts';
import { buildFacility, buildStudy, buildUser } from '../../test/factories.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { publishReportContent, writeReportContent, type TWriteReportContentInput } from './report-content.ts';

let database: TDatabase;
let userId: string;
let facility: Awaited<ReturnType<typeof buildFacility>>;

beforeAll(async () => {
  database = await createTestDatabase();
  facility = await buildFacility(database.db);
  userId = (await buildUser(database.db, { facilities: [facility], displayName: 'Dr Rao' })).id;
});
afterAll(async () => {
  await database.close();
});

async function newReport(status: 'CREATED' | 'COMPLETED' = 'CREATED') {
  const study = await buildStudy(database.db, {
    facility,
    status: status === 'COMPLETED' ? 'FINAL' : 'ASSIGNED',
    lastAssignedUserId: userId,
  });
  const [report] = await database.db
    .insert(t.reports)
    .values({ studyId: study.id, organisationId: study.organisationId, status, content: '<p>one</p>' })
    .returning();
  if (!report) throw new Error('no report');
  await database.db
    .insert(t.reportVersions)
    .values({ reportId: report.id, version: 1, content: '<p>one</p>', createdBy: userId });
  return report;
}

const write = (input: Omit<TWriteReportContentInput, 'userId'>) =>
  database.db.transaction((tx) => writeReportContent(tx, { userId, ...input }));
const row = async (id: string) => (await database.db.select().from(t.reports).where(eq(t.reports.id, id)))[0];

describe('writeReportContent', () => {
  it('stores the Yjs state with a collaboration write, and a REST write clears it', async () => {
    const report = await newReport();
    const state = new Uint8Array([1, 2, 3, 4]);
    const collab = await write({
      reportId: report.id,
      html: '<p>two</p>',
      source: 'collaboration',
      ydocState: state,
    });
    expect(collab).toMatchObject({
      version: 2,
      content: '<p>two</p>',
      changed: true,
      studyId: report.studyId,
    });
    expect(Buffer.from((await row(report.id))?.ydocState ?? []).equals(Buffer.from(state))).toBe(true);
    // Unchanged HTML: no version, but the newer Yjs state is kept.
    const later = new Uint8Array([5, 6]);
    const same = await write({
      reportId: report.id,
      html: '<p>two</p>',
      source: 'collaboration',
      ydocState: later,
    });
    expect(same).toMatchObject({ version: 2, changed: false });
    expect(Buffer.from((await row(report.id))?.ydocState ?? []).equals(Buffer.from(later))).toBe(true);
    const rest = await write({
      reportId: report.id,
      html: '<p>three</p>',
      source: 'rest',
      expectedVersion: 2,
    });
    expect(rest).toMatchObject({ version: 3, changed: true });
    expect(await row(report.id)).toMatchObject({
      ydocState: null,
      content: '<p>three</p>',
      contentText: 'three',
    });
    const versions = await database.db
      .select()
      .from(t.reportVersions)
      .where(eq(t.reportVersions.reportId, report.id));
    expect(versions.map((v) => v.version).sort()).toEqual([1, 2, 3]);
  });

  it('sanitises, refuses stale versions, final reports and oversize content', async () => {
    const report = await newReport();
    const clean = await write({
      reportId: report.id,
      html: '<p onmouseover="x()">a<script>b</script></p>',
      source: 'rest',
    });
    expect(clean.content).toBe('<p>a</p>');
    await expect(
      write({ reportId: report.id, html: '<p>z</p>', source: 'rest', expectedVersion: 1 }),
    ).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/^Dr Rao changed this report at /),
      details: expect.objectContaining({ current_version: 2 }),
    });
    await expect(
      write({ reportId: report.id, html: 'x'.repeat(1_000_001), source: 'collaboration' }),
    ).rejects.toMatchObject({ status: 413, details: { field: 'content' } });
    const final = await newReport('COMPLETED');
    await expect(
      write({ reportId: final.id, html: '<p>late</p>', source: 'collaboration' }),
    ).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('addendum'),
    });
    expect((await row(final.id))?.content).toBe('<p>one</p>');
  });

  it('announces changed writes only', async () => {
    const report = await newReport();
    const events = new DomainEvents();
    const seen: TDomainEventMap['report.content.changed'][] = [];
    events.on('report.content.changed', (event) => seen.push(event));
    publishReportContent(events, await write({ reportId: report.id, html: '<p>one</p>', source: 'rest' }));
    publishReportContent(events, await write({ reportId: report.id, html: '<p>new</p>', source: 'rest' }));
    expect(seen).toEqual([
      {
        organisationId: report.organisationId,
        reportId: report.id,
        studyId: report.studyId,
        html: '<p>new</p>',
        version: 2,
        source: 'rest',
      },
    ]);
  });
});
