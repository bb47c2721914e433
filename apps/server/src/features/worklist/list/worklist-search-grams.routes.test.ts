// GET /worklist and /worklist/status/count for an identifier's text (worklist-search-grams.ts): an
// archive numbering its patients "MRN0000001" and its accessions "A000000001" puts each trigram of
// "mrn0000" in most studies, and the digit-gram index (migration 0046) finds the text's few. Whichever
// index serves, pages must be the oracle's (ORDER BY over strpos), totals and tabs exact, for an
// admin, a radiologist's facilities, sorted by another column, over a short range; a study holding
// each gram but not the text is never listed, nor another facility's or organisation's.
import { STUDY_STATUSES } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScope } from '../../../access/scope.ts';
import type { TPrincipal } from '../../../auth/principal.ts';
import { queryRows } from '../../../db/rows.ts';
import { adminPrincipal, tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { worklistFiltersOf } from '../../../test/worklist-criteria.ts';
import { countWorklist, expectListedPage, listWorklist } from '../../../test/worklist-requests.ts';
import { resolveWorklistCriteria } from './worklist-criteria.ts';
import { coveringDigitGramsOf, digitGramsOf, fewDigitGramsOf } from './worklist-search-grams.ts';
import { collectedByGrams } from './worklist-search-text.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const ALL_DATES = 'date_range_type=CUSTOM';
const MONTH = 'date_range_type=LAST_1_MONTH';
const TODAY = 'date_range_type=TODAY';

let server: TTestServer;
let organisationId = '';
let adminToken = '';
let admin: TPrincipal;
let radiologistToken = '';
let foreignToken = '';
let staffFacilities: string[] = [];

/**
 * Studies g (from..from+count-1) of `facility`, one every 15 minutes back from NOW (`daysBack` days before it): patient
 * "MRN" + 7 digits of one of 3,000 patients, accession "A" + 9 digits of g, statuses in turn (every
 * 97th deleted).
 */
async function seed(
  facility: Awaited<ReturnType<typeof buildFacility>>,
  from: number,
  count: number,
  daysBack = 0,
) {
  const start = new Date(NOW.getTime() - daysBack * 86_400_000).toISOString();
  await buildStudy(server.db, { facility, patientName: 'Seed', studyDescription: 'Seed' });
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, patient_identifier, study_description, modality, modality_group, status, created_at,
      updated_at, study_datetime)
    select ${facility.organisationId}::uuid, ${facility.id}::uuid,
      (select id from patients where facility_id = ${facility.id}::uuid limit 1), 'A' || lpad(g::text, 9, '0'),
      'Patient ' || (g * 7) % 13, 'MRN' || lpad(((g * 7919) % 3001)::text, 7, '0'), 'CT Brain Plain', 'CT',
      'CT'::modality_group,
      (case when g % 97 = 0 then 'DELETED'
        else (array['ORDERED','TO_READ','ASSIGNED','IN_REVIEW','DRAFTED','FINAL'])[g % 6 + 1] end)::study_status,
      ${start}::timestamptz - ((g - ${from}::int) * 15) * interval '1 minute',
      ${start}::timestamptz - ((g - ${from}::int) * 15) * interval '1 minute',
      ${start}::timestamptz - ((g - ${from}::int) * 15 + g % 89) * interval '1 minute'
    from generate_series(${from}::int, ${from + count - 1}::int) g`);
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
  const adminUser = await buildUser(server.db, { role: 'ADMIN', organisationId });
  const radiologist = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [a, b] });
  const foreignFacility = await buildFacility(server.db);
  await seedingStudies(server.db, async () => {
    // 62 days of studies in the first facility (every accession holds "a00000"), 10 in the two others,
    // and in another organisation the same identifiers.
    await seed(a, 1, 6_000);
    await seed(b, 10_001, 1_000);
    await seed(notTheirs, 20_001, 1_000);
    await seed(foreignFacility, 1, 1_000);
    // 73 days of older studies, 100 days back and more, whose accessions alone hold "a0001".
    await seed(a, 100_001, 7_000, 100);
    // Each of the grams of "a12345" but not the text: found by the index, dropped by the substring test.
    await buildStudy(server.db, { facility: a, patientIdentifier: 'A1234X12345', createdAt: NOW });
    await buildStudy(server.db, { facility: a, patientIdentifier: 'A12345', createdAt: NOW });
  });
  const foreign = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [foreignFacility] });
  adminToken = await tokenFor(server, adminUser);
  admin = adminPrincipal(adminUser, organisationId);
  radiologistToken = await tokenFor(server, radiologist);
  foreignToken = await tokenFor(server, foreign);
  // The index's statistics decide (the grams' frequencies of migration 0046's expression).
  await server.db.execute(sql`analyze studies`);
}, 120_000);

afterAll(async () => server.close());

type TOracleOptions = { facilities?: string[]; from?: string; by?: string; asc?: boolean; deleted?: boolean };

/** The oracle: the organisation's (or `facilities`') studies holding the text, in order. */
async function oracle(text: string, options: TOracleOptions = {}) {
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
        and (${options.deleted === true} or status <> 'DELETED')
        and created_at >= ${options.from ?? '-infinity'}::timestamptz
        and strpos(search_text, lower(ris_unaccent(${text}))) > 0
      order by ${by} ${direction}, id ${direction}`,
  );
}

