// An admin's search over a week of a few of the organisation's facilities (facility_ids), for a text
// every study holds: the keys would find the facilities' candidates of every date (or the whole
// organisation's of the week's weeks), five times the week's own rows, and no dense walk serves an
// admin (their deleted studies are counted apart). The week's own rows are tested (searchInRange);
// a radiologist of the same facility keeps their dense walk. Pages, totals and tabs are the oracle's;
// another organisation's admin, its facility seeded alike, sees its own week alone.
import { STUDY_STATUSES } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScope } from '../../../access/scope.ts';
import type { TPrincipal } from '../../../auth/principal.ts';
import { queryRows } from '../../../db/rows.ts';
import { adminPrincipal } from '../../../test/auth-helpers.ts';
import { insertSpreadStudies, sortedByName } from '../../../test/spread-studies.ts';
import { worklistFiltersOf } from '../../../test/worklist-criteria.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { searchOrganisations, type TSeededFacility } from '../../../test/worklist-search-organisations.ts';
import { countWorklist, listWorklist } from '../../../test/worklist-requests.ts';
import { resolveWorklistCriteria } from './worklist-criteria.ts';
import { SEARCH_IN_RANGE_AT_MOST } from './worklist-search-in-range.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
/** A facility's studies, one every 4.2 minutes: 35 days, 2,400 a week. */
const STUDIES = 12_000;
/** The other organisation's facility: its last 3.5 days, enough for its pages. */
const FOREIGN_STUDIES = 1_200;
/** The seed inserts 25,000 studies and analyses them: more than the default hook timeout under CI's load. */
const SEED_TIMEOUT_MS = 180_000;
const WEEK = 'date_range_type=LAST_1_WEEK';

let server: TTestServer;
let facilityId = '';
let foreignOrganisationId = '';
let admin: TPrincipal;
let radiologist: TPrincipal;
let tokens = { admin: '', radiologist: '', foreign: '' };

let seededOrganisation: string | null = null;

/**
 * STUDIES studies of each of the organisation's facilities (the first seeded), FOREIGN_STUDIES of the
 * other's: every one described "Zeta Protocol", a "Rarename" in 500.
 */
async function seed(facility: TSeededFacility) {
  seededOrganisation ??= facility.organisationId;
  const count = facility.organisationId === seededOrganisation ? STUDIES : FOREIGN_STUDIES;
  await insertSpreadStudies(server.db, [facility], count, {
    accession: sql`'FR' || g`,
    patientName: sql`case when g % 500 = 0 then 'Rarename Ann' else 'Patient ' || (g % 997) end`,
    patientIdentifier: sql`'P' || lpad(((g * 7919) % 10007)::text, 5, '0')`,
    description: sql`'Zeta Protocol'`,
    modality: sql`'CT'`,
    modalityGroup: sql`'CT'`,
    status: sql`case when g % 97 = 0 then 'DELETED'
      else (array['ORDERED','TO_READ','ASSIGNED','IN_REVIEW','DRAFTED','FINAL'])[g % 6 + 1] end`,
    arrival: sql`${NOW.toISOString()}::timestamptz - g * interval '4.2 minutes'`,
  });
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const built = await searchOrganisations(server, seed);
  ({ foreignOrganisationId, tokens } = built);
  facilityId = built.staffFacility;
  admin = adminPrincipal(built.admin, built.organisationId);
  radiologist = {
    ...adminPrincipal(built.radiologist, built.organisationId),
    role: 'RADIOLOGIST',
    userType: 'RADIOLOGIST',
  };
}, SEED_TIMEOUT_MS);

afterAll(async () => server.close());

async function criteriaOf(query: string, caller: TPrincipal) {
  const filters = worklistFiltersOf(query);
  return resolveWorklistCriteria(server.db, await loadScope(server.db, caller), filters, NOW);
}

/** The facility's (or an organisation's) studies of the last week holding `text`, newest first. */
async function oracle(text: string, options: { deleted?: boolean; organisation?: string } = {}) {
  const from = new Date(NOW.getTime() - 7 * 86_400_000).toISOString();
  const within = options.organisation
    ? sql`organisation_id = ${options.organisation}::uuid`
    : sql`facility_id = ${facilityId}::uuid`;
  return queryRows<{ id: string; status: string; patient_name: string }>(
    server.db,
    sql`select id, status::text as status, patient_name from studies
      where ${within} and created_at >= ${from}::timestamptz
        and (${options.deleted ?? false} or status <> 'DELETED')
        and strpos(search_text, lower(ris_unaccent(${text}))) > 0
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
    const withDeleted = await oracle('zeta', { deleted: true });
    for (const status of STUDY_STATUSES) {
      expect(counts.statuses[status], status).toBe(withDeleted.filter((row) => row.status === status).length);
    }
    expect({ capped: counts.capped, deleted: counts.deleted_capped }).toEqual({
      capped: false,
      deleted: false,
    });
    // Another organisation's admin, its own facility holding the same texts: its own week alone.
    const foreignWant = await oracle('zeta', { organisation: foreignOrganisationId });
    const foreign = await listWorklist(server, tokens.foreign, `${WEEK}&search=zeta&limit=25&offset=40`);
    expect(ids(foreign.items)).toEqual(ids(foreignWant.slice(40, 65)));
    expect(foreign.items.some((item) => ids(want).includes(item.id))).toBe(false);
  });
});
