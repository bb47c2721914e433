// GET /worklist and /worklist/status/count for an admin's search of a few facilities (facility_ids)
// whose text most of the range's studies hold: walked in arrival order through the facilities' index,
// each row's text tested, as a staff member's is (worklist-dense-search.ts), and counted up to the
// cap; the admin's deleted studies counted beside the cap, exactly up to as many (past them, capped
// apart). A rare text keeps its exact counts; another organisation's admin gets a 404 naming
// facility_ids.
import { WORKLIST_SEARCH_COUNT_CAP } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/rows.ts';
import { buildPatient } from '../../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { searchOrganisations, type TSeededFacility } from '../../../test/worklist-search-organisations.ts';
import { countWorklist, expectListedPage } from '../../../test/worklist-requests.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const DAY_MS = 86_400_000;
/** Studies a facility has: one every 12 minutes back from NOW, 30 days' worth. */
const STUDIES = 3_600;
const dayOf = (daysAgo: number) => new Date(NOW.getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10);
/** 25 days of the first facility: 3,000 studies, 1,800 of them "brain", 60 of those deleted. */
const FROM = `${dayOf(25)}T00:00:00Z`;

let server: TTestServer;
let organisationId = '';
let staffFacility = '';
let otherFacility = '';
let tokens = { admin: '', radiologist: '', foreign: '' };

/**
 * STUDIES studies of `facility`: three in five a "CT Brain Plain", the others "MRI Knee"; one in 50
 * deleted; one in 300 named "Zebra".
 */
async function seed(facility: TSeededFacility) {
  const patient = await buildPatient(server.db, { facility });
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, study_datetime, study_description, status, deleted_at, created_at, updated_at)
    select ${facility.organisationId}::uuid, ${facility.id}::uuid, ${patient.id}::uuid, 'DA' || g,
      case when g % 300 = 0 then 'Zebra Quentin' else 'Name ' || g % 997 end, a.at,
      case when g % 5 < 3 then 'CT Brain Plain' else 'MRI Knee' end,
      (case when g % 50 = 7 then 'DELETED' when g <= 300 then 'TO_READ' else 'FINAL' end)::study_status,
      case when g % 50 = 7 then a.at end, a.at, a.at
    from generate_series(${STUDIES}::int, 1, -1) g
    cross join lateral (select ${NOW.toISOString()}::timestamptz - g * interval '12 minutes' as at) a`);
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const seeded: TSeededFacility[] = [];
  ({ organisationId, staffFacility, tokens } = await searchOrganisations(server, async (facility) => {
    seeded.push(facility);
    await seed(facility);
  }));
  otherFacility = seeded[1]?.id ?? '';
}, 120_000);

afterAll(async () => server.close());

/** The facility's studies of the range holding `text`: ids newest first, and each one's status. */
async function oracle(text: string) {
  return queryRows<{ id: string; status: string }>(
    server.db,
    sql`select id::text as id, status::text as status from studies
      where organisation_id = ${organisationId}::uuid and facility_id = ${staffFacility}::uuid
        and created_at >= ${FROM}::timestamptz and strpos(search_text, ${text}) > 0
      order by created_at desc, id desc`,
  );
}

const RANGE = `date_range_type=CUSTOM&start_date=${dayOf(25)}`;

describe('an admin’s search of a few facilities whose text most of the range holds', () => {
  it('walks the list in arrival order, the total capped; the deleted counted apart, exactly', async () => {
    const all = await oracle('brain');
    const listed = all.filter((row) => row.status !== 'DELETED').map((row) => row.id);
    const deleted = all.filter((row) => row.status === 'DELETED');
    expect(listed.length).toBeGreaterThan(WORKLIST_SEARCH_COUNT_CAP);
    expect(deleted.length).toBeGreaterThan(25);
    const query = `${RANGE}&facility_ids=${staffFacility}&search=brain`;
    for (const offset of [0, 250]) {
      await expectListedPage(server, tokens.admin, `${query}&limit=25&offset=${offset}`, listed, 'capped');
    }
    const counts = await countWorklist(server, tokens.admin, query);
    expect(counts.capped).toBe(true);
    expect(counts.groups.ALL).toBe(WORKLIST_SEARCH_COUNT_CAP + 1);
    expect({ deleted: counts.statuses.DELETED, capped: counts.deleted_capped }).toEqual({
      deleted: deleted.length,
      capped: false,
    });
    // The Deleted tab's own list: exactly those.
    const deletedIds = deleted.map((row) => row.id);
    await expectListedPage(server, tokens.admin, `${query}&statuses=DELETED&limit=25`, deletedIds, 'exact');
  });

  it('caps the Deleted count apart from the listed ones where more than the cap are deleted', async () => {
    // The other facility's 1,200 newest "brain" studies deleted, as the worklist's delete does.
    await server.db.execute(sql`update studies set status = 'DELETED', deleted_at = created_at
      where id in (select id from studies where facility_id = ${otherFacility}::uuid
        and strpos(search_text, 'brain') > 0 and status <> 'DELETED' order by created_at desc limit 1200)`);
    const counts = await countWorklist(
      server,
      tokens.admin,
      `${RANGE}&facility_ids=${otherFacility}&search=brain`,
    );
    expect({
      deleted: counts.statuses.DELETED,
      deletedCapped: counts.deleted_capped,
      listedCapped: counts.capped,
    }).toEqual({ deleted: WORKLIST_SEARCH_COUNT_CAP + 1, deletedCapped: true, listedCapped: false });
  });

  it('keeps a rare text’s counts exact, and another organisation out', async () => {
    const zebra = await oracle('zebra');
    const query = `${RANGE}&facility_ids=${staffFacility}&search=zebra`;
    const listed = zebra.filter((row) => row.status !== 'DELETED').map((row) => row.id);
    await expectListedPage(server, tokens.admin, `${query}&limit=5`, listed, 'exact');
    const counts = await countWorklist(server, tokens.admin, query);
    expect({ all: counts.groups.ALL, capped: counts.capped }).toEqual({ all: listed.length, capped: false });
    for (const path of ['/api/v1/worklist', '/api/v1/worklist/status/count']) {
      const foreign = await server.request('GET', `${path}?${query}`, { token: tokens.foreign });
      expect(foreign.status).toBe(404);
      expect(foreign.text).toContain('facility_ids');
    }
  });
});
