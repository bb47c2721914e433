// GET /worklist and /worklist/status/count for a search whose modality filter makes its text rare
// (worklist-search-modality.ts): "chest" is on most X-ray studies and a few MRI ones. The index
// statistics choose the modality-keyed index for MRI and not for X-ray; whichever index serves,
// pages must be the oracle's (ORDER BY over strpos and the filter), totals and tabs exact, for an
// admin, a radiologist's facilities, sorted by another column; other facilities and organisations
// are never found, nor studies outside the range.
import { STUDY_STATUSES, type TModality } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/rows.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { countWorklist, listWorklist } from '../../../test/worklist-requests.ts';
import { searchModalitiesOf } from './worklist-search-modality.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const MONTH = 'date_range_type=LAST_1_MONTH';
const ALL_DATES = 'date_range_type=CUSTOM';

let server: TTestServer;
let organisationId = '';
let adminToken = '';
let radiologistToken = '';
let foreignToken = '';
let staffFacilities: string[] = [];

/**
 * Studies g (from..from+count-1) of `facility`, one every 20 minutes back from NOW (plus `back`
 * minutes): an MRI "MRI Chest" when g is a multiple of 41 (deleted when also of 3), an X-ray
 * "X-Ray Chest PA" otherwise; patient "Chesterton" when g is a multiple of 301; statuses in turn.
 */
async function seed(
  facility: Awaited<ReturnType<typeof buildFacility>>,
  from: number,
  count: number,
  back = 0,
) {
  await buildStudy(server.db, { facility, patientName: 'Seed', studyDescription: 'Seed' });
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, patient_identifier, study_description, modality, modality_group, status, created_at,
      updated_at, study_datetime)
    select ${facility.organisationId}::uuid, ${facility.id}::uuid,
      (select id from patients where facility_id = ${facility.id}::uuid limit 1), 'M' || g || '-' || ${from}::int,
      case when g % 301 = 0 then 'Chesterton Ann' else 'Patient ' || g end,
      'P' || lpad(((g * 7919) % 10007)::text, 5, '0'),
      case when g % 41 = 0 then 'MRI Chest' else 'X-Ray Chest PA' end,
      case when g % 41 = 0 then 'MR' else 'DX' end,
      (case when g % 41 = 0 then 'MRI' else 'XRAY' end)::modality_group,
      (case when g % 123 = 0 then 'DELETED'
        else (array['ORDERED','TO_READ','ASSIGNED','IN_REVIEW','DRAFTED','FINAL'])[g % 6 + 1] end)::study_status,
      ${NOW.toISOString()}::timestamptz - (g * 20 + ${back}::int) * interval '1 minute',
      ${NOW.toISOString()}::timestamptz - (g * 20 + ${back}::int) * interval '1 minute',
      ${NOW.toISOString()}::timestamptz - (g * 20 + ${back}::int + g % 89) * interval '1 minute'
    from generate_series(${from}::int, ${from + count - 1}::int) g`);
}

/**
 * 15 X-ray "X-Ray Ribs" studies of `facility`, one every 3 days back from NOW (some before the month),
 * every fifth deleted: the pair "ri" is otherwise held by the MRI studies ("MRI Chest") and a few
 * others, so an X-ray filter makes it rare.
 */
async function seedRibs(facility: Awaited<ReturnType<typeof buildFacility>>) {
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, patient_identifier, study_description, modality, modality_group, status, created_at,
      updated_at, study_datetime)
    select ${facility.organisationId}::uuid, ${facility.id}::uuid,
      (select id from patients where facility_id = ${facility.id}::uuid limit 1), 'R' || g, 'Rib Patient ' || g,
      'R' || g, 'X-Ray Ribs', 'DX', 'XRAY'::modality_group,
      (array['DELETED','TO_READ','FINAL','ORDERED','DRAFTED'])[g % 5 + 1]::study_status,
      ${NOW.toISOString()}::timestamptz - (g * 3 * 24 + 1) * interval '1 hour',
      ${NOW.toISOString()}::timestamptz - (g * 3 * 24 + 1) * interval '1 hour',
      ${NOW.toISOString()}::timestamptz - (g * 3 * 24 + 1) * interval '1 hour'
    from generate_series(0, 14) g`);
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const organisation = await buildOrganisation(server.db);
  organisationId = organisation.id;
  const [a, b, notTheirs] = [
    await buildFacility(server.db, { organisationId }),
    await buildFacility(server.db, { organisationId }),
    await buildFacility(server.db, { organisationId }),
  ];
  staffFacilities = [a.id, b.id];
  const admin = await buildUser(server.db, { role: 'ADMIN', organisationId });
  const radiologist = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [a, b] });
  const foreignFacility = await buildFacility(server.db);
  await seedingStudies(server.db, async () => {
    // 40 days of studies in each of the three (the last 10 outside the month), and in another
    // organisation the same texts.
    await seed(a, 1, 2_900);
    await seed(b, 5_001, 2_900, 7);
    await seed(notTheirs, 10_001, 2_900, 3);
    await seed(foreignFacility, 1, 900);
    for (const facility of [a, b, notTheirs, foreignFacility]) await seedRibs(facility);
  });
  const foreign = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [foreignFacility] });
  adminToken = await tokenFor(server, admin);
  radiologistToken = await tokenFor(server, radiologist);
  foreignToken = await tokenFor(server, foreign);
  // The index's statistics decide (the key frequencies of migration 0041's expression).
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

