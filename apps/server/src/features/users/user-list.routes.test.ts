import { ZUserList, ZUserPickerList, type TUserList } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import { buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { buildUserAdminWorld, type TUserAdminWorld } from '../../test/user-admin-world.ts';

let server: TTestServer;
let w: TUserAdminWorld;

beforeAll(async () => {
  server = await startTestServer();
  w = await buildUserAdminWorld(server);
});
afterAll(async () => {
  await server.close();
});

const list = async (path: string, user: Parameters<TUserAdminWorld['get']>[0] = 'admin') => {
  const response = await w.get(user, path);
  expect(response.status, response.text).toBe(200);
  return ZUserList.parse(response.json);
};
const ids = (page: TUserList) => page.items.map((user) => user.id);
const byId = (page: TUserList, id: string) => page.items.find((user) => user.id === id);

describe('GET /user', () => {
  it("gives an admin every user of the organisation, 10 a page, with the admin's abilities", async () => {
    const first = await list('/user');
    expect(first).toMatchObject({ total: 7, limit: 10, offset: 0, next_offset: null, previous_offset: null });
    expect(ids(first)).not.toContain(w.users.outsider.id);
    const radiologist = byId(first, w.users.radiologist.id);
    expect(radiologist).toMatchObject({
      role: 'RADIOLOGIST',
      user_type: 'RADIOLOGIST',
      facility_fks: [w.f1.id],
      radiologist_details: { user_type: 'RADIOLOGIST', facility_fks: [w.f1.id] },
      transcriptionist_details: null,
      invitation_pending: false,
      signature_url: null,
      abilities: { edit: true, disable: true, reset_password: true, resend_invitation: false },
    });
    expect(JSON.stringify(first)).not.toMatch(/password_hash|argon2/);
    // Oneself: edit one's own details only.
    expect(byId(first, w.users.admin.id)?.abilities).toEqual({
      edit: true,
      disable: false,
      reset_password: false,
      resend_invitation: false,
    });
    const paged = await list('/user?limit=3&offset=3');
    expect(paged).toMatchObject({ total: 7, limit: 3, offset: 3, next_offset: 6, previous_offset: 0 });
    expect(paged.items).toHaveLength(3);
  });

  it('filters by search (names and e-mail, any case), role, status and facilities', async () => {
    expect(ids(await list('/user?search=dr%20RAO'))).toEqual([w.users.radiologist.id]);
    expect(ids(await list(`/user?search=${w.users.referrer.email.toUpperCase()}`))).toEqual([
      w.users.referrer.id,
    ]);
    expect(ids(await list('/user?search=50%25_off'))).toEqual([]);
    expect(new Set(ids(await list('/user?role=TRANSCRIPTIONIST')))).toEqual(
      new Set([w.users.transcriptionist.id, w.users.transcriptionistF2.id]),
    );
    expect(ids(await list(`/user?facility_ids=${w.f2.id}`))).toEqual([w.users.transcriptionistF2.id]);
    expect((await list(`/user?facility_ids=${w.f1.id}&facility_ids=${w.f2.id}`)).total).toBe(5);
    expect((await list('/user?status=INACTIVE')).total).toBe(0);
    expect((await list(`/user?organisation_id=${w.organisationId}`)).total).toBe(7);
  });

  it("gives a facility admin their facility's users, managing only its transcriptionists and referrers", async () => {
    const page = await list('/user', 'facilityAdmin');
    expect(new Set(ids(page))).toEqual(
      new Set([
        w.users.facilityAdmin.id,
        w.users.radiologist.id,
        w.users.transcriptionist.id,
        w.users.referrer.id,
      ]),
    );
    const abilities = (id: string) => byId(page, id)?.abilities;
    expect(abilities(w.users.transcriptionist.id)).toMatchObject({ edit: true, disable: true });
    expect(abilities(w.users.referrer.id)).toMatchObject({ edit: true, disable: true });
    expect(abilities(w.users.radiologist.id)).toEqual({
      edit: false,
      disable: false,
      reset_password: false,
      resend_invitation: false,
    });
    expect(byId(page, w.users.facilityAdmin.id)).toMatchObject({
      facility_details: { facility_fk: w.f1.id },
      abilities: { edit: true, disable: false },
    });
  });

  it('refuses radiologists, transcriptionists and referrers (403) and another organisation (404)', async () => {
    for (const user of ['radiologist', 'transcriptionist', 'referrer'] as const) {
      const response = await w.get(user, '/user');
      expect(response.status, user).toBe(403);
      expect(response.json).toMatchObject({ error: { code: 'FORBIDDEN' } });
    }
    const foreign = await w.get('outsider', `/user?organisation_id=${w.organisationId}`);
    expect(foreign.status).toBe(404);
    const own = await list('/user', 'outsider');
    expect(ids(own)).toEqual([w.users.outsider.id]);
    expect((await server.request('GET', '/api/v1/user')).status).toBe(401);
  });

  it('answers 400 naming the parameter for bad input', async () => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['offset=-1', 'offset'],
      ['role=KING', 'role'],
      ['status=GONE', 'status'],
      ['facility_ids=nope', 'facility_ids'],
      ['organisation_id=nope', 'organisation_id'],
    ]) {
      const response = await w.get('admin', `/user?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.text, query).toContain(field);
    }
  });
});

describe('GET /user/all/{organisation id}', () => {
  it('lists the active users in short for pickers, scoped like GET /user', async () => {
    const inactive = await buildUser(server.db, {
      role: 'TRANSCRIPTIONIST',
      facilities: [w.f1],
      status: 'INACTIVE',
    });
    try {
      const response = await w.get('admin', `/user/all/${w.organisationId}`);
      expect(response.status, response.text).toBe(200);
      const { items } = ZUserPickerList.parse(response.json);
      expect(items.map((item) => item.id)).not.toContain(inactive.id);
      expect(items).toHaveLength(7);
      expect(items.find((item) => item.id === w.users.radiologist.id)).toEqual({
        id: w.users.radiologist.id,
        display_name: 'Dr Rao',
        role: 'RADIOLOGIST',
        user_type: 'RADIOLOGIST',
        facility_fks: [w.f1.id],
      });
      const mine = ZUserPickerList.parse(
        (await w.get('facilityAdmin', `/user/all/${w.organisationId}`)).json,
      );
      expect(mine.items).toHaveLength(4);
      expect((await w.get('radiologist', `/user/all/${w.organisationId}`)).status).toBe(403);
      expect((await w.get('outsider', `/user/all/${w.organisationId}`)).status).toBe(404);
      expect((await w.get('admin', '/user/all/not-a-uuid')).status).toBe(400);
    } finally {
      await server.db.delete(users).where(eq(users.id, inactive.id));
    }
  });
});
