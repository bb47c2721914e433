// GET /worklist for a staff member's search sorted by a column header whose page the column's sort
// index does not hold: their range's ids and sort keys read from their facilities' index, sorted, and
// each row's text tested in that order up to the page (worklist-sorted-range.ts) where the text's
// matches pass the cap; else the range's matches collected by walking it, counted exactly. Every
// page is ORDER BY's, for each sort a user clicks; a study of another facility that sorts first never
// shows, and another organisation's admin sees its own.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/rows.ts';
import { buildPatient } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { searchOrganisations, type TSeededFacility } from '../../../test/worklist-search-organisations.ts';
import { expectListedPage, listWorklist } from '../../../test/worklist-requests.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const DAY_MS = 86_400_000;
/** Studies a facility has: one every 12 minutes back from NOW, 35 days' worth. */
const STUDIES = 4_200;
const dayOf = (daysAgo: number) => new Date(NOW.getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10);
/** The radiologist's 25 days: 3,000 of their facility's studies, 1,800 holding "brain". */
/** The other facility's studies of the 100 days before STUDIES. */
const ARCHIVED = 25_000;
const RANGE = `date_range_type=CUSTOM&start_date=${dayOf(25)}`;
const RANGE_BOUNDS = { from: `${dayOf(25)}T00:00:00Z`, to: null };
/** 25 days that ended 5 days ago, newest first into its end. */
const ENDED = `date_range_type=CUSTOM&start_date=${dayOf(30)}&end_date=${dayOf(6)}`;
const ENDED_BOUNDS = { from: `${dayOf(30)}T00:00:00Z`, to: `${dayOf(5)}T00:00:00Z` };

let server: TTestServer;
let organisationId = '';
let staffFacility = '';
let tokens = { admin: '', radiologist: '', foreign: '' };

/**
 * STUDIES studies of `facility`: three in five a "CT Brain Plain", the others "MRI Knee"; names and
 * patient ids spread so that neither follows arrival; performed up to 5 hours before arriving, every
 * 29th up to 5 days before; last updated up to 2.7 days after. The second facility's one study that
 * sorts first by name and by study date ("Aaron", a prior performed 40 days ago) holds "brain" too.
 */
