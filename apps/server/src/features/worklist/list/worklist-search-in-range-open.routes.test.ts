// An admin's month searched in open statuses only (Ordered, To read and Assigned picked), which keep
// a few thousand of its studies, for a text the week keys find in three times as many: the open
// studies' keys still serve where they find few (searchOpen, worklist-criteria.ts), rather than the
// month's rows being tested (searchInRange, as for settled statuses: worklist-search-in-range
// .routes.test.ts). Pages and totals are the oracle's; another organisation's admin sees none.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScope } from '../../../access/scope.ts';
import type { TPrincipal } from '../../../auth/principal.ts';
import { queryRows } from '../../../db/rows.ts';
import { adminPrincipal, tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildStudy, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { worklistFiltersOf } from '../../../test/worklist-criteria.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { listWorklist } from '../../../test/worklist-requests.ts';
import { resolveWorklistCriteria } from './worklist-criteria.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const OPEN_READ = 'date_range_type=LAST_1_MONTH&statuses=ORDERED&statuses=TO_READ&statuses=ASSIGNED';

let server: TTestServer;
let organisationId = '';
let admin: TPrincipal;
let adminToken = '';
let otherAdminToken = '';

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const facility = await buildFacility(server.db);
  organisationId = facility.organisationId;
  await buildStudy(server.db, { facility, patientName: 'Seed', studyDescription: 'Seed' });
  // 13,000 studies over 18 days, one every 2 minutes: every fifth open (Ordered, To read, Assigned
  // in turn) and described "Xeno Open" (every 40th of them "Bone Open"), the rest final and described
  // "Bone Scan": "bone" is in 10,400 final studies and 65 of the 2,600 open ones.
  await seedingStudies(server.db, async () => {
    await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id,
        accession_number, patient_name, patient_identifier, study_description, modality, modality_group,
        status, created_at, updated_at, study_datetime)
      select ${organisationId}::uuid, ${facility.id}::uuid,
        (select id from patients where facility_id = ${facility.id}::uuid limit 1), 'B' || g,
        'Patient ' || g, 'P' || lpad(g::text, 6, '0'),
        case when g % 5 <> 0 then 'Bone Scan' when g % 200 = 0 then 'Bone Open' else 'Xeno Open' end,
        'NM', 'NM'::modality_group,
        (case when g % 5 <> 0 then 'FINAL' else (array['ORDERED','TO_READ','ASSIGNED'])[(g / 5) % 3 + 1] end)::study_status,
        ${NOW.toISOString()}::timestamptz - g * interval '2 minutes',
        ${NOW.toISOString()}::timestamptz - g * interval '2 minutes',
        ${NOW.toISOString()}::timestamptz - g * interval '2 minutes'
      from generate_series(1, 13000) g`);
  });
  const adminUser = await buildUser(server.db, { role: 'ADMIN', organisationId });
  admin = adminPrincipal(adminUser, organisationId);
  adminToken = await tokenFor(server, adminUser);
  otherAdminToken = await tokenFor(server, await buildUser(server.db, { role: 'ADMIN' }));
  // The keys' estimates come from the search indexes' statistics.
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

async function criteriaOf(query: string) {
  const filters = worklistFiltersOf(query);
  return resolveWorklistCriteria(server.db, await loadScope(server.db, admin), filters, NOW);
}

/** The month's open studies holding `text`, newest first. */
function oracle(text: string) {
  return queryRows<{ id: string }>(
    server.db,
    sql`select id from studies where organisation_id = ${organisationId}::uuid
        and status in ('ORDERED', 'TO_READ', 'ASSIGNED') and strpos(search_text, ${text}) > 0
        and created_at >= ${NOW.toISOString()}::timestamptz - interval '1 month'
      order by created_at desc, id desc`,
  );
}

const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

describe('an admin’s month in open statuses searched for a text the week keys find in many more', () => {
  it('reads the open studies’ keys for a text few open studies hold', async () => {
    expect((await oracle('bone')).length).toBe(65);
    const rare = await criteriaOf(`${OPEN_READ}&search=bone`);
    expect({ open: rare.searchOpen, inRange: rare.searchInRange }).toEqual({ open: true, inRange: false });
  });

  it('lists the oracle, with exact totals, and none to another organisation', async () => {
    for (const text of ['bone', 'xeno']) {
      const want = await oracle(text);
      const page = await listWorklist(server, adminToken, `${OPEN_READ}&search=${text}&limit=25&offset=25`);
      expect(ids(page.items), text).toEqual(ids(want.slice(25, 50)));
      expect({ total: page.total, capped: page.total_capped }, text).toEqual({
        total: want.length,
        capped: false,
      });
      const other = await listWorklist(server, otherAdminToken, `${OPEN_READ}&search=${text}&limit=100`);
      expect(other.total, text).toBe(0);
    }
  });
});
