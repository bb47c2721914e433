// GET /worklist and /worklist/status/count for a text many of a staff member's studies hold
// (worklist-dense-search.ts): the range walked in arrival order, each text tested, counted up to the
// cap. Pages must be the oracle's (ORDER BY created_at, id over strpos), totals exact under the cap
// and "1,000+" past it, for a radiologist's facilities, a reporter's own studies and a status tab;
// a rare text keeps its exact keyed count; other facilities and organisations are never found.
import {
  WORKLIST_SEARCH_COUNT_CAP,
  type TWorklistListResponse,
  type TWorklistStatusCounts,
} from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/rows.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
/** Studies of the staff's two facilities, one every 3 minutes back from NOW (9 days). */
const STUDIES = 4_400;
const RANGE = 'date_range_type=LAST_1_MONTH';

let server: TTestServer;
let radiologistToken = '';
let reporterToken = '';
let foreignToken = '';
let reporterId = '';
let staffFacilities: string[] = [];

/**
 * Study g (1..count) of `facility`: arrived g × 3 minutes before NOW (plus `back`), its description
 * "CT Brain" when g is a multiple of 3, "MR Knee" otherwise; its patient "Ortiz" when g is a multiple
 * of 7, "Zelda" of 500, else "Patient g"; assigned to `assignee` when given; statuses in turn.
 */
