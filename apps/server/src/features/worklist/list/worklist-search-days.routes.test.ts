// GET /worklist for an admin's search sorted by study date or last update into its range's far end:
// oldest first from the range's start, newest first into a range that ended days ago
// (collectsArrivalLike). A text half the studies hold is walked a day of arrival at a time, each
// row's text tested (worklist-sorted-search.ts, walkDays), and counted up to the cap; a rare text's
// matches are collected and counted exactly. Every page is ORDER BY's, studies performed days before
// they arrived included; a radiologist and another organisation's admin see their own.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/rows.ts';
import { buildPatient } from '../../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { searchOrganisations, type TSeededFacility } from '../../../test/worklist-search-organisations.ts';
import { expectListedPage, listWorklist } from '../../../test/worklist-requests.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const DAY_MS = 86_400_000;
/** Studies a facility has: one every 24 minutes back from NOW, 60 days' worth. */
const STUDIES = 3_600;
const NAMES = ['Garcia Ana', 'Smith John', 'Nagy Zsofia', 'Kowalski Piotr', 'Zebra Quentin'];
const dayOf = (daysAgo: number) => new Date(NOW.getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10);
/** Oldest first from 20 days ago; newest first into the 25 days that ended 15 days ago. */
const FROM_START = `date_range_type=CUSTOM&start_date=${dayOf(20)}`;
const ENDED = `date_range_type=CUSTOM&start_date=${dayOf(40)}&end_date=${dayOf(15)}`;

let server: TTestServer;
let organisationId = '';
let staffFacility = '';
let foreignOrganisationId = '';
let tokens = { admin: '', radiologist: '', foreign: '' };

/**
 * STUDIES studies of `facility`: every other one a "CT Brain Plain", the others "MRI Knee"; named in
 * turn from NAMES (one in 41 a "Zebra"); performed up to 5 hours before arriving, every 29th up to 5
 * days before (a prior); last updated up to 2.7 days after. And one study of six years ago.
 */
async function seed(facility: TSeededFacility) {
  const patient = await buildPatient(server.db, { facility });
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, study_datetime, study_description, status, created_at, updated_at)
    select ${facility.organisationId}::uuid, ${facility.id}::uuid, ${patient.id}::uuid, 'SD' || g,
      case when g % 41 = 0 then 'Zebra Quentin' else (string_to_array(${NAMES.slice(0, 4).join('|')}, '|'))[1 + g % 4] end,
      a.at - case when g % 29 = 0 then (1 + g % 5) * interval '1 day' else (g * 37 % 300) * interval '1 minute' end,
      case when g % 2 = 0 then 'CT Brain Plain' else 'MRI Knee' end,
      (case when g <= 200 then 'TO_READ' else 'FINAL' end)::study_status,
      a.at, least(${NOW.toISOString()}::timestamptz, a.at + (g * 13 % 4000) * interval '1 minute')
    from generate_series(${STUDIES}::int, 1, -1) g
    cross join lateral (select ${NOW.toISOString()}::timestamptz - g * interval '24 minutes' as at) a`);
  // A prior imported from six years ago: the sort indexes span six years, a range a sliver of them.
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, study_datetime, study_description, status, created_at, updated_at)
    values (${facility.organisationId}::uuid, ${facility.id}::uuid, ${patient.id}::uuid, 'SD-PRIOR', 'Archive Prior',
      '2020-11-19T12:00:00Z', 'XR Film', 'FINAL', '2020-11-19T12:00:00Z', '2020-11-19T12:00:00Z')`);
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  ({ organisationId, staffFacility, foreignOrganisationId, tokens } = await searchOrganisations(
    server,
    seed,
  ));
});

afterAll(async () => server.close());

/**
 * ORDER BY's ids of an organisation's (or a facility's) studies holding `text` that arrived in
 * [from, to), sorted by `column` in `direction`, ties by id.
 */
async function oracle(
  text: string,
  column: 'study_datetime' | 'updated_at',
  direction: 'asc' | 'desc',
  range: { from: string; to: string | null },
  options: { organisation?: string; facility?: string } = {},
) {
  const order = sql.raw(`${column} ${direction}, id ${direction}`);
  const rows = await queryRows<{ id: string }>(
    server.db,
    sql`select id::text as id from studies where organisation_id = ${options.organisation ?? organisationId}::uuid
      and (${options.facility ?? null}::uuid is null or facility_id = ${options.facility ?? null}::uuid)
      and created_at >= ${range.from}::timestamptz
      and (${range.to}::timestamptz is null or created_at < ${range.to}::timestamptz)
      and strpos(search_text, lower(ris_unaccent(${text}))) > 0
      order by ${order}`,
  );
  return rows.map((row) => row.id);
}

const FROM_START_RANGE = { from: `${dayOf(20)}T00:00:00Z`, to: null };
/** The end date is inclusive: the range ends at the next midnight. */
const ENDED_RANGE = { from: `${dayOf(40)}T00:00:00Z`, to: `${dayOf(14)}T00:00:00Z` };

describe('an admin’s search by study date or last update into the range’s far end', () => {
  it('walks a text half the studies hold a day at a time: ORDER BY’s pages, the total capped', async () => {
    const cases = [
      { range: FROM_START, bounds: FROM_START_RANGE, by: 'datetime', order: 'asc', offsets: [0, 100, 475] },
      { range: ENDED, bounds: ENDED_RANGE, by: 'datetime', order: 'desc', offsets: [0, 250] },
      { range: ENDED, bounds: ENDED_RANGE, by: 'updated_at', order: 'desc', offsets: [0, 250] },
    ] as const;
    for (const { range, bounds, by, order, offsets } of cases) {
      const column = by === 'datetime' ? 'study_datetime' : 'updated_at';
      const want = await oracle('brain', column, order, bounds);
      expect(want.length).toBeGreaterThan(1_000);
      for (const offset of offsets) {
        const query = `${range}&search=Brain&sort_by=${by}&sort_order=${order}&limit=25&offset=${offset}`;
        await expectListedPage(server, tokens.admin, query, want, 'capped');
      }
    }
  });

  it('collects a rare text’s matches and counts them exactly', async () => {
    const want = await oracle('zebra', 'study_datetime', 'asc', FROM_START_RANGE);
    expect(want.length).toBeGreaterThan(25);
    for (const offset of [0, 25]) {
      const query = `${FROM_START}&search=zebra&sort_by=datetime&sort_order=asc&limit=25&offset=${offset}`;
      await expectListedPage(server, tokens.admin, query, want, 'exact');
    }
  });

  it('keeps a radiologist to their facility and another organisation to its own studies', async () => {
    const query = `${FROM_START}&search=brain&sort_by=datetime&sort_order=asc&limit=25&offset=100`;
    const staff = await listWorklist(server, tokens.radiologist, query);
    const facilityWant = await oracle('brain', 'study_datetime', 'asc', FROM_START_RANGE, {
      facility: staffFacility,
    });
    expect(staff.items.map((item) => item.id)).toEqual(facilityWant.slice(100, 125));
    const foreignWant = await oracle('brain', 'study_datetime', 'asc', FROM_START_RANGE, {
      organisation: foreignOrganisationId,
    });
    // One facility's 600 matches: fewer than the cap, collected and counted exactly.
    expect(foreignWant.length).toBeLessThan(1_000);
    await expectListedPage(server, tokens.foreign, query, foreignWant, 'exact');
  });
});
