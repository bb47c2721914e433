// A search sorted by study description or modality, whose sort indexes the modality group leads, for
// a text every group holds: the walk reads every group, so its entries are a plain walk's, widened
// past the first 20,000 where the caller's share of them needs it (prefixBudget). Here a reporter's
// own studies (2,300 of 22,300), each patient id holding "mrn" as every study's does: their page at
// offset 2,200 by description lies past the first 20,000 entries, which hold some 2,060 of theirs.
// Before, the walk read those 20,000 only, held none of the page, and the 2,300 matches were
// collected (a reporter's "mrn" at 1,000,000 studies by description at offset 900: 185 ms; walked,
// 47). The pages are ORDER BY's; an admin naming the reporter gets the same; another organisation's
// admin gets 404.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReporterWorld } from '../../../test/reporter-world.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { idsInOrder, insertSpreadStudies } from '../../../test/spread-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { expectListedPage, listWorklist } from '../../../test/worklist-requests.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const OTHERS = 20_000;
/** The reporter's own: more than a range read whole (SEARCH_IN_RANGE_AT_MOST) and the page's end. */
const OWN = 2_300;

let server: TTestServer;
let organisationId = '';
let reporterId = '';
let tokens = { reporter: '', admin: '', foreign: '' };

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const world = await buildReporterWorld(server);
  ({ organisationId, reporterId, tokens } = world);
  const { facility } = world;
  // Every study's patient id holds "MRN"; descriptions and every modality group interleave the
  // reporter's studies with the others' in both sort indexes. The reporter's arrive over the last 29
  // days (a staff member's count walks their newest 31), the others' over 42.
  const columns = (prefix: string, seconds: number) => ({
    accession: sql`${prefix} || g`,
    patientName: sql`'Patient ' || g`,
    patientIdentifier: sql`'MRN' || ${prefix} || lpad(g::text, 6, '0')`,
    description: sql`(array['Abdomen','Chest PA','Head','Knee','Spine'])[1 + g % 7 % 5] || ' ' || (g % 97)`,
    modality: sql`(array['US','CR','CT','MR','NM'])[1 + g % 5]`,
    modalityGroup: sql`(array['USG','XRAY','CT','MRI','NM'])[1 + g % 5]`,
    status: sql`(array['ORDERED','TO_READ','FINAL'])[1 + g % 3]`,
    arrival: sql`${NOW.toISOString()}::timestamptz - g * ${`${seconds} seconds`}::interval`,
  });
  await seedingStudies(server.db, async () => {
    await insertSpreadStudies(server.db, [facility], OTHERS, columns('O', 180));
    await insertSpreadStudies(server.db, [facility], OWN, columns('R', 1_080));
    await server.db.execute(sql`update studies set last_assigned_user_id = ${reporterId}::uuid,
        status = 'ASSIGNED'
      where organisation_id = ${organisationId}::uuid and accession_number like 'R%'`);
  });
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

function oracle(column: string, direction: 'asc' | 'desc') {
  const own = sql`organisation_id = ${organisationId}::uuid and last_assigned_user_id = ${reporterId}::uuid`;
  return idsInOrder(server.db, own, 'mrn', column, direction);
}

const query = (by: string, direction: string, offset: number) =>
  `date_range_type=CUSTOM&search=mrn&sort_by=${by}&sort_order=${direction}&limit=25&offset=${offset}`;

describe('a search every modality group holds, sorted by a group-led column', () => {
  it('walks the reporter’s page past the first 20,000 entries, the total counted one past it', async () => {
    for (const [by, column, direction] of [
      ['study', 'study_description', 'asc'],
      ['study', 'study_description', 'desc'],
      ['modality', 'modality', 'asc'],
    ] as const) {
      const want = await oracle(column, direction);
      expect(want.length).toBe(OWN);
      await expectListedPage(server, tokens.reporter, query(by, direction, 2_200), want, 'capped');
      await expectListedPage(server, tokens.reporter, query(by, direction, 100), want, 'capped');
    }
  });

  it('gives an admin naming the reporter the same page; another organisation 404', async () => {
    const want = await oracle('study_description', 'asc');
    const named = `${query('study', 'asc', 2_200)}&by_user_ids=${reporterId}`;
    const page = await listWorklist(server, tokens.admin, named);
    expect(page.items.map((item) => item.id)).toEqual(want.slice(2_200, 2_225));
    const foreign = await server.request('GET', `/api/v1/worklist?${named}`, { token: tokens.foreign });
    expect(foreign.status).toBe(404);
    const theirs = await listWorklist(server, tokens.foreign, query('study', 'asc', 0));
    expect({ items: theirs.items, total: theirs.total }).toEqual({ items: [], total: 0 });
  });
});
