// A search sorted by a column whose first walk of the sort index (its budget estimated from the
// caller's share of the whole archive) did not hold the page: walked once more, four times as far
// (retriedPrefixOf), before its matches are collected. Here a reporter's own "chest" studies of the
// last 40 days, by last update, newest first: the group's 19,950 newest updates are other people's,
// so the first 20,000 entries hold 50 of the reporter's; before, their 2,600 matches were collected
// and counted exactly (a reporter's month at 1,000,000 studies: 100-180 ms; the walk found 95 of a
// page of 100). The pages are ORDER BY's, the total capped as the walk counts it; an admin naming
// the reporter gets the same pages; another organisation's admin gets 404.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReporterWorld } from '../../../test/reporter-world.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { idsInOrder, insertSpreadStudies } from '../../../test/spread-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { expectListedPage, listWorklist } from '../../../test/worklist-requests.ts';
import { retriedPrefixOf } from './worklist-prefix-budget.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
/** Longer than a range walked whole (WALK_DAYS_AT_MOST): its matches are not collected by a walk. */
const START = new Date(NOW.getTime() - 40 * 86_400_000).toISOString();
/**
 * Other people's studies of the range: a first walk's entries (PREFIX_SEARCH_ENTRIES, 20,000) hold 50
 * of the reporter's after them.
 */
const OTHERS = 19_950;
/** The reporter's own, all holding "chest": more than a range read whole (SEARCH_IN_RANGE_AT_MOST). */
const OWN = 2_600;

let server: TTestServer;
let organisationId = '';
let reporterId = '';
let tokens = { reporter: '', admin: '', foreign: '' };

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const world = await buildReporterWorld(server);
  ({ organisationId, reporterId, tokens } = world);
  const { facility } = world;
  const columns = {
    patientName: sql`'Patient ' || g`,
    patientIdentifier: sql`'P' || g`,
    modality: sql`'CR'`,
    modalityGroup: sql`'XRAY'`,
  };
  // The others arrive over the last five days (and are last updated so), the reporter's over the 33
  // days before: every other study comes first by last update.
  await seedingStudies(server.db, async () => {
    await insertSpreadStudies(server.db, [facility], OTHERS, {
      ...columns,
      accession: sql`'O' || g`,
      description: sql`'Abdomen'`,
      status: sql`(array['ORDERED','TO_READ','FINAL'])[1 + g % 3]`,
      arrival: sql`${NOW.toISOString()}::timestamptz - g * interval '18 seconds'`,
    });
    await insertSpreadStudies(server.db, [facility], OWN, {
      ...columns,
      accession: sql`'R' || g`,
      description: sql`'Chest PA'`,
      status: sql`(array['ASSIGNED','DRAFTED','FINAL'])[1 + g % 3]`,
      arrival: sql`${NOW.toISOString()}::timestamptz - interval '5 days 1 hour' - g * interval '18 minutes'`,
    });
    await server.db.execute(sql`update studies set last_assigned_user_id = ${reporterId}::uuid
      where organisation_id = ${organisationId}::uuid and accession_number like 'R%'`);
  });
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

function oracle() {
  const own = sql`organisation_id = ${organisationId}::uuid and last_assigned_user_id = ${reporterId}::uuid
    and created_at >= ${START}::timestamptz`;
  return idsInOrder(server.db, own, 'chest', 'updated_at', 'desc');
}

const query = (limit: number, offset: number) =>
  `date_range_type=CUSTOM&start_date=${START}&search=chest&sort_by=updated_at&sort_order=desc&limit=${limit}&offset=${offset}`;

describe('a sorted search whose first walk of the sort index did not hold the page', () => {
  it('walks it once more, four times as far, within a first walk’s bounds', () => {
    expect(retriedPrefixOf({ budget: 20_000, rows: 2_000 })).toEqual({ budget: 80_000, rows: 8_000 });
    expect(retriedPrefixOf({ budget: 60_000, rows: 4_000 })).toEqual({ budget: 100_000, rows: 10_000 });
    expect(retriedPrefixOf({ budget: 100_000, rows: 10_000 })).toBeNull();
    expect(retriedPrefixOf({ budget: 150_000, rows: 2_000 })).toEqual({ budget: 150_000, rows: 8_000 });
  });

  it('gives the reporter ORDER BY’s pages, the total counted up to the cap where a walk holds them', async () => {
    const want = await oracle();
    expect(want.length).toBe(OWN);
    // 50 of the 100 in the first walk: walked again. 25: the first walk holds them.
    await expectListedPage(server, tokens.reporter, query(100, 0), want, 'capped');
    await expectListedPage(server, tokens.reporter, query(25, 0), want, 'capped');
    // None of the page in the first walk: past the walk's matches, not walked again but collected.
    await expectListedPage(server, tokens.reporter, query(50, 300), want, 'exact');
  });

  it('gives an admin naming the reporter the same pages; another organisation 404', async () => {
    const want = await oracle();
    const named = `${query(100, 0)}&by_user_ids=${reporterId}`;
    const page = await listWorklist(server, tokens.admin, named);
    expect(page.items.map((item) => item.id)).toEqual(want.slice(0, 100));
    const foreign = await server.request('GET', `/api/v1/worklist?${named}`, { token: tokens.foreign });
    expect(foreign.status).toBe(404);
    const theirs = await listWorklist(server, tokens.foreign, query(100, 0));
    expect({ items: theirs.items, total: theirs.total }).toEqual({ items: [], total: 0 });
  });
});
