// GET /worklist for an admin's search over the whole organisation, by arrival, whose text the newest
// studies hold densely (worklist-dense-organisation.ts): the organisation's studies walked in arrival
// order, the filters and the text tested on each, up to the count's cap, for at most DENSE_ONE_IN
// times its limit rows (16,016 at most); else walked by weeks. Every page must be the oracle's (ORDER BY created_at,
// id over strpos), the total "1,000+" past the cap and exact under it: when the walk read the whole
// range, and when a text dense in the first rows only spent the walk's rows and was walked by weeks.
// Another organisation's studies, newer and holding the same text, are never found.
import { WORKLIST_SEARCH_COUNT_CAP, type TWorklistListResponse } from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/rows.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildPatient, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { DENSE_ONE_IN } from './worklist-dense-search.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
/** Studies two minutes apart back from NOW (12.5 days): more than the walk's budget of rows. */
const STUDIES = 9_000;
const ONE_MONTH = 'date_range_type=LAST_1_MONTH';
const ALL_DATES = 'date_range_type=CUSTOM';

let server: TTestServer;
let organisationId = '';
const tokens = { admin: '', otherAdmin: '' };

/**
 * Studies g = 1..count of `organisation`, g × 2 minutes (less `ahead` minutes) before NOW. Their
 * patient: "Fading Fay" for odd g up to 256 and every 20th (dense in the first rows, rare after),
 * "Dense Ada" for other even g up to 8,000, else "Plain Pat"; their description "Old Olga" for odd g
 * past 5,000 (the oldest), else "Plain". Statuses in turn, one in five deleted.
 */
async function insertStudies(organisation: string, count: number, ahead: number) {
  const db = server.db;
  const facility = await buildFacility(db, { organisationId: organisation });
  const patient = await buildPatient(db, { facility });
  await db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, study_description, status, created_at)
    select ${organisation}::uuid, ${facility.id}::uuid, ${patient.id}::uuid, 'DO' || g,
      case when (g % 2 = 1 and g <= 256) or g % 20 = 0 then 'Fading Fay'
        when g % 2 = 0 and g <= 8000 then 'Dense Ada' else 'Plain Pat' end,
      case when g % 2 = 1 and g > 5000 then 'Old Olga' else 'Plain' end,
      (array['TO_READ','ASSIGNED','FINAL','ORDERED','DELETED']::study_status[])[1 + g % 5],
      ${NOW.toISOString()}::timestamptz - (g * 2 - ${ahead}::int) * interval '1 minute'
    from generate_series(1, ${count}::int) g`);
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const db = server.db;
  organisationId = (await buildOrganisation(db)).id;
  tokens.admin = await tokenFor(server, await buildUser(db, { role: 'ADMIN', organisationId }));
  await seedingStudies(db, async () => {
    await insertStudies(organisationId, STUDIES, 0);
    // One study of two months ago: all dates reach past the walked days (31).
    await db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
        patient_name, status, created_at)
      select organisation_id, facility_id, patient_id, 'DO0', 'Dense Ada', 'FINAL', ${NOW.toISOString()}::timestamptz - interval '60 days'
      from studies where organisation_id = ${organisationId}::uuid limit 1`);
    // Another organisation's studies, each a minute newer than ours, with the same names.
    const other = (await buildOrganisation(db)).id;
    tokens.otherAdmin = await tokenFor(server, await buildUser(db, { role: 'ADMIN', organisationId: other }));
    await insertStudies(other, 600, 1);
  });
});

afterAll(async () => server.close());

type TCase = { search: string; order: 'desc' | 'asc'; range: SQL; statuses: readonly string[] };

const listedStatuses = ['TO_READ', 'ASSIGNED', 'FINAL', 'ORDERED'];
const inProgress = ['TO_READ', 'ASSIGNED', 'IN_REVIEW', 'DRAFTED'];
/** The In Progress tab's statuses. */
const IN_PROGRESS = inProgress.map((status) => `statuses=${status}`).join('&');
const sinceOneMonth = sql`created_at >= ${new Date(NOW.getTime() - 30 * 86_400_000).toISOString()}::timestamptz`;

/** The case's matches straight from `studies`, in its order. */
async function expectedIds(test: TCase): Promise<string[]> {
  const direction = sql.raw(test.order);
  const rows = await queryRows<{ id: string }>(
    server.db,
    sql`select id from studies where organisation_id = ${organisationId}::uuid
      and status::text = any(${`{${test.statuses.join(',')}}`}::text[]) and ${test.range}
      and strpos(search_text, lower(ris_unaccent(${test.search}))) > 0
      order by created_at ${direction}, id ${direction}`,
  );
  return rows.map((row) => row.id);
}