async function seed(facility: TSeededFacility) {
  const patient = await buildPatient(server.db, { facility });
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, patient_identifier, study_datetime, study_description, status, created_at, updated_at)
    select ${facility.organisationId}::uuid, ${facility.id}::uuid, ${patient.id}::uuid, 'SR' || g,
      'Name ' || lpad((g * 7919 % 997)::text, 4, '0'), 'PID' || lpad((g * 104729 % 9973)::text, 5, '0'),
      a.at - case when g % 29 = 0 then (1 + g % 5) * interval '1 day' else (g * 37 % 300) * interval '1 minute' end,
      case when g % 5 < 3 then 'CT Brain Plain' else 'MRI Knee' end,
      (case when g <= 300 then 'TO_READ' else 'FINAL' end)::study_status,
      a.at, least(${NOW.toISOString()}::timestamptz, a.at + (g * 13 % 4000) * interval '1 minute')
    from generate_series(${STUDIES}::int, 1, -1) g
    cross join lateral (select ${NOW.toISOString()}::timestamptz - g * interval '12 minutes' as at) a`);
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const seeded: TSeededFacility[] = [];
  await seedingStudies(server.db, async () => {
    ({ organisationId, staffFacility, tokens } = await searchOrganisations(server, async (facility) => {
      seeded.push(facility);
      await seed(facility);
    }));
    const other = seeded[1];
    if (!other) throw new Error('the organisation has two facilities');
    const patient = await buildPatient(server.db, { facility: other });
    // The other facility's archive: 25,000 studies in the 100 days before, which the study date's sort
    // index holds before any of the range, past the entries a prefix walk reads (PREFIX_SEARCH_ENTRIES).
    await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id,
        accession_number, patient_name, study_datetime, study_description, status, created_at, updated_at)
      select ${organisationId}::uuid, ${other.id}::uuid, ${patient.id}::uuid, 'SA' || g, 'Archive ' || g % 97, a.at,
        'CT Brain Plain', 'FINAL', a.at, a.at
      from generate_series(1, ${ARCHIVED}::int) g
      cross join lateral (select ${`${dayOf(35)}T00:00:00Z`}::timestamptz - g * interval '345 seconds' as at) a`);
    await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id,
        accession_number, patient_name, patient_identifier, study_datetime, study_description, status,
        created_at, updated_at)
      values (${organisationId}::uuid, ${other.id}::uuid, ${patient.id}::uuid, 'SR-OTHER', 'Aaron Aaron', 'PID00000',
        ${`${dayOf(40)}T00:00:00Z`}, 'CT Brain First', 'FINAL', ${`${dayOf(24)}T00:00:00Z`}, ${`${dayOf(24)}T00:00:00Z`})`);
  });
  // Analysed once the search indexes are built again (searchOrganisations analysed without them).
  await server.db.execute(sql`analyze studies`);
}, 240_000);

afterAll(async () => server.close());

type TColumn = 'study_datetime' | 'updated_at' | 'patient_name' | 'patient_identifier';

/** ORDER BY's ids of the facility's (or organisation's) studies holding `text` in the range, by `column`. */
async function oracle(
  column: TColumn,
  direction: 'asc' | 'desc',
  range: { from: string; to: string | null },
  scope: { facility: string } | { organisation: string },
) {
  const order = sql.raw(`${column} ${direction}, id ${direction}`);
  const facility = 'facility' in scope ? scope.facility : null;
  const organisation = 'organisation' in scope ? scope.organisation : organisationId;
  const rows = await queryRows<{ id: string }>(
    server.db,
    sql`select id::text as id from studies where organisation_id = ${organisation}::uuid
      and (${facility}::uuid is null or facility_id = ${facility}::uuid)
      and created_at >= ${range.from}::timestamptz
      and (${range.to}::timestamptz is null or created_at < ${range.to}::timestamptz)
      and strpos(search_text, 'brain') > 0
      order by ${order}`,
  );
  return rows.map((row) => row.id);
}

const SORTS = [
  { by: 'datetime', column: 'study_datetime', order: 'asc' },
  { by: 'patient_name', column: 'patient_name', order: 'asc' },
  { by: 'patient_id', column: 'patient_identifier', order: 'desc' },
  { by: 'updated_at', column: 'updated_at', order: 'asc' },
] as const;

describe('a staff member’s search sorted by a column their range is sorted by', () => {
  it('pages a text most of their range holds by each column in ORDER BY’s order, the total capped', async () => {
    for (const { by, column, order } of SORTS) {
      const want = await oracle(column, order, RANGE_BOUNDS, { facility: staffFacility });
      expect(want.length).toBeGreaterThan(1_000);
      for (const offset of [0, 100]) {
        const query = `${RANGE}&search=brain&sort_by=${by}&sort_order=${order}&limit=25&offset=${offset}`;
        await expectListedPage(server, tokens.radiologist, query, want, 'capped');
      }
    }
    const ended = await oracle('study_datetime', 'desc', ENDED_BOUNDS, { facility: staffFacility });
    const query = `${ENDED}&search=Brain&sort_by=datetime&sort_order=desc&limit=25&offset=50`;
    await expectListedPage(server, tokens.radiologist, query, ended, 'capped');
  });

  it('collects the range’s matches, counted exactly, for a page deep into them', async () => {
    // 500 rows of a text three in five hold: more rows tested than sorting the range reads.
    const want = await oracle('study_datetime', 'asc', RANGE_BOUNDS, { facility: staffFacility });
    const query = `${RANGE}&search=brain&sort_by=datetime&sort_order=asc&limit=25&offset=475`;
    await expectListedPage(server, tokens.radiologist, query, want, 'exact');
  });

  it('keeps the radiologist to their facility; an admin’s facility filter alike; another organisation 404', async () => {
    // The other facility's "Aaron Aaron", performed before any of the range, is the organisation's
    // first by study date, never the radiologist's.
    const organisation = await oracle('study_datetime', 'asc', RANGE_BOUNDS, {
      organisation: organisationId,
    });
    const [aaron] = await queryRows<{ id: string }>(
      server.db,
      sql`select id::text as id from studies where accession_number = 'SR-OTHER'`,
    );
    expect(organisation[0]).toBe(aaron?.id);
    const byDate = `${RANGE}&search=brain&sort_by=datetime&sort_order=asc&limit=25&offset=0`;
    const staff = await listWorklist(server, tokens.radiologist, byDate);
    expect(staff.items.map((item) => item.id)).not.toContain(aaron?.id);
    const want = await oracle('study_datetime', 'asc', RANGE_BOUNDS, { facility: staffFacility });
    const filtered = `${RANGE}&facility_ids=${staffFacility}&search=brain&sort_by=datetime&sort_order=asc`;
    await expectListedPage(server, tokens.admin, `${filtered}&limit=25&offset=25`, want, 'capped');
    const foreign = await server.request('GET', `/api/v1/worklist?${filtered}&limit=25`, {
      token: tokens.foreign,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.text).toContain('facility_ids');
  });
});
