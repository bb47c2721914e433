// GET /worklist and /worklist/status/count: what each role sees, and bad input answering 4xx that
// names the field.
import type { TWorklistListResponse, TWorklistStatusCounts } from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../../db/schema/index.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';

type TUserRow = Awaited<ReturnType<typeof buildUser>>;
let server: TTestServer;
const id: Record<string, string> = {};
const tokens = new Map<string, string>();
let users: Record<
  'admin' | 'facilityAdmin' | 'radiologist' | 'reporter' | 'referrer' | 'outsider' | 'otherRadiologist',
  TUserRow
>;
let facility: Record<'f1' | 'f2' | 'f3' | 'elsewhere', string>;

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  const [f1, f2, f3] = [
    await buildFacility(db, { organisationId: organisation.id }),
    await buildFacility(db, { organisationId: organisation.id }),
    await buildFacility(db, { organisationId: organisation.id }),
  ];
  const elsewhere = await buildFacility(db);
  facility = { f1: f1.id, f2: f2.id, f3: f3.id, elsewhere: elsewhere.id };
  const referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id });
  users = {
    admin: await buildUser(db, { role: 'ADMIN', organisationId: organisation.id }),
    facilityAdmin: await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f1] }),
    radiologist: await buildUser(db, { facilities: [f1, f2] }),
    reporter: await buildUser(db, { userType: 'REPORTER', facilities: [f1, f2] }),
    otherRadiologist: await buildUser(db, { facilities: [f3] }),
    referrer,
    outsider: await buildUser(db, { role: 'ADMIN', organisationId: elsewhere.organisationId }),
  };
  const [physician] = await db
    .insert(t.referringPhysicians)
    .values({ organisationId: organisation.id, userId: referrer.id, name: 'Dr Referrer' })
    .returning();
  const studies = {
    byReporter: { facility: f1, status: 'ASSIGNED', lastAssignedUserId: users.reporter.id },
    byRadiologist: { facility: f2, status: 'DRAFTED', lastAssignedUserId: users.radiologist.id },
    f3: { facility: f3, status: 'TO_READ' },
    referred: { facility: f3, status: 'FINAL', referringPhysicianId: physician?.id ?? null },
    unassigned: { facility: f1, status: 'ORDERED' },
    deleted: { facility: f1, status: 'DELETED' },
    outside: { facility: elsewhere, status: 'TO_READ' },
  } as const;
  for (const [key, values] of Object.entries(studies)) id[key] = (await buildStudy(db, values)).id;
  for (const user of Object.values(users)) tokens.set(user.id, await tokenFor(server, user));
});

afterAll(async () => server.close());

const names = () => Object.fromEntries(Object.entries(id).map(([key, value]) => [value, key]));

async function get(user: TUserRow, path: string) {
  return server.request('GET', `/api/v1${path}`, { token: tokens.get(user.id) ?? '' });
}

async function visible(user: TUserRow, query = ''): Promise<string[]> {
  const response = await get(user, `/worklist?limit=100&${query}`);
  expect(response.status, response.text).toBe(200);
  const body = response.json as TWorklistListResponse;
  expect(body.total).toBe(body.items.length);
  const byId = names();
  return body.items.map((item) => byId[item.id] ?? item.id).sort();
}

async function groups(user: TUserRow, query = ''): Promise<TWorklistStatusCounts['groups']> {
  const response = await get(user, `/worklist/status/count?${query}`);
  expect(response.status, response.text).toBe(200);
  return (response.json as TWorklistStatusCounts).groups;
}

describe('GET /worklist role scoping', () => {
  it('admin: every facility of the organisation, nothing of another', async () => {
    expect(await visible(users.admin)).toEqual([
      'byRadiologist',
      'byReporter',
      'f3',
      'referred',
      'unassigned',
    ]);
    expect(await groups(users.admin)).toEqual({ ALL: 5, ORDERED: 1, ON_PROGRESS: 3, COMPLETED: 1 });
    expect(await visible(users.outsider)).toEqual(['outside']);
  });

  it('facility admin: their facility only', async () => {
    expect(await visible(users.facilityAdmin)).toEqual(['byReporter', 'unassigned']);
  });

  it('radiologist with 2 of 3 facilities: those two; the third as a filter is 404 naming facility_ids', async () => {
    expect(await visible(users.radiologist)).toEqual(['byRadiologist', 'byReporter', 'unassigned']);
    expect(await visible(users.radiologist, `facility_ids=${facility.f2}`)).toEqual(['byRadiologist']);
    const response = await get(
      users.radiologist,
      `/worklist?facility_ids=${facility.f1}&facility_ids=${facility.f3}`,
    );
    expect(response.status).toBe(404);
    expect(response.text).toContain('facility_ids');
    expect(await groups(users.radiologist)).toEqual({ ALL: 3, ORDERED: 1, ON_PROGRESS: 2, COMPLETED: 0 });
  });

  it('reporter: their own id is always added to by_user_ids', async () => {
    expect(await visible(users.reporter)).toEqual(['byReporter']);
    expect(await visible(users.reporter, `by_user_ids=${users.radiologist.id}`)).toEqual([
      'byRadiologist',
      'byReporter',
    ]);
    expect(await groups(users.reporter)).toEqual({ ALL: 1, ORDERED: 0, ON_PROGRESS: 1, COMPLETED: 0 });
  });

  it('referring physician: only the studies they referred, in any facility', async () => {
    expect(await visible(users.referrer)).toEqual(['referred']);
    expect(await visible(users.referrer, `facility_ids=${facility.f3}`)).toEqual(['referred']);
    expect(await visible(users.referrer, `facility_ids=${facility.f1}`)).toEqual([]);
    expect(await groups(users.referrer)).toEqual({ ALL: 1, ORDERED: 0, ON_PROGRESS: 0, COMPLETED: 1 });
    expect((await get(users.referrer, `/worklist?facility_ids=${facility.elsewhere}`)).status).toBe(404);
  });

  it('another organisation: its facilities and users are 404 naming the field', async () => {
    for (const path of ['/worklist', '/worklist/status/count']) {
      const byFacility = await get(users.outsider, `${path}?facility_ids=${facility.f1}`);
      expect(byFacility.status).toBe(404);
      expect(byFacility.text).toContain('facility_ids');
      const byUser = await get(users.outsider, `${path}?by_user_ids=${users.radiologist.id}`);
      expect(byUser.status).toBe(404);
      expect(byUser.text).toContain('by_user_ids');
    }
  });

  it('deleted studies: admins only, when asked for', async () => {
    expect(await visible(users.admin, 'statuses=DELETED')).toEqual(['deleted']);
    const refused = await get(users.radiologist, '/worklist?statuses=DELETED');
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('statuses');
    const admin = (await get(users.admin, '/worklist/status/count')).json as TWorklistStatusCounts;
    const radiologist = (await get(users.radiologist, '/worklist/status/count'))
      .json as TWorklistStatusCounts;
    expect([admin.statuses.DELETED, radiologist.statuses.DELETED]).toEqual([1, 0]);
  });

  it('answers 401 without a token', async () => {
    expect((await server.request('GET', '/api/v1/worklist')).status).toBe(401);
    expect((await server.request('GET', '/api/v1/worklist/status/count')).status).toBe(401);
  });
});