async function listed(query: string, token = tokens.admin): Promise<TWorklistListResponse> {
  const response = await server.request('GET', `/api/v1/worklist?limit=25&${query}`, { token });
  expect(response.status, response.text).toBe(200);
  return response.json as TWorklistListResponse;
}

/**
 * The pages of `test` at `offsets` (with `query`'s filters) are the oracle's; the total is the
 * number of matches, or past the cap (or one past the page) that many, capped.
 */
async function expectPages(test: TCase, query: string, offsets: readonly number[]) {
  const matches = await expectedIds(test);
  for (const offset of offsets) {
    const page = await listed(
      `search=${encodeURIComponent(test.search)}&sort_order=${test.order}&offset=${offset}&${query}`,
    );
    const at = `${test.search} ${test.order} at ${offset}`;
    expect(
      page.items.map((item) => item.id),
      at,
    ).toEqual(matches.slice(offset, offset + 25));
    const counted = Math.max(WORKLIST_SEARCH_COUNT_CAP, offset + 25 + 1);
    const capped = matches.length > counted;
    expect(page.total_capped, at).toBe(capped);
    expect(page.total, at).toBe(capped ? counted : matches.length);
  }
  return matches.length;
}

describe('an admin’s search dense among the newest studies, walked in arrival order', () => {
  it('gives every page ORDER BY gives over all dates, before, across and past the cap', async () => {
    const test: TCase = { search: 'dense ada', order: 'desc', range: sql`true`, statuses: listedStatuses };
    const matches = await expectPages(test, ALL_DATES, [0, 500, 975, 990, 1_200, 2_860]);
    expect(matches).toBeGreaterThan(WORKLIST_SEARCH_COUNT_CAP + 1_000);
  });

  it('tests the status tab on each row walked', async () => {
    const test: TCase = { search: 'Dense', order: 'desc', range: sql`true`, statuses: inProgress };
    const matches = await expectPages(test, `${ALL_DATES}&${IN_PROGRESS}`, [0, 700, 980]);
    expect(matches).toBeGreaterThan(WORKLIST_SEARCH_COUNT_CAP);
  });

  it('walks oldest first from the range’s start', async () => {
    const test: TCase = { search: 'Olga', order: 'asc', range: sinceOneMonth, statuses: listedStatuses };
    const matches = await expectPages(test, ONE_MONTH, [0, 600, 990]);
    expect(matches).toBeGreaterThan(WORKLIST_SEARCH_COUNT_CAP);
  });

  it('counts exactly a range walked whole short of the cap', async () => {
    // A week: 5,040 studies, 3 in 20 of them in progress and "Dense Ada", as many in its first rows.
    const range = sql`created_at >= ${new Date(NOW.getTime() - 7 * 86_400_000).toISOString()}::timestamptz`;
    const test: TCase = { search: 'dense', order: 'desc', range, statuses: inProgress };
    const matches = await expectPages(test, `date_range_type=LAST_1_WEEK&${IN_PROGRESS}`, [0, 400]);
    expect(matches).toBeGreaterThan(400);
    expect(matches).toBeLessThan(WORKLIST_SEARCH_COUNT_CAP);
  });

  it('counts exactly a text dense in the first rows only, rarer past the walk’s rows', async () => {
    // Half the first 256 studies, then one in 20: fewer than the cap in the walk's rows (its budget).
    const walked = 256 / 2 + (DENSE_ONE_IN * (WORKLIST_SEARCH_COUNT_CAP + 1)) / 20;
    expect(walked).toBeLessThan(WORKLIST_SEARCH_COUNT_CAP);
    const test: TCase = { search: 'Fading', order: 'desc', range: sinceOneMonth, statuses: listedStatuses };
    const matches = await expectPages(test, ONE_MONTH, [0, 300, 560]);
    expect(matches).toBeGreaterThan(WORKLIST_SEARCH_COUNT_CAP / 2);
    expect(matches).toBeLessThan(WORKLIST_SEARCH_COUNT_CAP);
  });

  it('never finds another organisation’s studies, newer and of the same names', async () => {
    const page = await listed(`search=dense&${ALL_DATES}`);
    const foreign = await queryRows<{ n: number }>(
      server.db,
      sql`select count(*)::int as n from studies where organisation_id <> ${organisationId}::uuid
        and id = any(${`{${page.items.map((item) => item.id).join(',')}}`}::uuid[])`,
    );
    expect(page.items).toHaveLength(25);
    expect(foreign[0]?.n).toBe(0);
    const theirs = await listed(`search=dense&${ALL_DATES}`, tokens.otherAdmin);
    expect(theirs.items).toHaveLength(25);
    expect(theirs.items.map((item) => item.id)).not.toContain(page.items[0]?.id);
  });
});
