// A search whose range holds a few thousand studies under its other filters, for a text the keys find
// in many more (worklist-criteria.ts, rangeTestOf): "zeta" is in every study's description, and the
// nuclear medicine studies of all dates are 2,100 of the organisation's 7,000. The range's own rows are
// tested (searchInRange) instead of the text's candidates of every modality; a rare text keeps its
// keys. Either way the pages are the oracle's, totals and tabs exact, for an admin, a radiologist's
// facilities and another organisation.
import { STUDY_STATUSES } from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
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
import { SEARCH_IN_RANGE_AT_MOST, SEARCH_IN_RANGE_SHORT_AT_MOST } from './worklist-search-in-range.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const ALL_DATES = 'date_range_type=CUSTOM';
const STUDIES = 7_000;

let server: TTestServer;
let organisationId = '';
let admin: TPrincipal;
let recentAdmin: TPrincipal;

let adminToken = '';
let recentAdminToken = '';
let recentOrganisationId = '';
let recentReader: TPrincipal;
let recentReaderId = '';
let radiologistToken = '';
let foreignToken = '';
let staffFacilities: string[] = [];

/**
 * Studies 1..count spread over `facilities` in turn, one every 15 minutes back from NOW: nuclear
 * medicine when g % 10 < 3, else CT, every one described "Zeta Protocol"; patient "Rarename" when g
 * is a multiple of 500; statuses in turn, every 97th deleted.
 */
async function seed(
  facilities: readonly Awaited<ReturnType<typeof buildFacility>>[],
  count: number,
  minutesApart = 15,
) {
  const before = (minutes: SQL) => sql`${NOW.toISOString()}::timestamptz - ${minutes} * interval '1 minute'`;
  await insertSpreadStudies(server.db, facilities, count, {
    accession: sql`'Z' || g`,
    patientName: sql`case when g % 500 = 0 then 'Rarename Ann' else 'Patient ' || g end`,
    patientIdentifier: sql`'P' || lpad(((g * 7919) % 10007)::text, 5, '0')`,
    description: sql`'Zeta Protocol'`,
    modality: sql`case when g % 10 < 3 then 'NM' else 'CT' end`,
    modalityGroup: sql`case when g % 10 < 3 then 'NM' else 'CT' end`,
    status: sql`case when g % 97 = 0 then 'DELETED'
      else (array['ORDERED','TO_READ','ASSIGNED','IN_REVIEW','DRAFTED','FINAL'])[g % 6 + 1] end`,
    arrival: before(sql`g * ${minutesApart}::int`),
    studyDatetime: before(sql`(g * ${minutesApart}::int + g % 53)`),
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
    await buildFacility(server.db, { organisationId }),
  ];
  staffFacilities = facilities.slice(0, 2).map((facility) => facility.id);
  const adminUser = await buildUser(server.db, { role: 'ADMIN', organisationId });
  const radiologist = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: facilities.slice(0, 2) });
  await seedingStudies(server.db, async () => {
    await seed(facilities, STUDIES);
    const foreignFacility = await buildFacility(server.db);
    await seed([foreignFacility], 300);
    const foreign = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [foreignFacility] });
    admin = adminPrincipal(adminUser, organisationId);
    // An organisation whose 7,400 studies arrived over the last 15 days: its newest month alone holds
    // more nuclear medicine studies than the count's cap, which a walk of that month reaches.
    const recentFacility = await buildFacility(server.db);
    await seed([recentFacility], 7_400, 3);
    const recentAdminUser = await buildUser(server.db, {
      role: 'ADMIN',
      organisationId: recentFacility.organisationId,
    });
    recentAdmin = adminPrincipal(recentAdminUser, recentFacility.organisationId);
    recentOrganisationId = recentFacility.organisationId;
    // Its radiologist reads every one of its studies.
    const reader = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [recentFacility] });
    recentReaderId = reader.id;
    recentReader = {
      ...adminPrincipal(reader, recentOrganisationId),
      role: 'RADIOLOGIST',
      facilityIds: [recentFacility.id],
    };
    await server.db.execute(sql`update studies set last_assigned_user_id = ${reader.id}::uuid
      where organisation_id = ${recentOrganisationId}::uuid`);
    recentAdminToken = await tokenFor(server, recentAdminUser);
    adminToken = await tokenFor(server, adminUser);
    radiologistToken = await tokenFor(server, radiologist);
    foreignToken = await tokenFor(server, foreign);
  });
  // The keys' estimate comes from the modality-keyed index's statistics.
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