async function seed(
  facility: Awaited<ReturnType<typeof buildFacility>>,
  from: number,
  count: number,
  back = 0,
  assignee?: string,
) {
  const db = server.db;
  await buildStudy(db, {
    facility,
    patientName: 'Seed',
    studyDescription: 'Seed',
    createdAt: new Date(NOW.getTime() - 200 * 86_400_000),
  });
  await db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, patient_identifier, study_description, status, last_assigned_user_id, created_at, updated_at,
      study_datetime)
    select ${facility.organisationId}::uuid, ${facility.id}::uuid,
      (select id from patients where facility_id = ${facility.id}::uuid limit 1), 'D' || g || '-' || ${from}::int,
      case when g % 500 = 0 then 'Zelda Quist' when g % 7 = 0 then 'Ortiz Luz' else 'Patient ' || g end,
      'P' || lpad(((g * 7919) % 10007)::text, 5, '0'),
      case when g % 3 = 0 then 'CT Brain' else 'MR Knee' end,
      (array['TO_READ','ASSIGNED','IN_REVIEW','DRAFTED','FINAL'])[g % 5 + 1]::study_status,
      ${assignee ?? null}::uuid,
      ${NOW.toISOString()}::timestamptz - (g * 3 + ${back}::int) * interval '1 minute',
      ${NOW.toISOString()}::timestamptz - (g * 3 + ${back}::int) * interval '1 minute',
      ${NOW.toISOString()}::timestamptz - (g * 3 + ${back}::int + g % 97) * interval '1 minute'
    from generate_series(${from}::int, ${from + count - 1}::int) g`);
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const organisation = await buildOrganisation(server.db);
  const organisationId = organisation.id;
  const [a, b, notTheirs] = [
    await buildFacility(server.db, { organisationId }),
    await buildFacility(server.db, { organisationId }),
    await buildFacility(server.db, { organisationId }),
  ];
  staffFacilities = [a.id, b.id];
  const radiologist = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [a, b] });
  const reporter = await buildUser(server.db, {
    role: 'RADIOLOGIST',
    userType: 'REPORTER',
    facilities: [a, b],
  });
  reporterId = reporter.id;
  const foreignFacility = await buildFacility(server.db);
  // Even studies in a (all the reporter's: more than SEARCH_IN_RANGE_AT_MOST), odd ones in b.
  await seedingStudies(server.db, async () => {
    await seed(a, 1, STUDIES / 2, 0, reporter.id);
    await seed(b, STUDIES / 2 + 1, STUDIES / 2, 1);
    // The same texts in a facility of the organisation that is not theirs, in another organisation,
    // and in theirs 40 days ago (outside the range): never found.
    await seed(notTheirs, 1, 300);
    await seed(a, STUDIES + 1, 300, 40 * 24 * 60, reporter.id);
    await seed(foreignFacility, 1, 300);
  });
  const foreign = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [foreignFacility] });
  radiologistToken = await tokenFor(server, radiologist);
  reporterToken = await tokenFor(server, reporter);
  foreignToken = await tokenFor(server, foreign);
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

/** The oracle: the caller's listed studies of the last month holding the text, in arrival order. */
async function oracle(
  text: string,
  options: { own?: boolean; statuses?: string[]; asc?: boolean; allDates?: boolean; by?: string } = {},
) {
  const direction = sql.raw(options.asc ? 'asc' : 'desc');
  const by = sql.raw(options.by ?? 'created_at');
  const statuses = options.statuses ?? ['ORDERED', 'TO_READ', 'ASSIGNED', 'IN_REVIEW', 'DRAFTED', 'FINAL'];
  const rows = await queryRows<{ id: string; status: string }>(
    server.db,
    sql`select id, status::text as status from studies
      where facility_id in (${sql.join(
        staffFacilities.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}) and status::text in (${sql.join(
        statuses.map((status) => sql`${status}`),
        sql`, `,
      )})
        and created_at >= ${options.allDates ? '-infinity' : new Date(NOW.getTime() - 30 * 86_400_000).toISOString()}::timestamptz
        and ${options.own ? sql`last_assigned_user_id = ${reporterId}::uuid` : sql`true`}
        and strpos(search_text, lower(ris_unaccent(${text}))) > 0
      order by ${by} ${direction}, id ${direction}`,
  );
  return rows;
}

async function list(token: string, text: string, query = '', range = RANGE) {
  const path = `/api/v1/worklist?${range}&search=${encodeURIComponent(text)}${query}`;
  const response = await server.request('GET', path, { token });
  expect(response.status, response.text).toBe(200);
  return response.json as TWorklistListResponse;
}

async function counts(token: string, text: string) {
  const path = `/api/v1/worklist/status/count?${RANGE}&search=${encodeURIComponent(text)}`;
  const response = await server.request('GET', path, { token });
  expect(response.status, response.text).toBe(200);
  return response.json as TWorklistStatusCounts;
}

describe('GET /worklist search of a text many studies hold', () => {
  it('walks a radiologist’s facilities: the oracle’s pages, the total capped at 1,000+', async () => {
    const want = await oracle('brain');
    expect(want.length).toBeGreaterThan(WORKLIST_SEARCH_COUNT_CAP);
    const first = await list(radiologistToken, 'brain', '&limit=25');
    expect(first.items.map((item) => item.id)).toEqual(want.slice(0, 25).map((row) => row.id));
    expect({ total: first.total, capped: first.total_capped }).toEqual({
      total: WORKLIST_SEARCH_COUNT_CAP,
      capped: true,
    });
    // A page across the cap: its rows are still the oracle's, and the total says at least its end.
    const across = await list(radiologistToken, 'brain', '&limit=50&offset=975');
    expect(across.items.map((item) => item.id)).toEqual(want.slice(975, 1025).map((row) => row.id));
    expect({ total: across.total, capped: across.total_capped }).toEqual({ total: 1026, capped: true });
    const oldest = await list(radiologistToken, 'brain', '&limit=25&sort_order=asc');
    const ascending = await oracle('brain', { asc: true });
    expect(oldest.items.map((item) => item.id)).toEqual(ascending.slice(0, 25).map((row) => row.id));
  });

  it('counts exactly what the walk reads whole, and a status tab walks its own index', async () => {
    const want = await oracle('ortiz');
    expect(want.length).toBeLessThan(WORKLIST_SEARCH_COUNT_CAP);
    const page = await list(radiologistToken, 'ortiz', '&limit=100&offset=20');
    expect(page.items.map((item) => item.id)).toEqual(want.slice(20, 120).map((row) => row.id));
    expect({ total: page.total, capped: page.total_capped }).toEqual({ total: want.length, capped: false });
    const finals = await oracle('brain', { statuses: ['FINAL'] });
    const tab = await list(radiologistToken, 'brain', '&limit=25&statuses=FINAL');
    expect(tab.items.map((item) => item.id)).toEqual(finals.slice(0, 25).map((row) => row.id));
    expect(tab.total).toBe(finals.length);
  });

  it('walks a reporter’s own studies, counted exactly under the cap', async () => {
    const want = await oracle('brain', { own: true });
    expect(want.length).toBeLessThan(WORKLIST_SEARCH_COUNT_CAP);
    const page = await list(reporterToken, 'brain', '&limit=25&offset=700');
    expect(page.items.map((item) => item.id)).toEqual(want.slice(700, 725).map((row) => row.id));
    expect({ total: page.total, capped: page.total_capped }).toEqual({ total: want.length, capped: false });
    const tabs = await counts(reporterToken, 'brain');
    expect({ all: tabs.groups.ALL, capped: tabs.capped }).toEqual({ all: want.length, capped: false });
    const knee = await list(reporterToken, 'knee', '&limit=25');
    const kneeWant = await oracle('knee', { own: true });
    expect(knee.items.map((item) => item.id)).toEqual(kneeWant.slice(0, 25).map((row) => row.id));
    expect({ total: knee.total, capped: knee.total_capped }).toEqual({ total: 1000, capped: true });
  });

  it('counts the tabs up to the cap, each status a lower bound of the oracle’s', async () => {
    const want = await oracle('brain');
    const tabs = await counts(radiologistToken, 'brain');
    expect(tabs.capped).toBe(true);
    expect(tabs.groups.ALL).toBe(WORKLIST_SEARCH_COUNT_CAP + 1);
    for (const status of ['TO_READ', 'ASSIGNED', 'IN_REVIEW', 'DRAFTED', 'FINAL'] as const) {
      const exact = want.filter((row) => row.status === status).length;
      expect(tabs.statuses[status]).toBeGreaterThan(0);
      expect(tabs.statuses[status]).toBeLessThanOrEqual(exact);
    }
    const ortiz = await counts(radiologistToken, 'ortiz');
    expect({ all: ortiz.groups.ALL, capped: ortiz.capped }).toEqual({
      all: (await oracle('ortiz')).length,
      capped: false,
    });
  });

  it('over all dates, walks the newest month and leaves a text that runs out there to the keys', async () => {
    const allDates = 'date_range_type=CUSTOM';
    const brain = await list(radiologistToken, 'brain', '&limit=25', allDates);
    const want = await oracle('brain', { allDates: true });
    expect(brain.items.map((item) => item.id)).toEqual(want.slice(0, 25).map((row) => row.id));
    expect({ total: brain.total, capped: brain.total_capped }).toEqual({ total: 1000, capped: true });
    // Ortiz: dense in the newest days, fewer than the cap there, more 40 days back: counted exactly.
    const ortiz = await list(radiologistToken, 'ortiz', '&limit=25&offset=620', allDates);
    const ortizWant = await oracle('ortiz', { allDates: true });
    expect(ortizWant.length).toBeGreaterThan((await oracle('ortiz')).length);
    expect(ortiz.items.map((item) => item.id)).toEqual(ortizWant.slice(620, 645).map((row) => row.id));
    expect({ total: ortiz.total, capped: ortiz.total_capped }).toEqual({
      total: ortizWant.length,
      capped: false,
    });
  });

  it('walks a text without trigram keys over all dates, as densely as one with them', async () => {
    // "ct" (of "CT Brain"): no three ASCII letters or digits in a row; one study in three holds it.
    const want = await oracle('ct', { allDates: true });
    expect(want.length).toBeGreaterThan(WORKLIST_SEARCH_COUNT_CAP);
    const page = await list(radiologistToken, 'ct', '&limit=25&offset=40', 'date_range_type=CUSTOM');
    expect(page.items.map((item) => item.id)).toEqual(want.slice(40, 65).map((row) => row.id));
    expect({ total: page.total, capped: page.total_capped }).toEqual({ total: 1000, capped: true });
    const response = await server.request(
      'GET',
      '/api/v1/worklist/status/count?date_range_type=CUSTOM&search=ct',
      {
        token: reporterToken,
      },
    );
    const tabs = response.json as TWorklistStatusCounts;
    const own = await oracle('ct', { allDates: true, own: true });
    expect({ all: tabs.groups.ALL, capped: tabs.capped }).toEqual(
      own.length > WORKLIST_SEARCH_COUNT_CAP
        ? { all: WORKLIST_SEARCH_COUNT_CAP + 1, capped: true }
        : { all: own.length, capped: false },
    );
  });

  it('walks oldest first from the organisation’s first arrival when the range has no start', async () => {
    // The first arrivals (the seed studies, 200 days ago) hold no "brain": the walk of their month
    // runs out and the keys count it, exactly, in the same order.
    const want = await oracle('brain', { asc: true, allDates: true });
    const page = await list(
      radiologistToken,
      'brain',
      '&limit=25&offset=30&sort_order=asc',
      'date_range_type=CUSTOM',
    );
    expect(page.items.map((item) => item.id)).toEqual(want.slice(30, 55).map((row) => row.id));
    expect(page.total).toBe(page.total_capped ? WORKLIST_SEARCH_COUNT_CAP : want.length);
  });

  it('sorted by another column: counted up to the cap, the page from the column’s sort index', async () => {
    const byName = await list(
      radiologistToken,
      'brain',
      '&limit=25&offset=50&sort_by=patient_name&sort_order=asc',
    );
    const names = await oracle('brain', { by: 'patient_name', asc: true });
    expect(byName.items.map((item) => item.id)).toEqual(names.slice(50, 75).map((row) => row.id));
    expect({ total: byName.total, capped: byName.total_capped }).toEqual({ total: 1000, capped: true });
    const byDate = await list(reporterToken, 'knee', '&limit=25&sort_by=datetime&sort_order=desc');
    const dates = await oracle('knee', { by: 'study_datetime', own: true });
    expect(byDate.items.map((item) => item.id)).toEqual(dates.slice(0, 25).map((row) => row.id));
    expect({ total: byDate.total, capped: byDate.total_capped }).toEqual({ total: 1000, capped: true });
    // Under the cap: every match collected and sorted, the total exact.
    const ortiz = await list(radiologistToken, 'ortiz', '&limit=25&sort_by=patient_id&sort_order=desc');
    const ids = await oracle('ortiz', { by: 'patient_identifier' });
    expect(ortiz.items.map((item) => item.id)).toEqual(ids.slice(0, 25).map((row) => row.id));
    expect({ total: ortiz.total, capped: ortiz.total_capped }).toEqual({ total: ids.length, capped: false });
  });

  it('keeps a rare text’s exact keyed count, and finds nothing of another organisation', async () => {
    const want = await oracle('zelda');
    expect(want.length).toBeGreaterThan(0);
    const page = await list(radiologistToken, 'zelda', '&limit=25');
    expect(page.items.map((item) => item.id)).toEqual(want.map((row) => row.id));
    expect({ total: page.total, capped: page.total_capped }).toEqual({ total: want.length, capped: false });
    const foreign = await list(foreignToken, 'brain', '&limit=25');
    expect(foreign.items.some((item) => staffFacilities.includes(item.facility_fk))).toBe(false);
    expect({ total: foreign.total, capped: foreign.total_capped }).toEqual({ total: 100, capped: false });
  });
});
