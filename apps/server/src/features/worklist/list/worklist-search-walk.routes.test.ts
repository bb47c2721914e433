// A worklist search over all dates (or many weeks) of the whole organisation is walked newest first
// in runs of weeks and counted up to WORKLIST_SEARCH_COUNT_CAP (worklist-search-walk.ts). Every page
// must be exactly the page ORDER BY created_at, id … LIMIT … OFFSET gives over the matches, before,
// across and past the cap, both ways; the total exact (total_capped false) when the walk read every
// week, else the cap or one past the page as a lower bound; nothing of another organisation.
import {
  STUDY_STATUSES,
  WORKLIST_SEARCH_COUNT_CAP,
  type TStudyStatus,
  type TWorklistListResponse,
  type TWorklistStatusCounts,
} from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/rows.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildPatient, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { referringPhysicians } from '../../../db/schema/index.ts';
import { SEARCH_IN_RANGE_AT_MOST } from './worklist-search-in-range.ts';

/** Studies 75 minutes apart (every third shares the time of the one before): 19 weeks of them. */
const STUDIES = 2_600;
const NOW = new Date('2026-11-19T12:00:00Z');
const WEEK_MS = 7 * 24 * 3_600_000;
let server: TTestServer;
let organisationId = '';
const tokens = { admin: '', otherAdmin: '', referrer: '', staff: '' };
/** The referring physician's studies, and the staff member's facility. */
let referredIds: string[] = [];
let staffFacilityId = '';

