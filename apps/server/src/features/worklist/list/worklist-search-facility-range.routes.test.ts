// An admin's search over a week of a few of the organisation's facilities (facility_ids), for a text
// every study holds: the keys would find the facilities' candidates of every date (or the whole
// organisation's of the week's weeks), five times the week's own rows, and no dense walk serves an
// admin (their deleted studies are counted apart). The week's own rows are tested (searchInRange);
// a radiologist of the same facility keeps their dense walk. Pages, totals and tabs are the oracle's.
import { STUDY_STATUSES } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScope } from '../../../access/scope.ts';
import type { TPrincipal } from '../../../auth/principal.ts';
import { queryRows } from '../../../db/rows.ts';
import { adminPrincipal, tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildUser } from '../../../test/factories.ts';
import { insertSpreadStudies, sortedByName } from '../../../test/spread-studies.ts';
import { worklistFiltersOf } from '../../../test/worklist-criteria.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { countWorklist, listWorklist } from '../../../test/worklist-requests.ts';
import { resolveWorklistCriteria } from './worklist-criteria.ts';
import { SEARCH_IN_RANGE_AT_MOST } from './worklist-search-in-range.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
/** Two facilities' studies, one every 2.1 minutes in turn: 35 days, 2,400 a facility a week. */
const STUDIES = 24_000;
const WEEK = 'date_range_type=LAST_1_WEEK';

let server: TTestServer;
let organisationId = '';
let facilityId = '';
let admin: TPrincipal;
let radiologist: TPrincipal;
const tokens = { admin: '', foreign: '' };

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  organisationId = (await buildOrganisation(server.db)).id;
  const facilities = [
    await buildFacility(server.db, { organisationId }),
    await buildFacility(server.db, { organisationId }),
  ];
  facilityId = facilities[0]?.id ?? '';
  const adminUser = await buildUser(server.db, { role: 'ADMIN', organisationId });
  admin = adminPrincipal(adminUser, organisationId);
  const staff = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: facilities.slice(0, 1) });
  radiologist = { ...adminPrincipal(staff, organisationId), role: 'RADIOLOGIST', userType: 'RADIOLOGIST' };
  await insertSpreadStudies(server.db, facilities, STUDIES, {
    accession: sql`'FR' || g`,
    patientName: sql`case when g % 500 = 0 then 'Rarename Ann' else 'Patient ' || (g % 997) end`,
    patientIdentifier: sql`'P' || lpad(((g * 7919) % 10007)::text, 5, '0')`,
    description: sql`'Zeta Protocol'`,
    modality: sql`'CT'`,
    modalityGroup: sql`'CT'`,
    status: sql`case when g % 97 = 0 then 'DELETED'
      else (array['ORDERED','TO_READ','ASSIGNED','IN_REVIEW','DRAFTED','FINAL'])[g % 6 + 1] end`,
    arrival: sql`${NOW.toISOString()}::timestamptz - g * interval '2.1 minutes'`,
  });
  const foreignFacility = await buildFacility(server.db);
  const foreign = await buildUser(server.db, {
    role: 'ADMIN',
    organisationId: foreignFacility.organisationId,
  });
  tokens.admin = await tokenFor(server, adminUser);
  tokens.foreign = await tokenFor(server, foreign);
  // The keys' estimates come from the keyed indexes' statistics.
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

async function criteriaOf(query: string, caller: TPrincipal) {
  const filters = worklistFiltersOf(query);
  return resolveWorklistCriteria(server.db, await loadScope(server.db, caller), filters, NOW);
}

/** The facility's studies of the last week holding `text`, newest first. */
async function oracle(text: string, deleted = false) {
  const from = new Date(NOW.getTime() - 7 * 86_400_000).toISOString();
  return queryRows<{ id: string; status: string; patient_name: string }>(
    server.db,
    sql`select id, status::text as status, patient_name from studies
      where facility_id = ${facilityId}::uuid and created_at >= ${from}::timestamptz
        and (${deleted} or status <> 'DELETED') and strpos(search_text, lower(ris_unaccent(${text}))) > 0
      order by created_at desc, id desc`,
  );
}

const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

describe('an admin’s week of a few facilities searched for a text every study holds', () => {
  it('tests the week’s own rows for an admin; a radiologist keeps their walk, a rare text its keys', async () => {
    const week = await oracle('zeta');
    expect(week.length).toBeGreaterThan(SEARCH_IN_RANGE_AT_MOST);
    const query = `${WEEK}&facility_ids=${facilityId}&search=zeta`;
    expect((await criteriaOf(query, admin)).searchInRange).toBe(true);
    expect((await criteriaOf(`${WEEK}&search=zeta`, radiologist)).searchInRange).toBe(false);
    expect(
      (await criteriaOf(`${WEEK}&facility_ids=${facilityId}&search=rarename`, admin)).searchInRange,
    ).toBe(false);
  });

  it('lists and counts it exactly, by arrival and by name; another organisation sees none of it', async () => {
    const want = await oracle('zeta');
    const query = `${WEEK}&facility_ids=${facilityId}&search=Zeta`;
    const page = await listWorklist(server, tokens.admin, `${query}&limit=25&offset=40`);
    expect(ids(page.items)).toEqual(ids(want.slice(40, 65)));
    expect({ total: page.total, capped: page.total_capped }).toEqual({ total: want.length, capped: false });
    const named = await listWorklist(
      server,
      tokens.admin,
      `${query}&sort_by=patient_name&sort_order=asc&limit=25&offset=100`,
    );
    expect(ids(named.items)).toEqual(ids(sortedByName(want).slice(100, 125)));
    const counts = await countWorklist(server, tokens.admin, query);
    const withDeleted = await oracle('zeta', true);
    for (const status of STUDY_STATUSES) {
      expect(counts.statuses[status], status).toBe(withDeleted.filter((row) => row.status === status).length);
    }
    expect({ capped: counts.capped, deleted: counts.deleted_capped }).toEqual({
      capped: false,
      deleted: false,
    });
    const foreign = await listWorklist(server, tokens.foreign, `${WEEK}&search=zeta&limit=100`);
    expect(foreign.items).toEqual([]);
  });
});
