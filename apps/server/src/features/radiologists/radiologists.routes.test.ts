import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let server: TTestServer;
type TUser = Awaited<ReturnType<typeof buildUser>>;
type TFacility = Awaited<ReturnType<typeof buildFacility>>;
const u = {} as Record<
  'admin' | 'facilityAdmin' | 'radA' | 'reporterB' | 'inactive' | 'referrer' | 'outsider',
  TUser
>;
const tokens = new Map<string, string>();
const as = (user: TUser) => tokens.get(user.id) ?? '';
let f1: TFacility;
let f2: TFacility;

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  f1 = await buildFacility(db, { organisationId: organisation.id });
  f2 = await buildFacility(db, { organisationId: organisation.id });
  u.admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  u.facilityAdmin = await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f1] });
  u.radA = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1], displayName: 'Dr Ávila' });
  u.reporterB = await buildUser(db, {
    role: 'RADIOLOGIST',
    userType: 'REPORTER',
    facilities: [f2],
    displayName: 'Dr Bose',
  });
  u.inactive = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1], status: 'INACTIVE' });
  u.referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id });
  u.outsider = await buildUser(db, { role: 'ADMIN' });
  await buildUser(db, { role: 'RADIOLOGIST' });
  for (const user of [u.admin, u.facilityAdmin, u.referrer, u.outsider])
    tokens.set(user.id, await tokenFor(server, user));
});

afterAll(async () => {
  await server.close();
});

const active = (user: TUser, query = '') =>
  server.request('GET', `/api/v1/radiologist/active${query}`, { token: as(user) });

describe('GET /radiologist/active', () => {
  it('lists the organisation’s active radiologists with their type, within the caller’s facilities', async () => {
    const all = await active(u.admin);
    expect(all.status, all.text).toBe(200);
    expect(all.json).toMatchObject([
      { id: u.radA.id, user_type: 'RADIOLOGIST', facility_fks: [f1.id] },
      { id: u.reporterB.id, user_type: 'REPORTER', facility_fks: [f2.id] },
    ]);
    expect(await active(u.facilityAdmin).then((r) => r.json)).toMatchObject([{ id: u.radA.id }]);
    expect((await active(u.admin, `?facility_ids=${f2.id}`)).json).toMatchObject([{ id: u.reporterB.id }]);
    expect((await active(u.admin, '?search=avila')).json).toMatchObject([{ id: u.radA.id }]);
    expect((await active(u.outsider)).json).toEqual([]);
  });

  it('refuses another organisation’s ids and referring physicians', async () => {
    const org = await active(u.admin, `?organisation_id=${u.outsider.organisationId}`);
    expect(org.status).toBe(404);
    expect(org.text).toContain('organisation_id');
    const facility = await active(u.facilityAdmin, `?facility_ids=${f2.id}`);
    expect(facility.status).toBe(404);
    expect(facility.text).toContain('facility_ids');
    expect((await active(u.referrer)).status).toBe(403);
  });
});