/** Inserts the studies of `generate_series(1, count)`: every one a "Patient", some rarer names. */
async function insertStudies(organisation: string, count: number, prefix: string) {
  const db = server.db;
  const facilities = await Promise.all(
    [1, 2, 3].map(() => buildFacility(db, { organisationId: organisation })),
  );
  const patient = await buildPatient(db, { facility: facilities[0] });
  const ids = facilities.map((facility) => facility.id);
  await db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number, patient_name,
      status, created_at)
    select ${organisation}::uuid, (array[${ids[0]}::uuid, ${ids[1]}::uuid, ${ids[2]}::uuid])[1 + g % 3],
      ${patient.id}::uuid, ${prefix} || g,
      'Patient ' || case when g % 400 = 0 then 'Fernández' when g % 3 = 0 then 'Smithson' else 'Ann' end,
      (array['TO_READ','ASSIGNED','FINAL','ORDERED','DELETED']::study_status[])[1 + g % 5],
      ${NOW.toISOString()}::timestamptz - ((g - g % 3) * interval '75 minutes')
    from generate_series(1, ${count}) g`);
  return facilities;
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const db = server.db;
  organisationId = (await buildOrganisation(db)).id;
  tokens.admin = await tokenFor(server, await buildUser(db, { role: 'ADMIN', organisationId }));
  await seedingStudies(db, async () => {
    const facilities = await insertStudies(organisationId, STUDIES, 'SW');
    // One study back-dated three years: the walk reads what lies beyond its keyed runs (31 weeks) in
    // one more run on the plain trigram index.
    await db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
        patient_name, status, created_at)
      select organisation_id, facility_id, patient_id, 'SW0', 'Patient Ancient', 'FINAL',
        ${NOW.toISOString()}::timestamptz - interval '156 weeks'
      from studies where organisation_id = ${organisationId}::uuid limit 1`);
    // A referring physician who referred every 50th study (walked: their visibility is no facility's).
    const referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId });
    tokens.referrer = await tokenFor(server, referrer);
    const [physician] = await db
      .insert(referringPhysicians)
      .values({ organisationId, userId: referrer.id, name: 'Dr Walk' })
      .returning();
    const referred = await queryRows<{ id: string }>(
      db,
      sql`update studies set referring_physician_id = ${physician?.id ?? null}::uuid
        where organisation_id = ${organisationId}::uuid and substr(accession_number, 3)::int % 50 = 0
        returning id`,
    );
    referredIds = referred.map((row) => row.id);
    // A radiologist at one facility, and a facility of the same organisation whose id ends as theirs
    // (the facility keys' tag) holding the same names.
    const [facility] = facilities;
    staffFacilityId = facility?.id ?? '';
    const twin = await buildFacility(db, {
      organisationId,
      id: `00000000-0000-4000-8000-${staffFacilityId.slice(-12)}`,
    });
    await db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
        patient_name, status, created_at)
      select organisation_id, ${twin.id}::uuid, patient_id, 'TW' || accession_number, patient_name, status, created_at
      from studies where organisation_id = ${organisationId}::uuid and substr(accession_number, 3)::int % 7 = 0
        and accession_number <> 'SW0'`);
    const staff = await buildUser(db, { role: 'RADIOLOGIST', facilities: facilities.slice(0, 1) });
    tokens.staff = await tokenFor(server, staff);
    const other = (await buildOrganisation(db)).id;
    tokens.otherAdmin = await tokenFor(server, await buildUser(db, { role: 'ADMIN', organisationId: other }));
    await insertStudies(other, 300, 'SX');
  });
});

afterAll(async () => server.close());

type TCase = { search: string; range?: string; statuses?: SQL; order: 'desc' | 'asc' };

/** The matches straight from `studies`, sorted, or their page. */
async function expectedIds(test: TCase, page?: { offset: number }): Promise<string[]> {
  const direction = sql.raw(test.order);
  const limits = page ? sql`limit 25 offset ${page.offset}` : sql``;
  const rows = await queryRows<{ id: string }>(
    server.db,
    sql`select id from studies where organisation_id = ${organisationId}::uuid
      and ${test.statuses ?? sql`status <> 'DELETED'`} and ${test.range ? sql.raw(test.range) : sql`true`}
      and strpos(search_text, lower(ris_unaccent(${test.search}))) > 0
      order by created_at ${direction}, id ${direction} ${limits}`,
  );
  return rows.map((row) => row.id);
}

async function listed(query: string, token = tokens.admin): Promise<TWorklistListResponse> {
  const response = await server.request('GET', `/api/v1/worklist?limit=25&${query}`, { token });
  expect(response.status, response.text).toBe(200);
  return response.json as TWorklistListResponse;
}

const queryOf = (test: TCase, extra: string, offset: number) =>
  `search=${encodeURIComponent(test.search)}&sort_order=${test.order}&offset=${offset}&${extra}`;

describe('a search over all dates, walked and counted up to the cap', () => {
  const allDates = 'date_range_type=CUSTOM';

  /**
   * Every page of `search` over all dates, newest and oldest first, at `offsetsOf(matches)`, is the
   * page ORDER BY gives; the total is counted up to the cap or one past the page (then capped), exact
   * once every match was read.
   */
  async function expectPagesAcrossCap(search: string, offsetsOf: (matches: number) => number[]) {
    for (const order of ['desc', 'asc'] as const) {
      const test: TCase = { search, order };
      const matches = (await expectedIds(test)).length;
      expect(matches).toBeGreaterThan(WORKLIST_SEARCH_COUNT_CAP + 500);
      for (const offset of offsetsOf(matches)) {
        const page = await listed(queryOf(test, allDates, offset));
        expect({ order, offset, ids: page.items.map((item) => item.id) }).toEqual({
          order,
          offset,
          ids: await expectedIds(test, { offset }),
        });
        const limit = Math.max(WORKLIST_SEARCH_COUNT_CAP, offset + 26);
        const capped = matches > limit;
        expect({ offset, total: page.total, capped: page.total_capped }).toEqual({
          offset,
          total: capped ? limit : matches,
          capped,
        });
        expect(page.next_offset).toBe(offset + 25 < (capped ? limit : matches) ? offset + 25 : null);
      }
    }
  }

  it('gives every page ORDER BY gives, newest and oldest first, before, across and past the cap', async () => {
    await expectPagesAcrossCap('patient', (matches) => [
      0,
      25,
      975,
      990,
      1000,
      1480,
      matches - 30,
      matches - 25,
      matches,
      matches + 10,
    ]);
  });

  it('counts a rarer text exactly, and finds a rare one in every week it lies in', async () => {
    for (const search of ['smithson', 'FERNÁNDEZ', 'no such patient', 'ancient']) {
      const test: TCase = { search, order: 'desc' };
      const want = await expectedIds(test);
      expect(want.length).toBeLessThan(WORKLIST_SEARCH_COUNT_CAP);
      const pages: string[] = [];
      for (let offset = 0; offset < Math.max(want.length, 1); offset += 25) {
        const page = await listed(queryOf(test, allDates, offset));
        expect({ search, total: page.total, capped: page.total_capped }).toEqual({
          search,
          total: want.length,
          capped: false,
        });
        pages.push(...page.items.map((item) => item.id));
      }
      expect({ search, pages }).toEqual({ search, pages: want });
    }
  });

  it('walks a range of more weeks than the week keys serve, and a status tab, within the range', async () => {
    const start = new Date(NOW.getTime() - 18 * WEEK_MS - 1).toISOString();
    const end = new Date(NOW.getTime() - WEEK_MS + 1).toISOString();
    const range = `created_at >= '${start}'::timestamptz and created_at <= '${end}'::timestamptz`;
    const dates = `date_range_type=CUSTOM&start_date=${start}&end_date=${end}`;
    const cases: [TCase, string][] = [
      [{ search: 'patient', range, order: 'desc' }, dates],
      [{ search: 'patient', range, order: 'asc' }, dates],
      [{ search: 'patient', statuses: sql`status = 'FINAL'`, order: 'desc' }, `${allDates}&statuses=FINAL`],
      [{ search: 'ann', statuses: sql`status = 'DELETED'`, order: 'asc' }, `${allDates}&statuses=DELETED`],
    ];
    // Sixteen weeks of the week keys' numbering (they serve it in one read), holding more studies
    // than SEARCH_IN_RANGE_AT_MOST in the statuses listed (every one, deleted too): an admin's search
    // is walked all the same, counted up to the cap. Ten weeks of the listed statuses hold fewer: each
    // study's text is tested, and every match counted.
    const span = (start: Date, statuses = '') => ({
      dates: `date_range_type=CUSTOM&start_date=${start.toISOString()}&end_date=${NOW.toISOString()}${statuses}`,
      range: `created_at >= '${start.toISOString()}'::timestamptz and created_at <= '${NOW.toISOString()}'::timestamptz`,
      statuses: statuses === '' ? undefined : sql`true`,
    });
    const everyStatus = STUDY_STATUSES.map((status) => `&statuses=${status}`).join('');
    const sixteen = span(new Date(NOW.getTime() - 15 * WEEK_MS - 12 * 3_600_000), everyStatus);
    const ten = span(new Date(NOW.getTime() - 10 * WEEK_MS));
    const [held] = await queryRows<{ n: number }>(
      server.db,
      sql`select count(*)::int as n from studies where organisation_id = ${organisationId}::uuid
        and ${sql.raw(sixteen.range)}`,
    );
    expect(held?.n).toBeGreaterThan(SEARCH_IN_RANGE_AT_MOST);
    for (const { dates, range: within, statuses } of [sixteen, ten]) {
      cases.push([{ search: 'patient', range: within, statuses, order: 'desc' }, dates]);
      const all = await expectedIds({ search: 'patient', range: within, statuses, order: 'desc' });
      expect(all.length).toBeGreaterThan(WORKLIST_SEARCH_COUNT_CAP);
      const page = await listed(`search=patient&${dates}`);
      const counted = dates === sixteen.dates ? { capped: true } : { capped: false, total: all.length };
      expect({ dates, capped: page.total_capped, ...(counted.capped ? {} : { total: page.total }) }).toEqual({
        dates,
        ...counted,
      });
    }
    for (const [test, extra] of cases) {
      for (const offset of [0, 500, 1000]) {
        const page = await listed(queryOf(test, extra, offset));
        expect({ extra, offset, ids: page.items.map((item) => item.id) }).toEqual({
          extra,
          offset,
          ids: await expectedIds(test, { offset }),
        });
      }
    }
  });

  it('walks a range open at its start, past the keyed runs to a study three years old', async () => {
    const end = new Date(NOW.getTime() - 5 * WEEK_MS).toISOString();
    const range = `created_at <= '${end}'::timestamptz`;
    for (const order of ['desc', 'asc'] as const) {
      const test: TCase = { search: 'patient', range, order };
      const matches = (await expectedIds(test)).length;
      for (const offset of [0, 1000, matches - 25]) {
        const page = await listed(queryOf(test, `date_range_type=CUSTOM&end_date=${end}`, offset));
        expect({ order, offset, ids: page.items.map((item) => item.id) }).toEqual({
          order,
          offset,
          ids: await expectedIds(test, { offset }),
        });
      }
    }
    const oldest = await listed(`search=ancient&${allDates}&sort_order=asc`);
    expect({ total: oldest.total, capped: oldest.total_capped }).toEqual({ total: 1, capped: false });
  });

  it('walks a referring physician’s search within their referrals only, list and tabs', async () => {
    const range = `id in (${referredIds.map((id) => `'${id}'`).join(', ')})`;
    const test: TCase = { search: 'patient', range, order: 'desc' };
    const want = await expectedIds(test);
    expect(want.length).toBeGreaterThan(25);
    const pages: string[] = [];
    for (let offset = 0; offset < want.length; offset += 25) {
      const page = await listed(queryOf(test, allDates, offset), tokens.referrer);
      expect({ total: page.total, capped: page.total_capped }).toEqual({ total: want.length, capped: false });
      pages.push(...page.items.map((item) => item.id));
    }
    expect(pages).toEqual(want);
    const counts = await server.request('GET', `/api/v1/worklist/status/count?search=patient&${allDates}`, {
      token: tokens.referrer,
    });
    expect((counts.json as TWorklistStatusCounts).groups.ALL).toBe(want.length);
  });

  it('finds a staff member’s matches in their facility, not in one whose id ends the same', async () => {
    const range = `facility_id = '${staffFacilityId}'`;
    for (const [dates, within] of [
      [allDates, range],
      [
        `date_range_type=CUSTOM&start_date=${new Date(NOW.getTime() - 3 * WEEK_MS).toISOString()}`,
        `${range} and created_at >= '${new Date(NOW.getTime() - 3 * WEEK_MS).toISOString()}'::timestamptz`,
      ],
    ] as const) {
      const test: TCase = { search: 'smithson', range: within, order: 'desc' };
      const want = await expectedIds(test);
      const pages: string[] = [];
      for (let offset = 0; offset < want.length; offset += 25) {
        const page = await listed(queryOf(test, dates, offset), tokens.staff);
        expect(page.total).toBe(want.length);
        pages.push(...page.items.map((item) => item.id));
      }
      expect({ dates, pages }).toEqual({ dates, pages: want });
    }
  });

  it('answers an offset far past the end, and a text without keys, with an exact empty or full count', async () => {
    const far = await listed(`search=patient&${allDates}&offset=10000000`);
    const matches = (await expectedIds({ search: 'patient', order: 'desc' })).length;
    expect({
      items: far.items.length,
      total: far.total,
      capped: far.total_capped,
      next: far.next_offset,
    }).toEqual({
      items: 0,
      total: matches,
      capped: false,
      next: null,
    });
    // No three ASCII letters or digits in a row: the plain trigram index, counted exactly.
    for (const search of ['%%%', 'á é', "a'b"]) {
      const page = await listed(`search=${encodeURIComponent(search)}&${allDates}`);
      const want = await expectedIds({ search, order: 'desc' });
      expect({ search, total: page.total, capped: page.total_capped }).toEqual({
        search,
        total: want.length,
        capped: false,
      });
    }
  });

  it('walks a text without keys in arrival order, counted up to the cap, list and tabs', async () => {
    // "n" (in "Ann", "Patient", "Fernández"): no three ASCII letters or digits in a row, so no search
    // index; it matches every study, far past the cap.
    await expectPagesAcrossCap('n', (matches) => [0, 25, 990, 1480, matches - 10, matches + 10]);
    // Within a status tab and a range: its own matches, in order.
    const tab: TCase = {
      search: 'é',
      range: `created_at >= '${new Date(NOW.getTime() - 12 * WEEK_MS).toISOString()}'`,
      statuses: sql`status = 'FINAL'`,
      order: 'desc',
    };
    const start = new Date(NOW.getTime() - 12 * WEEK_MS).toISOString();
    const tabPage = await listed(
      queryOf(tab, `date_range_type=CUSTOM&start_date=${start}&statuses=FINAL`, 0),
    );
    const want = await expectedIds(tab);
    expect({ ids: tabPage.items.map((item) => item.id), total: tabPage.total }).toEqual({
      ids: want.slice(0, 25),
      total: want.length,
    });
    const response = await server.request('GET', `/api/v1/worklist/status/count?search=n&${allDates}`, {
      token: tokens.admin,
    });
    expect(response.status, response.text).toBe(200);
    const counts = response.json as TWorklistStatusCounts;
    // The listed statuses read up to one past the cap, in any order, as the list's total: the All tab
    // says "1,000+" as the list does. The deleted ones beside them, not toward the cap.
    expect({ capped: counts.capped, all: counts.groups.ALL }).toEqual({
      capped: true,
      all: WORKLIST_SEARCH_COUNT_CAP + 1,
    });
    expect(counts.statuses.DELETED).toBeGreaterThan(0);
  });

  it('sorted otherwise, counts a text most studies hold up to the cap, the page in that order', async () => {
    // worklist-sorted-search.ts: counted by weeks as the arrival order is, the page from the first
    // entries of the patient name's sort index that hold the text.
    const page = await listed(`search=patient&${allDates}&sort_by=patient_name&sort_order=asc&offset=40`);
    const matches = await queryRows<{ id: string }>(
      server.db,
      sql`select id from studies where organisation_id = ${organisationId}::uuid and status <> 'DELETED'
        and strpos(search_text, 'patient') > 0 order by patient_name asc, id asc limit 25 offset 40`,
    );
    expect(page.items.map((item) => item.id)).toEqual(matches.map((row) => row.id));
    expect({ total: page.total, capped: page.total_capped }).toEqual({
      total: WORKLIST_SEARCH_COUNT_CAP,
      capped: true,
    });
  });

  it('counts the tabs as the list counts: exact under the cap, lower bounds past it', async () => {
    const countsOf = async (search: string) => {
      const response = await server.request(
        'GET',
        `/api/v1/worklist/status/count?search=${encodeURIComponent(search)}&${allDates}`,
        { token: tokens.admin },
      );
      expect(response.status, response.text).toBe(200);
      return response.json as TWorklistStatusCounts;
    };
    const perStatus = async (search: string) => {
      const rows = await queryRows<{ status: TStudyStatus; n: number }>(
        server.db,
        sql`select status, count(*)::int as n from studies where organisation_id = ${organisationId}::uuid
          and strpos(search_text, lower(ris_unaccent(${search}))) > 0 group by status`,
      );
      return new Map(rows.map((row) => [row.status, row.n]));
    };
    for (const search of ['smithson', 'FERNÁNDEZ', 'no such patient']) {
      const [counts, want] = [await countsOf(search), await perStatus(search)];
      expect({ search, capped: counts.capped, deleted: counts.deleted_capped }).toEqual({
        search,
        capped: false,
        deleted: false,
      });
      for (const status of STUDY_STATUSES) {
        expect({ search, status, n: counts.statuses[status] }).toEqual({
          search,
          status,
          n: want.get(status) ?? 0,
        });
      }
    }
    const capped = await countsOf('patient');
    const want = await perStatus('patient');
    expect(capped.capped).toBe(true);
    // The All tab counted one past the cap; the deleted ones of the weeks read before the one (7 days
    // from the epoch, as the week keys) that holds the cap's last listed match: a lower bound.
    expect(capped.groups.ALL).toBe(WORKLIST_SEARCH_COUNT_CAP + 1);
    const week = (at: Date) => Math.floor(at.getTime() / WEEK_MS);
    const [last] = await queryRows<{ at: Date }>(
      server.db,
      sql`select created_at as at from studies where organisation_id = ${organisationId}::uuid
        and status <> 'DELETED' and strpos(search_text, 'patient') > 0
        order by created_at desc, id desc offset ${WORKLIST_SEARCH_COUNT_CAP} limit 1`,
    );
    const reached = week(new Date(last?.at ?? 0));
    expect(reached).toBeLessThan(week(NOW));
    const [walked] = await queryRows<{ deleted: number }>(
      server.db,
      sql`select count(*)::int as deleted from studies
        where organisation_id = ${organisationId}::uuid and status = 'DELETED'
          and strpos(search_text, 'patient') > 0
          and created_at >= ${new Date((reached + 1) * WEEK_MS).toISOString()}::timestamptz`,
    );
    expect(walked?.deleted).toBeGreaterThan(0);
    expect(walked?.deleted).toBeLessThan(want.get('DELETED') ?? 0);
    expect({ deleted: capped.statuses.DELETED, capped: capped.deleted_capped }).toEqual({
      deleted: walked?.deleted,
      capped: true,
    });
    for (const status of STUDY_STATUSES)
      expect(capped.statuses[status]).toBeLessThanOrEqual(want.get(status) ?? 0);
  });

  it('finds nothing of another organisation', async () => {
    const page = await listed(`search=patient&${allDates}`, tokens.otherAdmin);
    expect({ total: page.total, capped: page.total_capped }).toEqual({ total: 240, capped: false });
    const ids = page.items.map((item) => item.id);
    const ours = await queryRows<{ n: number }>(
      server.db,
      sql`select count(*)::int as n from studies where organisation_id = ${organisationId}::uuid
        and id::text in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
    );
    expect(ours[0]?.n).toBe(0);
    // A text without keys ("n", in every name) is scoped the same way: the same 240, the same page.
    const keyless = await listed(`search=n&${allDates}`, tokens.otherAdmin);
    expect({ total: keyless.total, capped: keyless.total_capped }).toEqual({ total: 240, capped: false });
    expect(keyless.items.map((item) => item.id)).toEqual(ids);
  });
});