type TOracleOptions = {
  facilities?: string[];
  allDates?: boolean;
  by?: string;
  asc?: boolean;
  deleted?: boolean;
};

/** The oracle: the organisation's (or `facilities`') studies of the group holding the text, in order. */
async function oracle(text: string, modality: TModality, options: TOracleOptions = {}) {
  const direction = sql.raw(options.asc ? 'asc' : 'desc');
  const by = sql.raw(options.by ?? 'created_at');
  const within = options.facilities
    ? sql`facility_id in (${sql.join(
        options.facilities.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`
    : sql`true`;
  return queryRows<{ id: string; status: string }>(
    server.db,
    sql`select id, status::text as status from studies
      where organisation_id = ${organisationId}::uuid and ${within}
        and modality_group = ${modality}::modality_group
        and (${options.deleted === true} or status <> 'DELETED')
        and created_at >= ${options.allDates ? '-infinity' : new Date(NOW.getTime() - 30 * 86_400_000).toISOString()}::timestamptz
        and strpos(search_text, lower(ris_unaccent(${text}))) > 0
      order by ${by} ${direction}, id ${direction}`,
  );
}

const list = (token: string, query: string) => listWorklist(server, token, query);
const counts = (token: string, query: string) => countWorklist(server, token, query);

const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

describe('the modality-keyed index for a text the filter makes rare', () => {
  it('is chosen from the index statistics for MRI, not for X-ray nor without keys', async () => {
    const chosen = (modalities: TModality[], searchText = 'chest', facilityCount: number | null = null) =>
      searchModalitiesOf(server.db, { searchText, modalities, organisationId, facilityCount });
    expect(await chosen(['MRI'])).toEqual(['MRI']);
    expect(await chosen(['MRI'], 'chest', 2)).toEqual(['MRI']);
    expect(await chosen(['XRAY'])).toBeNull();
    expect(await chosen(['MRI', 'XRAY'])).toBeNull();
    expect(await chosen([])).toBeNull();
  });

  it('lists an admin’s MRI "chest" exactly as the oracle, over a month and all dates', async () => {
    for (const [range, allDates] of [
      [MONTH, false],
      [ALL_DATES, true],
    ] as const) {
      const want = await oracle('chest', 'MRI', { allDates });
      expect(want.length).toBeGreaterThan(30);
      const page = await list(adminToken, `${range}&modalities=MRI&search=chest&limit=25&offset=10`);
      expect(ids(page.items)).toEqual(ids(want.slice(10, 35)));
      expect({ total: page.total, capped: page.total_capped }).toEqual({ total: want.length, capped: false });
      const byName = await list(
        adminToken,
        `${range}&modalities=MRI&search=CHEST&sort_by=patient_name&sort_order=asc`,
      );
      expect(ids(byName.items)).toEqual(
        ids((await oracle('chest', 'MRI', { allDates, by: 'patient_name', asc: true })).slice(0, 10)),
      );
    }
    const past = await list(adminToken, `${ALL_DATES}&modalities=MRI&search=chest&offset=5000`);
    expect({ items: past.items.length, total: past.total }).toEqual({
      items: 0,
      total: (await oracle('chest', 'MRI', { allDates: true })).length,
    });
  });

  it('counts an admin’s tabs exactly, deleted studies too', async () => {
    const want = await oracle('chest', 'MRI', { allDates: true, deleted: true });
    const tabs = await counts(adminToken, `${ALL_DATES}&modalities=MRI&search=chest`);
    expect(tabs.capped).toBe(false);
    for (const status of STUDY_STATUSES) {
      expect(tabs.statuses[status], status).toBe(want.filter((row) => row.status === status).length);
    }
    expect(tabs.statuses.DELETED).toBeGreaterThan(0);
    // A text only a patient name holds, within MRI: none of the seeded MRI studies.
    const none = await counts(adminToken, `${ALL_DATES}&modalities=MRI&search=chesterton`);
    expect(none.groups.ALL).toBe((await oracle('chesterton', 'MRI', { allDates: true })).length);
  });

  it('keeps a radiologist within their facilities, and another organisation within its own', async () => {
    const want = await oracle('chest', 'MRI', { facilities: staffFacilities, allDates: true });
    const page = await list(radiologistToken, `${ALL_DATES}&modalities=MRI&search=chest&limit=100`);
    expect(ids(page.items)).toEqual(ids(want.slice(0, 100)));
    expect(page.total).toBe(want.length);
    const tabs = await counts(radiologistToken, `${MONTH}&modalities=MRI&search=chest`);
    expect(tabs.groups.ALL).toBe((await oracle('chest', 'MRI', { facilities: staffFacilities })).length);
    const foreign = await list(foreignToken, `${ALL_DATES}&modalities=MRI&search=chest&limit=100`);
    expect(foreign.total).toBe(Math.floor(900 / 41) - Math.floor(900 / 123));
    expect(foreign.items.every((item) => !ids(want).includes(item.id))).toBe(true);
  });

  it('lists X-ray "chest" (the filter keeps it common) as the oracle too', async () => {
    const want = await oracle('chest', 'XRAY');
    const page = await list(adminToken, `${MONTH}&modalities=XRAY&search=chest&limit=25`);
    expect(ids(page.items)).toEqual(ids(want.slice(0, 25)));
  });
});

