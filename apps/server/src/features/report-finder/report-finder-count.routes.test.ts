// GET /report/search past its count cap: a total exact up to REPORT_FINDER_COUNT_CAP matches (and
// past the page asked for), a lower bound beyond it (total_capped); and the reports' copies of their
// study's arrival, facility, priority and deletion (migration 0025's triggers) that the finder walks.
import { randomUUID } from 'node:crypto';
import { REPORT_FINDER_COUNT_CAP, ZReportSearchQuery } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPrincipal } from '../../auth/principal.ts';
import { queryRows } from '../../db/rows.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import {
  buildFacility,
  buildOrganisation,
  buildReport,
  buildStudy,
  buildUser,
} from '../../test/factories.ts';
import { NOW, searchAs } from '../../test/report-finder-world.ts';
import { seedingStudies } from '../../test/seeding-studies.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { worklistScope } from '../worklist/list/worklist-scope.ts';
import { resolveReportFinderCriteria } from './report-finder-criteria.ts';
import { presentReportSearch } from './report-finder.presenter.ts';
import { findReports } from './report-finder-walk.ts';

const MANY = REPORT_FINDER_COUNT_CAP + 5;
let server: TTestServer;
let tokens: { admin: string; radiologist: string; elsewhere: string };
let templateId: string;
let organisationId: string;
let adminId: string;

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const db = server.db;
  organisationId = (await buildOrganisation(db)).id;
  const facility = await buildFacility(db, { organisationId });
  const other = await buildFacility(db, { organisationId });
  const template = await buildStudy(db, {
    facility,
    status: 'FINAL',
    createdAt: new Date(NOW.getTime() - 60_000),
  });
  templateId = template.id;
  await buildReport(db, { study: template, status: 'COMPLETED', text: 'Pleural effusion, the newest.' });
  // MANY − 1 more FINAL studies a minute apart, older and older, each with a report on effusion;
  // three of them (the oldest) also mention a rare word.
  await seedingStudies(db, async () => {
    await db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, patient_name,
        patient_identifier, accession_number, study_uid, modality, modality_group, status, created_at,
        study_description)
      select organisation_id, facility_id, patient_id, patient_name, patient_identifier,
        'CAP-' || g, study_uid || '.' || g, modality, modality_group, status, created_at - g * interval '1 minute',
        study_description
      from studies, generate_series(1, ${MANY - 1}) g where id = ${templateId}::uuid`);
  });
  await db.execute(sql`insert into reports (study_id, organisation_id, status, content, content_text, finalized_at)
    select s.id, s.organisation_id, 'COMPLETED', '<p>x</p>',
      'Small pleural effusion number ' || substr(s.accession_number, 5) ||
        case when substr(s.accession_number, 5)::int > ${MANY - 4} then '. Pneumoperitoneum.' else '.' end,
      s.created_at + interval '2 hours'
    from studies s where s.accession_number like 'CAP-%' and s.organisation_id = ${organisationId}::uuid`);
  const admin = await buildUser(db, { role: 'ADMIN', organisationId });
  adminId = admin.id;
  const radiologist = await buildUser(db, { facilities: [facility] });
  const elsewhere = await buildUser(db, { facilities: [other] });
  tokens = {
    admin: await tokenFor(server, admin),
    radiologist: await tokenFor(server, radiologist),
    elsewhere: await tokenFor(server, elsewhere),
  };
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('GET /report/search: the count cap', () => {
  it('counts a common word up to the cap and says the total is a lower bound; the page is the newest', async () => {
    const response = await searchAs(server, tokens.admin, { q: 'effusion' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      total: REPORT_FINDER_COUNT_CAP,
      total_capped: true,
      offset: 0,
      next_offset: 20,
    });
    expect(response.body.items).toHaveLength(20);
    expect(response.body.items[0]?.study_id).toBe(templateId);
    const arrivals = response.body.items.map((item) => Date.parse(item.created_at));
    expect(arrivals).toEqual([...arrivals].sort((a, b) => b - a));
  });

  it('counts a rare word exactly', async () => {
    const response = await searchAs(server, tokens.admin, { q: 'pneumoperitoneum' });
    expect(response.body).toMatchObject({ total: 3, total_capped: false, next_offset: null });
    expect(response.body.items.map((item) => item.accession_number).sort()).toEqual(
      [`CAP-${MANY - 3}`, `CAP-${MANY - 2}`, `CAP-${MANY - 1}`].sort(),
    );
  });

  it('caps the count without words too, and a staff member of the facility sees the same', async () => {
    for (const token of [tokens.admin, tokens.radiologist]) {
      const response = await searchAs(server, token, {});
      expect(response.body).toMatchObject({ total: REPORT_FINDER_COUNT_CAP, total_capped: true });
    }
  });

  it('counts exactly past the cap when the page asked for lies beyond it', async () => {
    const response = await searchAs(server, tokens.admin, { q: 'effusion', offset: 1000, limit: 20 });
    expect(response.body).toMatchObject({ total: MANY, total_capped: false, next_offset: null });
    expect(response.body.items).toHaveLength(MANY - 1000);
    expect(response.body.items.at(-1)?.accession_number).toBe(`CAP-${MANY - 1}`);
  });

  it('counts exactly when a common word falls short of the cap under a filter (602 MRI studies)', async () => {
    await server.db.execute(sql`update studies set modality = 'MR', modality_group = 'MRI'
      where organisation_id = ${organisationId}::uuid and accession_number like 'CAP-%'
        and substr(accession_number, 5)::int % 5 < 3`);
    const mri = await searchAs(server, tokens.admin, { q: 'effusion', modalities: ['MRI'] });
    expect(mri.body).toMatchObject({ total: 602, total_capped: false });
    expect(mri.body.items.every((item) => item.modality_group === 'MRI')).toBe(true);
    // The other 402 and the newest (the template) are CT.
    const ct = await searchAs(server, tokens.radiologist, { q: 'effusion', modalities: ['CT'], offset: 400 });
    expect(ct.body).toMatchObject({ total: 403, total_capped: false, next_offset: null });
    expect(ct.body.items).toHaveLength(3);
  });

  it('ranks by relevance within the newest matches counted', async () => {
    const response = await searchAs(server, tokens.admin, { q: 'effusion', sort_by: 'relevance' });
    expect(response.body).toMatchObject({ total: REPORT_FINDER_COUNT_CAP, total_capped: true });
    const ranks = response.body.items.map((item) => item.rank ?? -1);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    expect(ranks.every((rank) => rank > 0)).toBe(true);
  });

  it("a radiologist of another facility finds none of them (the report's copy of the facility)", async () => {
    const response = await searchAs(server, tokens.elsewhere, { q: 'effusion' });
    expect(response.body).toMatchObject({ total: 0, total_capped: false, items: [] });
  });
});

describe('the walk (findReports) when it reads its longest without reaching the cap', () => {
  it('says the matches it read as a lower bound, and leaves the rare words to the plan', async () => {
    const principal: TPrincipal = {
      userId: adminId,
      email: 'admin@example.test',
      organisationId,
      role: 'ADMIN',
      userType: null,
      facilityIds: [],
      sessionId: randomUUID(),
      issuedAt: Math.floor(NOW.getTime() / 1000),
    };
    const scope = await worklistScope(server.db, principal, []);
    const find = async (q: string) => {
      const query = ZReportSearchQuery.parse({ q, date_range_type: 'CUSTOM' });
      const criteria = await resolveReportFinderCriteria(server.db, scope, query, NOW);
      return presentReportSearch(
        await findReports(server.db, criteria, { probe: 50, walkMax: 200 }),
        criteria,
      );
    };
    const common = await find('effusion');
    expect(common).toMatchObject({ total: 200, total_capped: true, next_offset: 20 });
    expect(common.items[0]?.study_id).toBe(templateId);
    const rare = await find('pneumoperitoneum');
    expect(rare).toMatchObject({ total: 3, total_capped: false });
  });
});

describe("reports' copies of their study", () => {
  type TCopy = {
    study_created_at: Date | string;
    facility_id: string;
    priority_tag: string | null;
    study_deleted: boolean;
  };
  const copyOf = async (studyId: string) => {
    const [row] = await queryRows<TCopy>(
      server.db,
      sql`select study_created_at, facility_id, priority_tag, study_deleted from reports where study_id = ${studyId}::uuid`,
    );
    if (!row) throw new Error('no report');
    return row;
  };

  it('are taken from the study on insert, whatever the insert gave', async () => {
    const facility = await buildFacility(server.db, { organisationId });
    const study = await buildStudy(server.db, { facility, status: 'DRAFTED', priorityTag: 'URGENT' });
    const decoy = await buildFacility(server.db, { organisationId });
    await buildReport(server.db, {
      study,
      status: 'DRAFTED',
      facilityId: decoy.id,
      studyCreatedAt: new Date('2001-01-01T00:00:00Z'),
    });
    const copy = await copyOf(study.id);
    expect(copy).toMatchObject({ facility_id: facility.id, priority_tag: 'URGENT', study_deleted: false });
    expect(new Date(copy.study_created_at).toISOString()).toBe(study.createdAt.toISOString());
  });

  it("follow the study's priority and deletion, and cannot be written apart from it", async () => {
    const facility = await buildFacility(server.db, { organisationId });
    const study = await buildStudy(server.db, { facility, status: 'DRAFTED' });
    const report = await buildReport(server.db, { study, status: 'DRAFTED', text: 'Effusion.' });
    await server.db.execute(sql`update studies set priority_tag = 'EMERGENCY' where id = ${study.id}::uuid`);
    expect((await copyOf(study.id)).priority_tag).toBe('EMERGENCY');
    await server.db.execute(sql`update studies set status = 'DELETED' where id = ${study.id}::uuid`);
    expect((await copyOf(study.id)).study_deleted).toBe(true);
    await server.db.execute(
      sql`update reports set priority_tag = 'ROUTINE', study_deleted = false where id = ${report.id}::uuid`,
    );
    expect(await copyOf(study.id)).toMatchObject({ priority_tag: 'EMERGENCY', study_deleted: true });
  });
});