async function criteriaOf(query: string, caller: TPrincipal) {
  const filters = worklistFiltersOf(query);
  return resolveWorklistCriteria(server.db, await loadScope(server.db, caller), filters, NOW);
}

/** The oracle: the organisation's (or `facilities`') nuclear medicine studies holding the text. */
async function oracle(text: string, options: { facilities?: string[]; deleted?: boolean } = {}) {
  const within = options.facilities
    ? sql`facility_id in (${sql.join(
        options.facilities.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`
    : sql`true`;
  return queryRows<{ id: string; status: string }>(
    server.db,
    sql`select id, status::text as status from studies
      where organisation_id = ${organisationId}::uuid and ${within} and modality_group = 'NM'
        and (${options.deleted === true} or status <> 'DELETED')
        and strpos(search_text, lower(ris_unaccent(${text}))) > 0
      order by created_at desc, id desc`,
  );
}

const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

describe('a range of a few thousand studies searched for a text the keys find in many more', () => {
  it('tests the range’s own rows for a common text, and keeps the keys for a rare one', async () => {
    const range = await oracle('zeta', { deleted: true });
    expect(range.length).toBeGreaterThan(SEARCH_IN_RANGE_AT_MOST);
    const common = await criteriaOf(`${ALL_DATES}&modalities=NM&search=zeta`, admin);
    expect(common.searchInRange).toBe(true);
    const rare = await criteriaOf(`${ALL_DATES}&modalities=NM&search=rarename`, admin);
    expect(rare.searchInRange).toBe(false);
    // Every modality: more studies than the keys find three times over.
    expect((await criteriaOf(`${ALL_DATES}&search=zeta`, admin)).searchInRange).toBe(false);
    // A range whose newest month holds more than the cap: the walk of that month counts it.
    expect((await criteriaOf(`${ALL_DATES}&modalities=NM&search=zeta`, recentAdmin)).searchInRange).toBe(
      false,
    );
  });

  it('tests a named colleague’s range even where its newest month passes the cap', async () => {
    // The recent organisation's radiologist holds its 2,200 nuclear medicine studies, all within the
    // month: named by the admin, their range is tested (a text they seldom hold would otherwise have
    // had the keys read); the radiologist naming themself keeps the walk of their newest month.
    const named = `${ALL_DATES}&modalities=NM&search=zeta&by_user_ids=${recentReaderId}`;
    expect((await criteriaOf(named, recentAdmin)).searchInRange).toBe(true);
    expect((await criteriaOf(named, recentReader)).searchInRange).toBe(false);
    const [row] = await queryRows<{ n: number }>(
      server.db,
      sql`select count(*)::int as n from studies where organisation_id = ${recentOrganisationId}::uuid
        and last_assigned_user_id = ${recentReaderId}::uuid and modality_group = 'NM' and status <> 'DELETED'`,
    );
    expect(row?.n).toBeGreaterThan(SEARCH_IN_RANGE_AT_MOST);
    const page = await listWorklist(server, recentAdminToken, `${named}&limit=25&offset=975`);
    expect({ total: page.total, capped: page.total_capped }).toEqual({ total: row?.n, capped: false });
    const want = await queryRows<{ id: string }>(
      server.db,
      sql`select id from studies where organisation_id = ${recentOrganisationId}::uuid
        and last_assigned_user_id = ${recentReaderId}::uuid and modality_group = 'NM' and status <> 'DELETED'
        order by created_at desc, id desc offset 975 limit 25`,
    );
    expect(ids(page.items)).toEqual(ids(want));
    const foreign = await server.request('GET', `/api/v1/worklist?${named}`, { token: adminToken });
    expect(foreign.status).toBe(404);
  });

  it('lists and counts an admin’s nuclear medicine "zeta" as the oracle', async () => {
    const want = await oracle('zeta');
    const page = await listWorklist(
      server,
      adminToken,
      `${ALL_DATES}&modalities=NM&search=Zeta&limit=25&offset=40`,
    );
    expect(ids(page.items)).toEqual(ids(want.slice(40, 65)));
    expect({ total: page.total, capped: page.total_capped }).toEqual({ total: want.length, capped: false });
    const withDeleted = await oracle('zeta', { deleted: true });
    const tabs = await countWorklist(server, adminToken, `${ALL_DATES}&modalities=NM&search=zeta`);
    for (const status of STUDY_STATUSES) {
      expect(tabs.statuses[status], status).toBe(withDeleted.filter((row) => row.status === status).length);
    }
    const rare = await listWorklist(
      server,
      adminToken,
      `${ALL_DATES}&modalities=NM&search=rarename&limit=25`,
    );
    expect(ids(rare.items)).toEqual(ids(await oracle('rarename')));
  });

  it('keeps a radiologist within their facilities, and another organisation within its own', async () => {
    const want = await oracle('zeta', { facilities: staffFacilities });
    const page = await listWorklist(
      server,
      radiologistToken,
      `${ALL_DATES}&modalities=NM&search=zeta&limit=100`,
    );
    expect(ids(page.items)).toEqual(ids(want.slice(0, 100)));
    expect(page.total).toBe(want.length);
    const tabs = await countWorklist(server, radiologistToken, `${ALL_DATES}&modalities=NM&search=zeta`);
    expect(tabs.groups.ALL).toBe(want.length);
    const foreign = await listWorklist(
      server,
      foreignToken,
      `${ALL_DATES}&modalities=NM&search=zeta&limit=100`,
    );
    expect(foreign.total).toBe(90 - 1);
    expect(foreign.items.every((item) => !ids(want).includes(item.id))).toBe(true);
  });
});

