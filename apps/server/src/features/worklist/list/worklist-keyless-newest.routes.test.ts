// A keyless search whose keys most studies hold (its rows each tested, worklist-keyless-plan.ts)
// over an admin's range counted up to the cap: the first matches counted are the range's newest
// (cappedReadOrder), not wherever a scan of the table starts. Studies are stored in arrival order,
// oldest first, as they arrive; the newest are still open and the older final, so which matches were
// counted shows in the tabs. Some facilities' all dates are read one facility after another. A staff
// member's and another organisation's counts stay their own.
import { WORKLIST_SEARCH_COUNT_CAP, type TWorklistListQuery } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScope } from '../../../access/scope.ts';
import { compileSql } from '../../../db/compile-sql.ts';
import { queryRows } from '../../../db/rows.ts';
import { adminPrincipal } from '../../../test/auth-helpers.ts';
import { buildPatient } from '../../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { searchOrganisations, type TSeededFacility } from '../../../test/worklist-search-organisations.ts';
import { worklistFiltersOf } from '../../../test/worklist-criteria.ts';
import { countWorklist, expectListedPage, listWorklist } from '../../../test/worklist-requests.ts';
import { resolveWorklistCriteria } from './worklist-criteria.ts';
import { keylessPlan } from './worklist-keyless-plan.ts';
import { testedDayWalkSql } from './worklist-keyless-search.ts';

type TPage = Pick<TWorklistListQuery, 'limit' | 'offset' | 'sort_by' | 'sort_order'>;

const NOW = new Date('2026-11-19T12:00:00Z');
const WEEK = 'date_range_type=LAST_1_WEEK';
/** Studies a facility has: one every 3 minutes back from NOW, 5 days' worth. */
const STUDIES = 2_400;
let server: TTestServer;
let organisationId = '';
let staffFacility = '';
let admin = { id: '', email: '' };
let tokens = { admin: '', radiologist: '', foreign: '' };

/**
 * STUDIES studies of `facility`, inserted oldest first: "US Abdomen" on four in five; the newest 900
 * To read, the rest Final; one in ten of the newest and one in five hundred of the older described
 * with "Gh 7". Each performed up to three hours before it arrived.
 */