const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);
const grams = async (query: string) => {
  const filters = worklistFiltersOf(query);
  return (await resolveWorklistCriteria(server.db, await loadScope(server.db, admin), filters, NOW))
    .searchGrams;
};

describe('the digit-gram index for an identifier', () => {
  it('makes a text’s grams within its words, as PostgreSQL makes a study’s', async () => {
    expect(digitGramsOf('mrn0000 a12')).toEqual(['mrn00', 'n0000', 'rn000']);
    expect(digitGramsOf('ct brain')).toEqual([]);
    const text = 'zoë mrn0001234 a000000042 ct,x1 ab(12)[3]';
    const [row] = await queryRows<{ grams: string[] }>(
      server.db,
      sql`select ris_search_digit_grams(${text}) as grams`,
    );
    expect([...(row?.grams ?? [])].sort()).toEqual(digitGramsOf(text));
  });

  it('keys the week-keyed index by the digit grams too, a study’s and a searched text’s', async () => {
    const [row] = await queryRows<{ study: string[]; query: string[] }>(
      server.db,
      sql`select ris_search_week_keys('ann mrn0001234 ct', ${NOW.toISOString()}::timestamptz) as study,
        ris_search_query_keys('MRN0001 ct', 7) as query`,
    );
    const week = Math.floor(NOW.getTime() / (7 * 86_400_000));
    expect(row?.study).toEqual(expect.arrayContaining([`${week}:mrn00`, `${week}:01234`, `${week}:ann`]));
    expect([...(row?.query ?? [])].sort()).toEqual(
      ['7:mrn', '7:rn0', '7:n00', '7:000', '7:001', '7:mrn00', '7:rn000', '7:n0001'].sort(),
    );
  });

  it('finds an identifier many studies hold by the week keys, as the oracle', async () => {
    // Every accession of the first facility and the other organisation (g < 10,000) holds "a00000".
    expect(await grams(`${MONTH}&search=a00000`)).toBeNull();
    const from = new Date(NOW.getTime() - 30 * 86_400_000).toISOString();
    const want = ids(await oracle('a00000', { from }));
    expect(want.length).toBeGreaterThan(1_000);
    await expectListedPage(server, adminToken, `${MONTH}&search=a00000&limit=25&offset=50`, want, 'capped');
    // The first facility's week: 672 studies (the others' accessions do not hold the text).
    const lastWeek = 'date_range_type=LAST_1_WEEK';
    expect(await grams(`${lastWeek}&search=A00000`)).toBeNull();
    const week = ids(
      await oracle('A00000', { from: new Date(NOW.getTime() - 7 * 86_400_000).toISOString() }),
    );
    expect(week.length).toBeGreaterThan(600);
    await expectListedPage(
      server,
      adminToken,
      `${lastWeek}&search=A00000&limit=25&offset=600`,
      week,
      'exact',
    );
    const tabs = await countWorklist(server, adminToken, `${MONTH}&search=a00000`);
    expect(tabs.capped).toBe(true);
  });

  it('is chosen for a prefix or a whole identifier few studies hold, not for a common one', async () => {
    expect(await fewDigitGramsOf(server.db, 'mrn00012')).not.toBeNull();
    expect(await fewDigitGramsOf(server.db, 'a000000042')).not.toBeNull();
    // Every study's MRN begins "mrn000", and a text without five characters holding a digit has no gram.
    expect(await fewDigitGramsOf(server.db, 'mrn000')).toBeNull();
    expect(await fewDigitGramsOf(server.db, 'a00')).toBeNull();
    expect(await grams(`${ALL_DATES}&search=MRN00012`)).toEqual(['00012', 'mrn00', 'n0001', 'rn000']);
    // Today's studies are fewer than the text's candidates: they are tested instead.
    expect(await grams(`${TODAY}&search=MRN00012`)).toBeNull();
  });

  it('lists an admin’s identifier exactly as the oracle, in any sort and range', async () => {
    for (const [range, from] of [
      [ALL_DATES, undefined],
      [MONTH, new Date(NOW.getTime() - 30 * 86_400_000).toISOString()],
    ] as const) {
      for (const text of ['MRN00012', 'a0000005', '000042 ct', '0012 ct']) {
        const found = await grams(`${range}&search=${encodeURIComponent(text)}`);
        expect({ text, found: found !== null }).toEqual({ text, found: text !== '0012 ct' });
        const want = await oracle(text, { from });
        expect(want.length, text).toBeGreaterThan(0);
        const query = `${range}&search=${encodeURIComponent(text)}&limit=25&offset=5`;
        const page = await listWorklist(server, adminToken, query);
        expect(ids(page.items), query).toEqual(ids(want.slice(5, 30)));
        expect({ total: page.total, capped: page.total_capped }).toEqual({
          total: want.length,
          capped: false,
        });
      }
      const byStatus = await listWorklist(
        server,
        adminToken,
        `${range}&search=mrn00012&sort_by=patient_id&sort_order=asc&limit=50`,
      );
      expect(ids(byStatus.items)).toEqual(
        ids((await oracle('mrn00012', { from, by: 'patient_identifier', asc: true })).slice(0, 50)),
      );
    }
    const exact = await listWorklist(server, adminToken, `${ALL_DATES}&search=a12345`);
    expect(exact.items.map((item) => item.patient_id)).toEqual(['A12345']);
  });

  it('collects a common identifier its grams cover by them, sorted by another column, as the oracle', async () => {
    // One word, each character in one of its grams: "a00000" (7,000 accessions hold it), "mrn000"
    // (every MRN); not "smith1" ("s" is in no gram), "x1abcdefgh" ("fgh"), "a000" (no gram), nor
    // several words.
    expect(coveringDigitGramsOf('a00000')).toEqual(['00000', 'a0000']);
    expect(coveringDigitGramsOf('mrn000')).toEqual(['mrn00', 'rn000']);
    expect(coveringDigitGramsOf('x1abcdefg2')).toEqual(digitGramsOf('x1abcdefg2'));
    for (const text of ['smith1', 'x1abcdefgh', 'a000', 'a00000 a00000', 'ct a00000']) {
      expect(coveringDigitGramsOf(text), text).toBeNull();
    }
    const collected = async (query: string, principal: TPrincipal = admin) => {
      const filters = worklistFiltersOf(query);
      const criteria = await resolveWorklistCriteria(
        server.db,
        await loadScope(server.db, principal),
        filters,
        NOW,
      );
      return (await collectedByGrams(server.db, criteria)).searchGrams;
    };
    // Over all dates the plain trigram index would find it: its grams do. Over a month, the week keys
    // (which hold the grams) still do.
    expect(await collected(`${ALL_DATES}&search=A0001`)).toEqual(['a0001']);
    expect(await collected(`${ALL_DATES}&search=MRN000`)).toEqual(['mrn00', 'rn000']);
    expect(await collected(`${ALL_DATES}&search=patient%201`)).toBeNull();
    expect(await collected(`${MONTH}&search=A0001`)).toBeNull();
    for (const [by, asc, offset] of [
      ['datetime', false, 0],
      ['datetime', true, 975],
      ['updated_at', false, 300],
      ['study', true, 25],
    ] as const) {
      const query = `${ALL_DATES}&search=A0001&sort_by=${by}&sort_order=${asc ? 'asc' : 'desc'}&limit=25&offset=${offset}`;
      const want = await oracle('A0001', {
        by: by === 'datetime' ? 'study_datetime' : by === 'study' ? 'study_description' : by,
        asc,
      });
      expect(want.length).toBeGreaterThan(5_000);
      const page = await listWorklist(server, adminToken, query);
      expect(ids(page.items), query).toEqual(ids(want.slice(offset, offset + 25)));
    }
  });

  it('counts an admin’s tabs exactly, deleted studies too', async () => {
    const want = await oracle('mrn00012', { deleted: true });
    const tabs = await countWorklist(server, adminToken, `${ALL_DATES}&search=mrn00012`);
    expect({ capped: tabs.capped, deleted: tabs.deleted_capped }).toEqual({ capped: false, deleted: false });
    for (const status of STUDY_STATUSES) {
      expect(tabs.statuses[status], status).toBe(want.filter((row) => row.status === status).length);
    }
    expect(tabs.statuses.DELETED).toBeGreaterThan(0);
  });

  it('keeps a radiologist within their facilities, and another organisation within its own', async () => {
    const want = await oracle('mrn00012', { facilities: staffFacilities });
    const page = await listWorklist(server, radiologistToken, `${ALL_DATES}&search=mrn00012&limit=100`);
    expect(ids(page.items)).toEqual(ids(want.slice(0, 100)));
    expect(page.total).toBe(want.length);
    const tabs = await countWorklist(server, radiologistToken, `${ALL_DATES}&search=mrn00012`);
    expect(tabs.groups.ALL).toBe(want.length);
    expect(tabs.statuses.DELETED).toBe(0);
    const foreign = await listWorklist(server, foreignToken, `${ALL_DATES}&search=mrn00012&limit=100`);
    expect(foreign.total).toBeGreaterThan(0);
    expect(foreign.items.every((item) => !ids(want).includes(item.id))).toBe(true);
    const notTheirs = await server.request(
      'GET',
      `/api/v1/worklist?${ALL_DATES}&search=mrn00012&facility_ids=${staffFacilities[0] ?? ''}`,
      { token: foreignToken },
    );
    expect(notTheirs.status).toBe(404);
  });
});