/** The recent organisation's studies of `statuses` holding "zeta" (every one), newest first. */
async function recentOracle(statuses: readonly string[]) {
  return queryRows<{ id: string; patient_name: string }>(
    server.db,
    sql`select id, patient_name from studies
      where organisation_id = ${recentOrganisationId}::uuid and status::text = any(${`{${statuses.join(',')}}`}::text[])
        and strpos(search_text, 'zeta') > 0 and created_at >= ${NOW.toISOString()}::timestamptz - interval '1 month'
      order by created_at desc, id desc`,
  );
}

describe('a month whose other filters keep a few thousand of its studies, for a text the week keys find in many more', () => {
  const MONTH_SETTLED = 'date_range_type=LAST_1_MONTH&statuses=FINAL&statuses=DRAFTED&search=zeta';

  it('tests the month’s own rows where a filter keeps part of them, and keeps the keys otherwise', async () => {
    const kept = await recentOracle(['FINAL', 'DRAFTED']);
    expect(kept.length).toBeGreaterThan(SEARCH_IN_RANGE_AT_MOST);
    expect(kept.length).toBeLessThanOrEqual(SEARCH_IN_RANGE_SHORT_AT_MOST);
    const narrowed = await criteriaOf(MONTH_SETTLED, recentAdmin);
    expect(narrowed.searchWeeks).toBeNull();
    expect(narrowed.searchInRange).toBe(true);
    // No filter but the dates: the month's 7,400 studies are more than the keys' third.
    const whole = await criteriaOf('date_range_type=LAST_1_MONTH&search=zeta', recentAdmin);
    expect(whole.searchInRange).toBe(false);
    expect(whole.searchWeeks).not.toBeNull();
  });

  it('lists the month exactly, by arrival and by name, with the exact total', async () => {
    const want = await recentOracle(['FINAL', 'DRAFTED']);
    const page = await listWorklist(server, recentAdminToken, `${MONTH_SETTLED}&limit=25&offset=40`);
    expect(ids(page.items)).toEqual(ids(want.slice(40, 65)));
    expect({ total: page.total, capped: page.total_capped }).toEqual({ total: want.length, capped: false });
    const byName = sortedByName(want);
    const named = await listWorklist(
      server,
      recentAdminToken,
      `${MONTH_SETTLED}&sort_by=patient_name&sort_order=asc&limit=25&offset=100`,
    );
    expect(ids(named.items)).toEqual(ids(byName.slice(100, 125)));
    // Another organisation's admin, the same request: none of these studies.
    const other = await listWorklist(server, adminToken, `${MONTH_SETTLED}&limit=100`);
    expect(other.items.some((item) => ids(want).includes(item.id))).toBe(false);
  });
});