describe('GET /worklist bad input → 400 naming the field', () => {
  const cases: [string, string][] = [
    ['sort_by=patient_name;drop', 'sort_by'],
    ['sort_by=search_text', 'sort_by'],
    ['sort_order=up', 'sort_order'],
    ['limit=-1', 'limit'],
    ['limit=0', 'limit'],
    ['limit=100000', 'limit'],
    ['limit=ten', 'limit'],
    ['offset=-5', 'offset'],
    ['date_range_type=CUSTOM&start_date=2024-13-01', 'start_date'],
    ['date_range_type=CUSTOM&start_date=2024-02-30', 'start_date'],
    ['date_range_type=CUSTOM&end_date=yesterday', 'end_date'],
    ['date_range_type=CUSTOM&start_date=2024-05-02&end_date=2024-05-01', 'start_date'],
    ['date_range_type=CUSTOM&start_date=2024-05-01T10:00:00Z&end_date=2024-05-01T09:59:59Z', 'start_date'],
    // Instants past the years 0001–9999 (PostgreSQL reads no other ISO year): a 500 or a 400 naming
    // no field before.
    ['date_range_type=CUSTOM&start_date=9999-12-31&time_zone=America/New_York', 'start_date'],
    ['date_range_type=CUSTOM&start_date=9999-12-31T23:00:00-05:00', 'start_date'],
    ['date_range_type=CUSTOM&end_date=9999-12-31', 'end_date'],
    ['date_range_type=CUSTOM&start_date=0001-01-01T00:00:00%2B01:00', 'start_date'],
    ['date_range_type=CUSTOM&start_date=0001-01-01&time_zone=Asia/Kolkata', 'start_date'],
    ['date_range_type=CUSTOM&end_date=0099-12-31T23:59:59Z', 'end_date'],
    ['date_range_type=LAST_YEAR', 'date_range_type'],
    ['time_zone=Mars/Olympus_Mons', 'time_zone'],
    ['statuses=ORDERED&statuses=LOST', 'statuses'],
    ['modalities=PET', 'modalities'],
    ['facility_ids=not-a-uuid', 'facility_ids'],
    ['by_user_ids=42', 'by_user_ids'],
    [`search=${'x'.repeat(201)}`, 'search'],
    ['search=smi%00th', 'search'],
  ];
  for (const [query, field] of cases) {
    it(`${query.slice(0, 60)} → ${field}`, async () => {
      const response = await get(users.admin, `/worklist?${query}`);
      expect(response.status, response.text).toBe(400);
      const body = response.json as {
        error: { message: string; details?: { fields?: { field: string }[] } };
      };
      expect(body.error.message).toContain(field);
      expect(body.error.details?.fields?.some((entry) => entry.field.startsWith(field))).toBe(true);
    });
  }

  it('accepts bounds up to the edge of the range in any time zone', async () => {
    for (const query of [
      'start_date=9998-12-31&time_zone=Pacific/Pago_Pago',
      'end_date=9998-12-30&time_zone=Pacific/Kiritimati',
      `start_date=${encodeURIComponent('0100-01-01T00:00:00Z')}`,
      'start_date=0100-01-01',
    ]) {
      for (const path of ['/worklist', '/worklist/status/count']) {
        const response = await get(users.admin, `${path}?date_range_type=CUSTOM&${query}`);
        expect({ path, query, status: response.status }).toEqual({ path, query, status: 200 });
      }
    }
  });

  it('the count endpoint validates the same filters', async () => {
    const response = await get(
      users.admin,
      '/worklist/status/count?date_range_type=CUSTOM&start_date=2024-05-02&end_date=2024-05-01',
    );
    expect(response.status).toBe(400);
    expect(response.text).toContain('start_date');
    expect((await get(users.admin, '/worklist/status/count?modalities=PET')).status).toBe(400);
    const late = await get(
      users.admin,
      '/worklist/status/count?date_range_type=CUSTOM&start_date=9999-12-31&time_zone=America/New_York',
    );
    expect(late.status, late.text).toBe(400);
    expect(late.text).toContain('start_date');
  });
});
