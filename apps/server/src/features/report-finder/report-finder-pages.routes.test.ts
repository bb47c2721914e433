// GET /report/search by relevance across many pages: pages continue each other without duplicates
// or gaps past the count cap, and when the walk answers with a lower bound (its matches ranked).
import { randomUUID } from 'node:crypto';
import { REPORT_FINDER_COUNT_CAP, ZReportSearchQuery, type TReportSearchResponse } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPrincipal } from '../../auth/principal.ts';
import { queryRows } from '../../db/rows.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../test/factories.ts';
import { NOW, searchAs } from '../../test/report-finder-world.ts';
import { seedingStudies } from '../../test/seeding-studies.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { worklistScope } from '../worklist/list/worklist-scope.ts';
import { resolveReportFinderCriteria } from './report-finder-criteria.ts';
import { presentReportSearch } from './report-finder.presenter.ts';
import { findReports } from './report-finder-walk.ts';

const MANY = REPORT_FINDER_COUNT_CAP + 30;
let server: TTestServer;
let token: string;
let principal: TPrincipal;
let allIds: string[];

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const db = server.db;
  const organisationId = (await buildOrganisation(db)).id;
  const facility = await buildFacility(db, { organisationId });
  const template = await buildStudy(db, { facility, status: 'FINAL', createdAt: NOW });
  // MANY FINAL studies a minute apart, each with a report on effusion; those 300-329 and the oldest
  // 30 minutes name it three times (ranked above the others).
  await seedingStudies(db, async () => {
    await db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, patient_name,
        patient_identifier, accession_number, study_uid, modality, modality_group, status, created_at)
      select organisation_id, facility_id, patient_id, patient_name, patient_identifier,
        'PAGE-' || g, study_uid || '.' || g, modality, modality_group, status, created_at - g * interval '1 minute'
      from studies, generate_series(1, ${MANY}) g where id = ${template.id}::uuid`);
  });
  await db.execute(sql`insert into reports (study_id, organisation_id, status, content, content_text, finalized_at)
    select s.id, s.organisation_id, 'COMPLETED', '<p>x</p>',
      case when n between 300 and 329 or n > ${MANY - 30} then 'Effusion. Effusion. Pleural effusion.'
        else 'Small pleural effusion.' end,
      s.created_at + interval '1 hour'
    from (select *, substr(accession_number, 6)::int as n from studies
      where accession_number like 'PAGE-%' and organisation_id = ${organisationId}::uuid) s`);
  const admin = await buildUser(db, { role: 'ADMIN', organisationId });
  token = await tokenFor(server, admin);
  principal = {
    userId: admin.id,
    email: 'admin@example.test',
    organisationId,
    role: 'ADMIN',
    userType: null,
    facilityIds: [],
    sessionId: randomUUID(),
    issuedAt: Math.floor(NOW.getTime() / 1000),
  };
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from reports where organisation_id = ${organisationId}::uuid`,
  );
  allIds = rows.map((row) => row.id).sort();
}, 60_000);

afterAll(async () => {
  await server?.close();
});

/** Every page from offset 0 by next_offset: the ids in order and each page's total. */
async function everyPage(page: (offset: number) => Promise<TReportSearchResponse>) {
  const found: string[] = [];
  const totals: string[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const body = await page(offset);
    found.push(...body.items.map((item) => item.report_id));
    totals.push(`${body.total}${body.total_capped ? '+' : ''}`);
    offset = body.next_offset;
  }
  return { found, totals };
}

describe('GET /report/search by relevance, page after page', () => {
  it('continues past the count cap without duplicates or gaps', async () => {
    const { found } = await everyPage(async (offset) => {
      const response = await searchAs(server, token, { q: 'effusion', limit: 100, offset });
      expect(response.status).toBe(200);
      return response.body;
    });
    expect(found).toHaveLength(MANY);
    expect([...found].sort()).toEqual(allIds);
  });

  /** Every page of 20 answered by a walk of at most 200 reports (a lower bound of 200 matches). */
  async function shortWalkPages(sortBy: 'relevance' | 'date') {
    const scope = await worklistScope(server.db, principal, []);
    return everyPage(async (offset) => {
      const query = ZReportSearchQuery.parse({
        q: 'effusion',
        date_range_type: 'CUSTOM',
        sort_by: sortBy,
        limit: 20,
        offset,
      });
      const criteria = await resolveReportFinderCriteria(server.db, scope, query, NOW);
      const rows = await findReports(server.db, criteria, { probe: 50, walkMax: 200 });
      return presentReportSearch(rows, criteria);
    });
  }

  it("ranks the walk's lower bound on every page: its 200 matches once each, then the pages end", async () => {
    const { found, totals } = await shortWalkPages('relevance');
    expect(new Set(totals)).toEqual(new Set(['200+']));
    expect(found).toHaveLength(200);
    expect(new Set(found).size).toBe(200);
  });

  it('by date, pages continue past the lower bound to the last match', async () => {
    const { found } = await shortWalkPages('date');
    expect(found).toHaveLength(MANY);
    expect([...found].sort()).toEqual(allIds);
  });
});
