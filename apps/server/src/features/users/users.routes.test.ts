import { ROLES, ZUser, ZUserDetails } from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userFacilities } from '../../db/schema/index.ts';
import { buildFacility, buildOrganisation, buildUser, TEST_PASSWORD } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let server: TTestServer;
const token = new Map<string, string>();
type TUserRow = Awaited<ReturnType<typeof buildUser>>;
let f1: Awaited<ReturnType<typeof buildFacility>>;
let f2: Awaited<ReturnType<typeof buildFacility>>;
let admin: TUserRow;
let radiologist: TUserRow;
let reporter: TUserRow;
let transcriptionist: TUserRow;
let facilityAdmin: TUserRow;
let otherRadiologist: TUserRow;
let referrer: TUserRow;
let homeless: TUserRow;
let outsider: TUserRow;

async function signIn(user: TUserRow): Promise<string> {
  const response = await server.request('POST', '/api/v1/auth/sign-in', {
    body: { email: user.email, password: TEST_PASSWORD },
  });
  expect(response.status, response.text).toBe(200);
  return (response.json as { id_token: string }).id_token;
}

const as = (user: TUserRow) => token.get(user.id) ?? '';

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  f1 = await buildFacility(db, { organisationId: organisation.id, name: 'Alpha Hospital' });
  f2 = await buildFacility(db, {
    organisationId: organisation.id,
    name: 'Beta Imaging',
    parentFacilityId: f1.id,
  });
  admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  radiologist = await buildUser(db, {
    role: 'RADIOLOGIST',
    facilities: [f1],
    email: 'Asha.Rao@Example.test',
  });
  reporter = await buildUser(db, { role: 'RADIOLOGIST', userType: 'REPORTER', facilities: [f1, f2] });
  transcriptionist = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f1] });
  facilityAdmin = await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f1] });
  otherRadiologist = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f2] });
  referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id });
  homeless = await buildUser(db, { role: null, organisationId: null, facilities: [] });
  outsider = await buildUser(db, { role: 'ADMIN' });
  for (const user of [
    admin,
    radiologist,
    reporter,
    transcriptionist,
    facilityAdmin,
    otherRadiologist,
    referrer,
    homeless,
    outsider,
  ]) {
    token.set(user.id, await signIn(user));
  }
});
afterAll(async () => {
  await server.close();
});

