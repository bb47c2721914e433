// An organisation's search over all dates under a filter that keeps few of its newest month's studies,
// for a text the week keys find in many more (worklist-criteria.ts, rangeTestOf): "zeta" is in every
// study's description; Drafted and In review studies are one in five, 2,400 of all dates (more than
// are tested whole), 1,800 of the newest month (more than the count's cap). The walk in runs of weeks
// tests each run's studies (searchRunsTested) instead of reading the week keys' every study of the
// run. Its pages, capped totals and tabs are the oracle's, by arrival either way and by name; a rare
// text, no filter, and a radiologist's facilities keep their keys; another organisation sees none.
import { WORKLIST_SEARCH_COUNT_CAP } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScope } from '../../../access/scope.ts';
import type { TPrincipal } from '../../../auth/principal.ts';
import { queryRows } from '../../../db/rows.ts';
import { adminPrincipal, tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { insertSpreadStudies, sortedByName } from '../../../test/spread-studies.ts';
import { worklistFiltersOf } from '../../../test/worklist-criteria.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { countWorklist, listWorklist } from '../../../test/worklist-requests.ts';
import { resolveWorklistCriteria } from './worklist-criteria.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const ALL_DATES = 'date_range_type=CUSTOM';
const NARROW = `${ALL_DATES}&statuses=DRAFTED&statuses=IN_REVIEW&search=Zeta`;
/** One study every 5 minutes back from NOW: 41.7 days. */
const STUDIES = 12_000;

let server: TTestServer;
let organisationId = '';
let admin: TPrincipal;
let adminToken = '';
let radiologist: TPrincipal;
let otherAdminToken = '';

/**
 * Studies 1..count of `facilities` in turn, one every 5 minutes back from NOW, each described "Zeta
 * Protocol"; patient "Rarename" when g is a multiple of 700; Drafted when g % 10 = 0, In review when
 * g % 10 = 5, every 89th deleted, else Final or To read; Urgent when g % 5 = 1.
 */
async function seed(facilities: readonly Awaited<ReturnType<typeof buildFacility>>[], count: number) {
  await insertSpreadStudies(server.db, facilities, count, {
    accession: sql`'R' || g`,
    patientName: sql`case when g % 700 = 0 then 'Rarename Ann' else 'Patient ' || ((g * 7919) % 10007) end`,
    patientIdentifier: sql`'P' || g`,
    description: sql`'Zeta Protocol'`,
    modality: sql`'CT'`,
    modalityGroup: sql`'CT'`,
    status: sql`case when g % 89 = 0 then 'DELETED' when g % 10 = 0 then 'DRAFTED' when g % 10 = 5 then 'IN_REVIEW'
      when g % 2 = 0 then 'FINAL' else 'TO_READ' end`,
    priorityTag: sql`case when g % 5 = 1 then 'URGENT' end`,
    arrival: sql`${NOW.toISOString()}::timestamptz - g * interval '5 minutes'`,
  });
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const organisation = await buildOrganisation(server.db);
  organisationId = organisation.id;
  const facilities = [
    await buildFacility(server.db, { organisationId }),
    await buildFacility(server.db, { organisationId }),
    await buildFacility(server.db, { organisationId }),
  ];
  const adminUser = await buildUser(server.db, { role: 'ADMIN', organisationId });
  const radiologistUser = await buildUser(server.db, {
    role: 'RADIOLOGIST',
    facilities: facilities.slice(0, 1),
  });
  const otherFacility = await buildFacility(server.db);
  await seedingStudies(server.db, async () => {
    await seed(facilities, STUDIES);
    await seed([otherFacility], 400);
  });
  const otherAdmin = await buildUser(server.db, {
    role: 'ADMIN',
    organisationId: otherFacility.organisationId,
  });
  admin = adminPrincipal(adminUser, organisationId);
  radiologist = {
    ...adminPrincipal(radiologistUser, organisationId),
    role: 'RADIOLOGIST',
    userType: 'RADIOLOGIST',
    facilityIds: facilities.slice(0, 1).map((facility) => facility.id),
  };
  adminToken = await tokenFor(server, adminUser);
  otherAdminToken = await tokenFor(server, otherAdmin);
  // The keys' estimate comes from the modality-keyed index's statistics.
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

async function criteriaOf(query: string, caller: TPrincipal, reads: 'page' | 'tabs' = 'page') {
  const filters = worklistFiltersOf(query);
  const scope = await loadScope(server.db, caller);
  return resolveWorklistCriteria(server.db, scope, filters, NOW, { keyedSearch: true, reads });
}

/** The oracle: the organisation's studies of `statuses` (by `where`) holding the text, newest first. */
async function oracle(text: string, where = sql`status in ('DRAFTED', 'IN_REVIEW')`) {
  return queryRows<{ id: string; status: string; patient_name: string }>(
    server.db,
    sql`select id, status::text as status, patient_name from studies
      where organisation_id = ${organisationId}::uuid and ${where}
        and strpos(search_text, lower(ris_unaccent(${text}))) > 0
      order by created_at desc, id desc`,
  );
}

const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

describe('an organisation’s narrow filter over all dates, searched for a text the week keys find in many more', () => {
  it('tests each run’s studies under the filter, and keeps the keys elsewhere', async () => {
    const narrow = await criteriaOf(NARROW, admin);
    expect(narrow).toMatchObject({ searchRunsTested: true, searchInRange: false, searchWeeks: null });
    // Tabs read every status: a priority filter keeps part of them.
    const urgent = await criteriaOf(`${ALL_DATES}&priority_tags=URGENT&search=zeta`, admin, 'tabs');
    expect(urgent.searchRunsTested).toBe(true);
    // No filter but the dates, a rare text, a radiologist's facilities: the keys serve.
    expect((await criteriaOf(`${ALL_DATES}&search=zeta`, admin)).searchRunsTested).toBe(false);
    const rare = `${ALL_DATES}&statuses=DRAFTED&statuses=IN_REVIEW&search=rarename`;
    expect((await criteriaOf(rare, admin)).searchRunsTested).toBe(false);
    expect((await criteriaOf(NARROW, radiologist)).searchRunsTested).toBe(false);
  });

  it('lists the matches as the oracle, newest and oldest first, with the capped total', async () => {
    const want = await oracle('zeta');
    expect(want.length).toBeGreaterThan(2 * WORKLIST_SEARCH_COUNT_CAP);
    const page = await listWorklist(server, adminToken, `${NARROW}&limit=25&offset=40`);
    expect(ids(page.items)).toEqual(ids(want.slice(40, 65)));
    expect({ total: page.total, capped: page.total_capped }).toEqual({
      total: WORKLIST_SEARCH_COUNT_CAP,
      capped: true,
    });
    const oldest = await listWorklist(server, adminToken, `${NARROW}&sort_order=asc&limit=25&offset=100`);
    expect(ids(oldest.items)).toEqual(ids([...want].reverse().slice(100, 125)));
    // Past the cap: counted to the page's end.
    const deep = await listWorklist(server, adminToken, `${NARROW}&limit=100&offset=1500`);
    expect(ids(deep.items)).toEqual(ids(want.slice(1500, 1600)));
    const rare = await listWorklist(
      server,
      adminToken,
      `${ALL_DATES}&statuses=DRAFTED&statuses=IN_REVIEW&search=rarename&limit=100`,
    );
    expect(ids(rare.items)).toEqual(ids(await oracle('rarename')));
  });

  it('sorts the matches by name as the oracle', async () => {
    const want = await oracle('zeta');
    const byName = sortedByName(want);
    const named = await listWorklist(
      server,
      adminToken,
      `${NARROW}&sort_by=patient_name&sort_order=asc&limit=25&offset=50`,
    );
    expect(ids(named.items)).toEqual(ids(byName.slice(50, 75)));
  });

  it('counts the urgent tabs up to the cap, each a lower bound of the oracle’s', async () => {
    const want = await oracle('zeta', sql`priority_tag = 'URGENT'`);
    const tabs = await countWorklist(server, adminToken, `${ALL_DATES}&priority_tags=URGENT&search=zeta`);
    expect(tabs.capped).toBe(true);
    expect(tabs.groups.ALL).toBe(WORKLIST_SEARCH_COUNT_CAP + 1);
    for (const [status, count] of Object.entries(tabs.statuses)) {
      expect(count, status).toBeLessThanOrEqual(want.filter((row) => row.status === status).length);
    }
    // The deleted matches of the runs of weeks read before the one that reached the cap: a lower bound.
    expect(tabs.deleted_capped).toBe(true);
  });

  it('shows another organisation’s admin none of these studies', async () => {
    const want = ids(await oracle('zeta'));
    const other = await listWorklist(server, otherAdminToken, `${NARROW}&limit=100`);
    expect(other.total).toBe(80);
    expect(other.items.some((item) => want.includes(item.id))).toBe(false);
  });
});