describe('the modality-keyed pairs for a text without trigram keys', () => {
  it('are chosen for X-ray "ri" (the MRI studies hold it), not for MRI nor a single letter', async () => {
    const chosen = (modalities: TModality[], searchText: string, facilityCount: number | null = null) =>
      searchModalitiesOf(server.db, { searchText, modalities, organisationId, facilityCount });
    expect(await chosen(['XRAY'], 'ri')).toEqual(['XRAY']);
    expect(await chosen(['XRAY'], 'RI', 2)).toEqual(['XRAY']);
    expect(await chosen(['MRI'], 'ri')).toBeNull();
    expect(await chosen(['XRAY'], 'r')).toBeNull();
  });

  it('lists and counts an admin’s X-ray "ri" exactly as the oracle, in any sort', async () => {
    for (const [range, allDates] of [
      [MONTH, false],
      [ALL_DATES, true],
    ] as const) {
      const want = await oracle('ri', 'XRAY', { allDates });
      expect(want.length).toBeGreaterThan(20);
      const page = await list(adminToken, `${range}&modalities=XRAY&search=ri&limit=10&offset=5`);
      expect(ids(page.items)).toEqual(ids(want.slice(5, 15)));
      expect({ total: page.total, capped: page.total_capped }).toEqual({ total: want.length, capped: false });
      const byName = await list(
        adminToken,
        `${range}&modalities=XRAY&search=Ri&sort_by=patient_name&sort_order=asc`,
      );
      expect(ids(byName.items)).toEqual(
        ids((await oracle('ri', 'XRAY', { allDates, by: 'patient_name', asc: true })).slice(0, 10)),
      );
      const withDeleted = await oracle('ri', 'XRAY', { allDates, deleted: true });
      const tabs = await counts(adminToken, `${range}&modalities=XRAY&search=ri`);
      expect({ capped: tabs.capped, deletedCapped: tabs.deleted_capped }).toEqual({
        capped: false,
        deletedCapped: false,
      });
      for (const status of STUDY_STATUSES) {
        expect(tabs.statuses[status], status).toBe(withDeleted.filter((row) => row.status === status).length);
      }
      expect(tabs.statuses.DELETED).toBeGreaterThan(0);
    }
  });

  it('keeps a radiologist within their facilities, and another organisation within its own', async () => {
    const want = await oracle('ri', 'XRAY', { facilities: staffFacilities, allDates: true });
    const page = await list(radiologistToken, `${ALL_DATES}&modalities=XRAY&search=ri&limit=100`);
    expect(ids(page.items)).toEqual(ids(want));
    expect(page.total).toBe(want.length);
    const tabs = await counts(radiologistToken, `${ALL_DATES}&modalities=XRAY&search=ri`);
    expect(tabs.groups.ALL).toBe(want.length);
    expect(tabs.statuses.DELETED).toBe(0);
    const foreign = await list(foreignToken, `${ALL_DATES}&modalities=XRAY&search=ri&limit=100`);
    expect(foreign.total).toBe(12);
    expect(foreign.items.every((item) => !ids(want).includes(item.id))).toBe(true);
  });
});