describe('GET /user/{id}', () => {
  it('answers 401 without a token', async () => {
    const response = await server.request('GET', `/api/v1/user/${radiologist.id}`);
    expect(response.status).toBe(401);
  });

  it('returns one’s own user in the wire shape, without secrets', async () => {
    const response = await server.request('GET', `/api/v1/user/${radiologist.id}`, {
      token: as(radiologist),
    });
    expect(response.status).toBe(200);
    const user = ZUser.parse(response.json);
    expect(user).toMatchObject({
      id: radiologist.id,
      role: 'RADIOLOGIST',
      user_type: 'RADIOLOGIST',
      facility_fks: [f1.id],
    });
    expect(response.text).not.toMatch(/argon2|password/i);
  });

  it('lets an admin read every user of the organisation', async () => {
    for (const user of [radiologist, otherRadiologist, referrer, facilityAdmin]) {
      const response = await server.request('GET', `/api/v1/user/${user.id}`, { token: as(admin) });
      expect(response.status, user.email).toBe(200);
    }
  });

  it('lets staff read colleagues who share a facility, and admins, but no one else (404)', async () => {
    const colleague = await server.request('GET', `/api/v1/user/${transcriptionist.id}`, {
      token: as(radiologist),
    });
    expect(colleague.status).toBe(200);
    const adminOfOrg = await server.request('GET', `/api/v1/user/${admin.id}`, { token: as(radiologist) });
    expect(adminOfOrg.status).toBe(200);
    const elsewhere = await server.request('GET', `/api/v1/user/${otherRadiologist.id}`, {
      token: as(radiologist),
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.json).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('lets a referring physician read only themselves', async () => {
    expect((await server.request('GET', `/api/v1/user/${referrer.id}`, { token: as(referrer) })).status).toBe(
      200,
    );
    expect(
      (await server.request('GET', `/api/v1/user/${radiologist.id}`, { token: as(referrer) })).status,
    ).toBe(404);
  });

  it('answers 404 to a caller of another organisation, even an admin', async () => {
    const response = await server.request('GET', `/api/v1/user/${radiologist.id}`, { token: as(outsider) });
    expect(response.status).toBe(404);
  });

  it('answers 400 naming the field for a malformed id', async () => {
    const response = await server.request('GET', '/api/v1/user/not-a-uuid', { token: as(admin) });
    expect(response.status).toBe(400);
    expect((response.json as { error: { message: string } }).error.message).toContain('id');
  });
});

describe('GET /user/email/{email}', () => {
  it('finds a visible user case-insensitively', async () => {
    const response = await server.request(
      'GET',
      `/api/v1/user/email/${encodeURIComponent('asha.rao@EXAMPLE.test')}`,
      {
        token: as(transcriptionist),
      },
    );
    expect(response.status).toBe(200);
    expect(ZUser.parse(response.json).id).toBe(radiologist.id);
  });

  it('lets a user without an organisation fetch themselves (verification then refuses them)', async () => {
    const response = await server.request('GET', `/api/v1/user/email/${encodeURIComponent(homeless.email)}`, {
      token: as(homeless),
    });
    expect(response.status).toBe(200);
    expect(ZUser.parse(response.json)).toMatchObject({ organisation_fk: null, role: null });
    const other = await server.request('GET', `/api/v1/user/email/${encodeURIComponent(radiologist.email)}`, {
      token: as(homeless),
    });
    expect(other.status).toBe(404);
  });

  it('gives the same 404 for an unknown e-mail and for one outside the caller’s view', async () => {
    const unknown = await server.request('GET', '/api/v1/user/email/nobody%40example.test', {
      token: as(outsider),
    });
    const hidden = await server.request(
      'GET',
      `/api/v1/user/email/${encodeURIComponent(radiologist.email)}`,
      {
        token: as(outsider),
      },
    );
    expect(unknown.status).toBe(404);
    expect(hidden.status).toBe(404);
    expect(hidden.json).toEqual(unknown.json);
  });
});

describe('GET /user/details/{id}', () => {
  it('gives a radiologist’s details and facilities, and marks a reporter', async () => {
    const response = await server.request('GET', `/api/v1/user/details/${reporter.id}`, {
      token: as(reporter),
    });
    expect(response.status).toBe(200);
    const details = ZUserDetails.parse(response.json);
    expect(details.radiologist_details).toMatchObject({ user_type: 'REPORTER' });
    expect(details.radiologist_details?.facility_fks.sort()).toEqual([f1.id, f2.id].sort());
    expect(details.facilities.map((facility) => facility.name)).toEqual(['Alpha Hospital', 'Beta Imaging']);
    expect(details.transcriptionist_details).toBeNull();
  });

  it('gives transcriptionist and facility-admin details', async () => {
    const t = ZUserDetails.parse(
      (
        await server.request('GET', `/api/v1/user/details/${transcriptionist.id}`, {
          token: as(transcriptionist),
        })
      ).json,
    );
    expect(t.transcriptionist_details).toEqual({ facility_fks: [f1.id] });
    const fa = ZUserDetails.parse(
      (await server.request('GET', `/api/v1/user/details/${facilityAdmin.id}`, { token: as(facilityAdmin) }))
        .json,
    );
    expect(fa.facility_details).toMatchObject({ facility_fk: f1.id });
  });

  it('gives an admin every facility of the organisation', async () => {
    const details = ZUserDetails.parse(
      (await server.request('GET', `/api/v1/user/details/${admin.id}`, { token: as(admin) })).json,
    );
    expect(details.facilities.map((facility) => facility.id).sort()).toEqual([f1.id, f2.id].sort());
  });

  it('answers 404 across organisations', async () => {
    expect(
      (await server.request('GET', `/api/v1/user/details/${admin.id}`, { token: as(outsider) })).status,
    ).toBe(404);
  });

  it('never shows a facility of another organisation, even through a stale assignment', async () => {
    const foreign = await buildFacility(server.db, { name: 'Foreign Clinic' });
    await server.db.insert(userFacilities).values({ userId: transcriptionist.id, facilityId: foreign.id });
    const response = await server.request('GET', `/api/v1/user/details/${transcriptionist.id}`, {
      token: as(transcriptionist),
    });
    const details = ZUserDetails.parse(response.json);
    expect(details.facilities.map((facility) => facility.id)).toEqual([f1.id]);
    expect(details.facility_fks).toEqual([f1.id]);
    expect(response.text).not.toContain('Foreign Clinic');
  });
});

describe('GET /user/organisation/details/{id}', () => {
  it('gives an admin all facilities with the child facility ids', async () => {
    const response = await server.request(
      'GET',
      `/api/v1/user/organisation/details/${admin.organisationId}`,
      {
        token: as(admin),
      },
    );
    expect(response.status).toBe(200);
    const body = response.json as { all_facilities: { id: string }[]; child_facility_ids: string[] };
    expect(body.all_facilities.map((facility) => facility.id).sort()).toEqual([f1.id, f2.id].sort());
    expect(body.child_facility_ids).toEqual([f2.id]);
  });

  it('gives other staff only their own facilities', async () => {
    const response = await server.request(
      'GET',
      `/api/v1/user/organisation/details/${admin.organisationId}`,
      {
        token: as(radiologist),
      },
    );
    expect((response.json as { all_facilities: { id: string }[] }).all_facilities.map((f) => f.id)).toEqual([
      f1.id,
    ]);
  });

  it('answers 404 for another organisation, and for a user with none', async () => {
    const other = await server.request(
      'GET',
      `/api/v1/user/organisation/details/${outsider.organisationId}`,
      {
        token: as(admin),
      },
    );
    expect(other.status).toBe(404);
    const none = await server.request('GET', `/api/v1/user/organisation/details/${admin.organisationId}`, {
      token: as(homeless),
    });
    expect(none.status).toBe(404);
  });
});

describe('GET /user/details/{id}: capabilities', () => {
  const capabilitiesOf = async (caller: TUserRow, subject: TUserRow = caller) => {
    const response = await server.request('GET', `/api/v1/user/details/${subject.id}`, { token: as(caller) });
    expect(response.status, response.text).toBe(200);
    return ZUserDetails.parse(response.json).capabilities;
  };
  const NONE = {
    create_order: false,
    assign_anyone: false,
    assign_self: false,
    tag_studies: false,
    use_templates: false,
    create_organisation_templates: false,
    manage_users: false,
    assignable_roles: [],
    manage_archives: false,
  };

  it('tells each signed-in user what they may do at all, from the policies', async () => {
    expect(await capabilitiesOf(referrer)).toEqual(NONE);
    expect(await capabilitiesOf(admin)).toEqual({
      ...NONE,
      create_order: true,
      assign_anyone: true,
      tag_studies: true,
      use_templates: true,
      create_organisation_templates: true,
      manage_users: true,
      assignable_roles: [...ROLES],
      manage_archives: true,
    });
    expect(await capabilitiesOf(facilityAdmin)).toEqual({
      ...NONE,
      create_order: true,
      assign_anyone: true,
      tag_studies: true,
      use_templates: true,
      manage_users: true,
      assignable_roles: ['TRANSCRIPTIONIST', 'REFERRING_PHYSICIAN'],
    });
    expect(await capabilitiesOf(radiologist)).toEqual({
      ...NONE,
      assign_self: true,
      tag_studies: true,
      use_templates: true,
    });
    expect(await capabilitiesOf(transcriptionist)).toEqual({
      ...NONE,
      create_order: true,
      tag_studies: true,
      use_templates: true,
    });
  });

  it('sends none on someone else’s details', async () => {
    expect(await capabilitiesOf(admin, radiologist)).toBeNull();
  });
});
