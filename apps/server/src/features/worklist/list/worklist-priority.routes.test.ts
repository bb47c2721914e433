// GET /worklist and /worklist/status/count filtered by priority_tags (issue 15: "EMERGENCY and URGENT
// of the last week"): the list, its total and the tab counts for an admin and for staff limited to
// facilities; nothing of another organisation; a bad tag is a 400 naming priority_tags. The count
// cache stays on, and an unfiltered count is always read first: a key without the tags would serve it.
import type { TPriorityTag, TStudyStatus, TWorklistListResponse, TWorklistStatusCounts } from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';

const NOW = new Date('2024-05-10T12:00:00Z');
const HOUR = 3_600_000;
let server: TTestServer;
const tokens = { admin: '', radiologist: '', outsider: '' };
const id: Record<string, string> = {};
let facility: Record<'f1' | 'f2' | 'f3', string>;

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const db = server.db;
  const organisation = await buildOrganisation(db);
  const [f1, f2, f3] = [
    await buildFacility(db, { organisationId: organisation.id }),
    await buildFacility(db, { organisationId: organisation.id }),
    await buildFacility(db, { organisationId: organisation.id }),
  ];
  facility = { f1: f1.id, f2: f2.id, f3: f3.id };
  const elsewhere = await buildFacility(db);
  tokens.admin = await tokenFor(
    server,
    await buildUser(db, { role: 'ADMIN', organisationId: organisation.id }),
  );
  tokens.radiologist = await tokenFor(server, await buildUser(db, { facilities: [f1, f2] }));
  tokens.outsider = await tokenFor(
    server,
    await buildUser(db, { role: 'ADMIN', organisationId: elsewhere.organisationId }),
  );
  // Several days back, so the counts add whole days of the rollup to the partial edge days.
  const studies: [string, typeof f1, TPriorityTag | null, TStudyStatus, number][] = [
    ['emergencyF1', f1, 'EMERGENCY', 'TO_READ', 50],
    ['urgentF2', f2, 'URGENT', 'FINAL', 1],
    ['urgentF3', f3, 'URGENT', 'ORDERED', 75],
    ['routineF1', f1, 'ROUTINE', 'TO_READ', 26],
    ['untaggedF1', f1, null, 'TO_READ', 30],
    ['untaggedF2', f2, null, 'ASSIGNED', 100],
    ['emergencyOld', f1, 'EMERGENCY', 'FINAL', 20 * 24],
    ['emergencyElsewhere', elsewhere, 'EMERGENCY', 'TO_READ', 5],
  ];
  for (const [key, at, priorityTag, status, hoursAgo] of studies) {
    const createdAt = new Date(NOW.getTime() - hoursAgo * HOUR);
    id[key] = (
      await buildStudy(db, { facility: at, priorityTag, status, createdAt, updatedAt: createdAt })
    ).id;
  }
});

afterAll(async () => server.close());

const names = (items: { id: string }[]) => {
  const byId = Object.fromEntries(Object.entries(id).map(([key, value]) => [value, key]));
  return items.map((item) => byId[item.id] ?? item.id).sort();
};

async function read(who: keyof typeof tokens, filters: string) {
  const query = `date_range_type=LAST_1_WEEK&${filters}`;
  const list = await server.request('GET', `/api/v1/worklist?${query}&limit=50`, { token: tokens[who] });
  expect(list.status, list.text).toBe(200);
  const counts = await server.request('GET', `/api/v1/worklist/status/count?${query}`, {
    token: tokens[who],
  });
  expect(counts.status, counts.text).toBe(200);
  const page = list.json as TWorklistListResponse;
  const { statuses, groups } = counts.json as TWorklistStatusCounts;
  const nonZero = Object.fromEntries(Object.entries(statuses).filter(([, count]) => count > 0));
  return { items: names(page.items), total: page.total, statuses: nonZero, all: groups.ALL };
}

const URGENT_OR_EMERGENCY = 'priority_tags=URGENT&priority_tags=EMERGENCY';

describe('GET /worklist and /worklist/status/count by priority_tags', () => {
  it('lists and counts only the studies with one of the tags, for an admin', async () => {
    const unfiltered = await read('admin', '');
    expect(unfiltered.total).toBe(6);
    expect(await read('admin', URGENT_OR_EMERGENCY)).toEqual({
      items: ['emergencyF1', 'urgentF2', 'urgentF3'],
      total: 3,
      statuses: { TO_READ: 1, FINAL: 1, ORDERED: 1 },
      all: 3,
    });
    expect(await read('admin', 'priority_tags=ROUTINE')).toEqual({
      items: ['routineF1'],
      total: 1,
      statuses: { TO_READ: 1 },
      all: 1,
    });
    // Asked again (from the cache now), the answers are the same.
    expect(await read('admin', '')).toEqual(unfiltered);
    expect((await read('admin', URGENT_OR_EMERGENCY)).total).toBe(3);
  });

  it('keeps a staff member within their facilities, with and without a facility filter', async () => {
    expect((await read('radiologist', '')).total).toBe(5);
    expect(await read('radiologist', URGENT_OR_EMERGENCY)).toEqual({
      items: ['emergencyF1', 'urgentF2'],
      total: 2,
      statuses: { TO_READ: 1, FINAL: 1 },
      all: 2,
    });
    expect(await read('radiologist', `${URGENT_OR_EMERGENCY}&facility_ids=${facility.f2}`)).toEqual({
      items: ['urgentF2'],
      total: 1,
      statuses: { FINAL: 1 },
      all: 1,
    });
  });

  it('shows a caller of another organisation none of these studies', async () => {
    expect(await read('outsider', URGENT_OR_EMERGENCY)).toEqual({
      items: ['emergencyElsewhere'],
      total: 1,
      statuses: { TO_READ: 1 },
      all: 1,
    });
    expect(await read('outsider', 'priority_tags=URGENT')).toEqual({
      items: [],
      total: 0,
      statuses: {},
      all: 0,
    });
  });

  it('answers 400 naming priority_tags for a tag that does not exist', async () => {
    for (const path of ['/api/v1/worklist', '/api/v1/worklist/status/count']) {
      const response = await server.request('GET', `${path}?priority_tags=URGENT&priority_tags=NOPE`, {
        token: tokens.admin,
      });
      expect(response.status, response.text).toBe(400);
      const body = response.json as {
        error: { code: string; message: string; details?: { fields?: { field: string }[] } };
      };
      expect(body.error.message).toContain('priority_tags');
      expect(body.error.details?.fields?.map((entry) => entry.field.split('.')[0])).toContain(
        'priority_tags',
      );
    }
  });
});