async function seed(facility: TSeededFacility) {
  const patient = await buildPatient(server.db, { facility });
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, study_datetime, study_description, status, created_at)
    select ${facility.organisationId}::uuid, ${facility.id}::uuid, ${patient.id}::uuid, 'KN' || g,
      'Patient ' || g, ${NOW.toISOString()}::timestamptz - g * interval '3 minutes' - ((g * 37) % 180) * interval '1 minute',
      case when g % 5 = 0 then 'Chest PA' else 'US Abdomen' end
        || case when (g <= 900 and g % 10 = 1) or (g > 900 and g % 500 = 250) then ' Gh 7' else '' end,
      (case when g <= 900 then 'TO_READ' else 'FINAL' end)::study_status,
      ${NOW.toISOString()}::timestamptz - g * interval '3 minutes'
    from generate_series(${STUDIES}::int, 1, -1) g`);
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  // The pair index's statistics make "ab" and "g" common keys (holdsCommonPairs).
  ({ organisationId, staffFacility, admin, tokens } = await searchOrganisations(server, seed));
});

afterAll(async () => server.close());

/** keylessPlan for an admin's `query`. */
async function planOf(query: string) {
  const scope = await loadScope(server.db, adminPrincipal(admin, organisationId));
  const criteria = await resolveWorklistCriteria(server.db, scope, worklistFiltersOf(query), NOW);
  return keylessPlan(server.database, criteria, criteria.statuses, false);
}

/** The order keylessPlan gives an admin's capped read for `query`'s filters. */
async function cappedOrderOf(query: string) {
  return compileSql((await planOf(query)).capped).sql;
}

/** Per status, the newest `limit` studies of the week holding `text` (the organisation's, or a facility's). */
async function newest(text: string, limit: number, facility: string | null = null) {
  const rows = await queryRows<{ status: string; n: number }>(
    server.db,
    sql`select status::text as status, count(*)::int as n from (
        select status from studies where organisation_id = ${organisationId}::uuid
          and (${facility}::uuid is null or facility_id = ${facility}::uuid)
          and created_at >= ${new Date(NOW.getTime() - 7 * 86_400_000).toISOString()}::timestamptz
          and strpos(search_text, lower(ris_unaccent(${text}))) > 0
        order by created_at desc limit ${limit}) c
      group by status`,
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

describe('a common keyless text over an admin’s range, counted up to the cap', () => {
  it('counts the range’s newest matches in its tabs', async () => {
    const tabs = await countWorklist(server, tokens.admin, `${WEEK}&search=ab`);
    expect(tabs.capped).toBe(true);
    const want = await newest('ab', WORKLIST_SEARCH_COUNT_CAP + 1);
    // Two facilities' newest 900 are open, 1,440 matches: the cap's are every one of them open.
    expect(want).toEqual({ TO_READ: WORKLIST_SEARCH_COUNT_CAP + 1 });
    expect({ TO_READ: tabs.statuses.TO_READ, FINAL: tabs.statuses.FINAL }).toEqual({
      TO_READ: WORKLIST_SEARCH_COUNT_CAP + 1,
      FINAL: 0,
    });
  });

  it('lists its newest page with the capped total', async () => {
    const page = await listWorklist(server, tokens.admin, `${WEEK}&search=ab&limit=25`);
    expect({ total: page.total, capped: page.total_capped }).toEqual({
      total: WORKLIST_SEARCH_COUNT_CAP,
      capped: true,
    });
    expect(page.items.every((item) => item.status === 'TO_READ')).toBe(true);
    expect(page.items.map((item) => item.accession_number).slice(0, 4)).toEqual(['KN1', 'KN1', 'KN2', 'KN2']);
  });

  it('counts a text few studies hold exactly, old and new', async () => {
    const tabs = await countWorklist(server, tokens.admin, `${WEEK}&search=gh 7`);
    expect(tabs.capped).toBe(false);
    const want = await newest('gh 7', STUDIES * 2);
    expect({ TO_READ: tabs.statuses.TO_READ, FINAL: tabs.statuses.FINAL }).toEqual(want);
    expect(want).toEqual({ TO_READ: 180, FINAL: 6 });
    const ids = await queryRows<{ id: string }>(
      server.db,
      sql`select id::text as id from studies where organisation_id = ${organisationId}::uuid
        and strpos(search_text, 'gh 7') > 0 order by created_at desc, id desc`,
    );
    await expectListedPage(
      server,
      tokens.admin,
      `${WEEK}&search=gh 7&limit=25&offset=175`,
      ids.map((row) => row.id),
      'exact',
    );
  });

  it('keeps a radiologist’s and another organisation’s counts to their own studies', async () => {
    const tabs = await countWorklist(server, tokens.radiologist, `${WEEK}&search=ab`);
    const want = await newest('ab', STUDIES, staffFacility);
    expect(tabs.capped).toBe(true);
    expect(tabs.statuses.TO_READ + tabs.statuses.FINAL).toBe(WORKLIST_SEARCH_COUNT_CAP + 1);
    expect(tabs.statuses.TO_READ).toBeLessThanOrEqual(want.TO_READ ?? 0);
    const foreign = await countWorklist(server, tokens.foreign, `${WEEK}&search=gh 7`);
    expect({ TO_READ: foreign.statuses.TO_READ, FINAL: foreign.statuses.FINAL }).toEqual({
      TO_READ: 90,
      FINAL: 3,
    });
  });

  it('reads newest first over a range, some facilities one after another over all dates, else in any order', async () => {
    const facility = `facility_ids=${staffFacility}`;
    expect(await cappedOrderOf(`${WEEK}&search=ab`)).toBe('order by "studies"."created_at" desc');
    expect(await cappedOrderOf(`date_range_type=CUSTOM&search=ab&${facility}`)).toBe(
      'order by "studies"."facility_id"',
    );
    // The whole organisation's all dates: every row is in range.
    expect(await cappedOrderOf('date_range_type=CUSTOM&search=ab')).toBe('');
    // A week of some facilities, or an assignee's studies: their own indexes.
    expect(await cappedOrderOf(`${WEEK}&search=ab&${facility}`)).toBe('');
    expect(await cappedOrderOf(`date_range_type=CUSTOM&search=ab&by_user_ids=${admin.id}`)).toBe('');
    // Only a text tested on each row: one its keys find ("zq", which no study holds) is read by them.
    expect((await planOf(`${WEEK}&search=ab`)).tested).toBe(true);
    expect((await planOf(`${WEEK}&search=zq`)).tested).toBe(false);
    expect(await cappedOrderOf(`${WEEK}&search=zq`)).toBe('');
    // A text with no pair at all (two digits, which the pair index leaves out) is tested on each row
    // whatever its plan, so it is read as such: newest first, and walked by days past the cap.
    expect((await planOf(`${WEEK}&search=12`)).tested).toBe(true);
    expect(await cappedOrderOf(`${WEEK}&search=12`)).toBe('order by "studies"."created_at" desc');
  });

  it('counts and lists a text of two digits exactly where it is rare', async () => {
    const tabs = await countWorklist(server, tokens.admin, `${WEEK}&search=12`);
    const want = await newest('12', STUDIES * 2);
    expect(tabs.capped).toBe(false);
    expect({ TO_READ: tabs.statuses.TO_READ, FINAL: tabs.statuses.FINAL }).toEqual(want);
    const ids = await queryRows<{ id: string }>(
      server.db,
      sql`select id::text as id from studies where organisation_id = ${organisationId}::uuid
        and created_at >= ${new Date(NOW.getTime() - 7 * 86_400_000).toISOString()}::timestamptz
        and strpos(search_text, '12') > 0 order by study_datetime asc, id asc`,
    );
    const query = `${WEEK}&search=12&sort_by=datetime&sort_order=asc&limit=25&offset=100`;
    await expectListedPage(
      server,
      tokens.admin,
      query,
      ids.map((row) => row.id),
      'exact',
    );
  });

  it('counts a radiologist’s all dates up to the cap, and a rare text exactly', async () => {
    const all = 'date_range_type=CUSTOM';
    const tabs = await countWorklist(server, tokens.radiologist, `${all}&search=ab`);
    expect(tabs.capped).toBe(true);
    expect(tabs.statuses.TO_READ + tabs.statuses.FINAL).toBe(WORKLIST_SEARCH_COUNT_CAP + 1);
    const rare = await countWorklist(server, tokens.radiologist, `${all}&search=gh 7`);
    expect({ capped: rare.capped, TO_READ: rare.statuses.TO_READ, FINAL: rare.statuses.FINAL }).toEqual({
      capped: false,
      TO_READ: 90,
      FINAL: 3,
    });
    const page = await listWorklist(server, tokens.radiologist, `${all}&search=ab&limit=25`);
    expect(page.total_capped).toBe(true);
    expect(page.items.every((item) => item.facility_fk === staffFacility)).toBe(true);
  });
});

describe('a common keyless text by study date past the cap', () => {
  const [start, end] = ['2026-11-15T00:01:30Z', '2026-11-18T00:01:30Z'];
  const RANGE = `date_range_type=CUSTOM&start_date=${start}&end_date=${end}`;
  /** The range's studies holding "ab" by study date (the organisation's, or a facility's). */
  async function byStudyDate(direction: 'asc' | 'desc', facility: string | null = null) {
    const rows = await queryRows<{ id: string }>(
      server.db,
      sql`select id::text as id from studies where organisation_id = ${organisationId}::uuid
        and (${facility}::uuid is null or facility_id = ${facility}::uuid)
        and created_at >= ${start}::timestamptz and created_at <= ${end}::timestamptz
        and strpos(search_text, 'ab') > 0
        order by study_datetime ${sql.raw(direction)}, id ${sql.raw(direction)}`,
    );
    return rows.map((row) => row.id);
  }

  it('walks an admin’s range a day of arrival at a time, but by last update oldest first', async () => {
    const scope = await loadScope(server.db, adminPrincipal(admin, organisationId));
    const criteria = await resolveWorklistCriteria(
      server.db,
      scope,
      worklistFiltersOf(`${RANGE}&search=ab`),
      NOW,
    );
    const page: TPage = { limit: 25, offset: 0, sort_by: 'datetime', sort_order: 'asc' };
    const walked = (patch: Partial<TPage>) => testedDayWalkSql(server.db, criteria, { ...page, ...patch });
    expect(compileSql(walked({}) ?? sql``).sql).toContain('ris_arrival_day');
    expect(walked({ sort_order: 'desc' })).not.toBeNull();
    expect(walked({ sort_by: 'updated_at', sort_order: 'asc' })).toBeNull();
    expect(walked({ sort_by: 'patient_name' })).toBeNull();
  });

  it('lists the oracle’s pages oldest and newest first, for an admin and a radiologist', async () => {
    for (const direction of ['asc', 'desc'] as const) {
      const want = await byStudyDate(direction);
      expect(want.length).toBeGreaterThan(WORKLIST_SEARCH_COUNT_CAP);
      for (const offset of [0, 500, 950]) {
        const query = `${RANGE}&search=ab&sort_by=datetime&sort_order=${direction}&limit=25&offset=${offset}`;
        await expectListedPage(server, tokens.admin, query, want, 'capped');
      }
      const staff = await byStudyDate(direction, staffFacility);
      const query = `${RANGE}&search=ab&sort_by=datetime&sort_order=${direction}&limit=25&offset=500`;
      await expectListedPage(server, tokens.radiologist, query, staff, 'capped');
    }
    const foreign = await listWorklist(
      server,
      tokens.foreign,
      `${RANGE}&search=ab&sort_by=datetime&sort_order=asc`,
    );
    const ours = new Set(await byStudyDate('asc'));
    expect(foreign.items.length).toBeGreaterThan(0);
    expect(foreign.items.some((item) => ours.has(item.id))).toBe(false);
  });
});
