import type { TMacro, TMacroList } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let server: TTestServer;
type TUser = Awaited<ReturnType<typeof buildUser>>;
const u = {} as Record<
  'admin' | 'facilityAdmin' | 'rad' | 'rad2' | 'transcriptionist' | 'referrer' | 'outsider' | 'outsiderRad',
  TUser
>;
const tokens = new Map<string, string>();
const as = (user: TUser) => tokens.get(user.id) ?? '';

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  const f1 = await buildFacility(db, { organisationId: organisation.id });
  u.admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  u.facilityAdmin = await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f1] });
  u.rad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] });
  u.rad2 = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] });
  u.transcriptionist = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f1] });
  u.referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id });
  u.outsider = await buildUser(db, { role: 'ADMIN' });
  u.outsiderRad = await buildUser(db, { role: 'RADIOLOGIST' });
  for (const user of Object.values(u)) tokens.set(user.id, await tokenFor(server, user));
});

afterAll(async () => {
  await server.close();
});

const create = (user: TUser, body: object) =>
  server.request('POST', '/api/v1/radiologist/macro', { token: as(user), body });
const listOf = (user: TUser, owner: TUser) =>
  server.request('GET', `/api/v1/radiologist/macros/${owner.id}`, { token: as(user) });
const patch = (user: TUser, id: string, body: object) =>
  server.request('PATCH', `/api/v1/radiologist/macro/${id}`, { token: as(user), body });
const remove = (user: TUser, id: string) =>
  server.request('DELETE', `/api/v1/radiologist/macro/${id}`, { token: as(user) });
const allMacros = () => server.db.select().from(t.macros).orderBy(t.macros.id);

async function created(user: TUser, body: object): Promise<TMacro> {
  const response = await create(user, body);
  expect(response.status, response.text).toBe(201);
  return response.json as TMacro;
}

describe('POST /radiologist/macro', () => {
  it('creates a macro for oneself with a sanitised value', async () => {
    const macro = await created(u.rad, {
      short_key: 'nad',
      value:
        '<p onclick="x()">No abnormality <img src="x" onerror="alert(1)">detected.<script>alert(2)</script></p>',
      user_fk: u.rad.id,
      display_name: 'No abnormality',
    });
    expect(macro).toMatchObject({ short_key: 'nad', user_fk: u.rad.id, display_name: 'No abnormality' });
    expect(macro.value).toBe('<p>No abnormality detected.</p>');
    const [row] = await server.db.select().from(t.macros).where(eq(t.macros.id, macro.id));
    expect(row?.value).toBe(macro.value);
    for (const user of [u.transcriptionist, u.facilityAdmin, u.rad2]) {
      await created(user, { short_key: 'nad', value: '<p>Same key, another user.</p>', user_fk: user.id });
    }
  });

  it('answers 409 for a short key the user already has, in any case', async () => {
    const before = await allMacros();
    const duplicate = await create(u.rad, { short_key: 'NAD', value: '<p>x</p>', user_fk: u.rad.id });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json).toMatchObject({
      error: { message: 'You already have a macro with the short key NAD', details: { field: 'short_key' } },
    });
    const forOther = await create(u.admin, { short_key: 'Nad', value: '<p>x</p>', user_fk: u.rad.id });
    expect(forOther.status).toBe(409);
    expect(forOther.text).toContain('This user already has a macro with the short key Nad');
    expect(await allMacros()).toEqual(before);
  });

  it('lets exactly one of concurrent creates of the same short key succeed (the unique index decides)', async () => {
    const responses = await Promise.all(
      ['race', 'RACE', 'Race', 'rAce', 'raCE'].map((short_key) =>
        create(u.rad, { short_key, value: `<p>${short_key}</p>`, user_fk: u.rad.id }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses, responses.map((r) => r.text).join('\n')).toEqual([201, 409, 409, 409, 409]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect(response.text).toMatch(/You already have a macro with the short key race/i);
    }
    const rows = await server.db.select().from(t.macros).where(eq(t.macros.userId, u.rad.id));
    expect(rows.filter((row) => row.shortKey.toLowerCase() === 'race')).toHaveLength(1);
  });

  it('refuses malformed short keys and values that sanitise to nothing, naming the field', async () => {
    const before = await allMacros();
    for (const short_key of ['n a d', 'nad!', 'nad-2', 'ñad', '', 'x'.repeat(33)]) {
      const response = await create(u.rad, { short_key, value: '<p>x</p>', user_fk: u.rad.id });
      expect(response.status, short_key).toBe(400);
      expect(response.text, short_key).toContain('short_key');
    }
    for (const value of [
      '<script>alert(1)</script>',
      '<img src="x" onerror="alert(1)">',
      '<p> </p>',
      '   ',
    ]) {
      const response = await create(u.rad, { short_key: 'empty', value, user_fk: u.rad.id });
      expect(response.status, value).toBe(400);
      expect(response.text, value).toContain('value');
    }
    expect((await create(u.rad, { short_key: 'k', value: '<p>x</p>' })).text).toContain('user_fk');
    expect(await allMacros()).toEqual(before);
  });

  it('creates for another user only as an admin of their organisation', async () => {
    const before = await allMacros();
    const body = (owner: TUser) => ({ short_key: 'other', value: '<p>x</p>', user_fk: owner.id });
    const spoof = await create(u.rad, body(u.rad2));
    expect(spoof.status).toBe(403);
    expect(spoof.text).toContain('user_fk');
    expect((await create(u.transcriptionist, body(u.rad))).status).toBe(403);
    expect((await create(u.facilityAdmin, body(u.rad))).status).toBe(403);
    expect((await create(u.referrer, body(u.referrer))).status).toBe(403);
    expect((await create(u.admin, body(u.referrer))).status).toBe(403);
    const foreign = await create(u.outsider, body(u.rad));
    expect(foreign.status).toBe(404);
    expect(foreign.text).toContain('user_fk');
    expect((await create(u.rad, body(u.outsiderRad))).status).toBe(404);
    expect(await allMacros()).toEqual(before);
    const byAdmin = await created(u.admin, body(u.rad2));
    expect(byAdmin.user_fk).toBe(u.rad2.id);
  });
});

describe('GET /radiologist/macros/{user_id}', () => {
  it('lists one’s own macros by short key; admins any user’s of the organisation', async () => {
    await created(u.rad, { short_key: 'Abd', value: '<p>Abdomen</p>', user_fk: u.rad.id });
    const own = await listOf(u.rad, u.rad);
    expect(own.status, own.text).toBe(200);
    const keys = (own.json as TMacroList).items.map((item) => item.short_key);
    expect(keys.slice(0, 2)).toEqual(['Abd', 'nad']);
    expect(keys).toHaveLength(3);
    expect((await listOf(u.admin, u.rad)).json).toEqual(own.json);
    expect(((await listOf(u.transcriptionist, u.transcriptionist)).json as TMacroList).items).toHaveLength(1);
  });

  it('refuses other users’ macros (403) and another organisation’s (404)', async () => {
    expect((await listOf(u.rad2, u.rad)).status).toBe(403);
    expect((await listOf(u.transcriptionist, u.rad)).status).toBe(403);
    expect((await listOf(u.facilityAdmin, u.rad)).status).toBe(403);
    expect((await listOf(u.referrer, u.rad)).status).toBe(403);
    expect((await listOf(u.referrer, u.referrer)).status).toBe(403);
    expect((await listOf(u.outsider, u.rad)).status).toBe(404);
    expect((await listOf(u.rad, u.outsiderRad)).status).toBe(404);
    const unknown = await server.request(
      'GET',
      '/api/v1/radiologist/macros/00000000-0000-4000-8000-000000000000',
      {
        token: as(u.rad),
      },
    );
    expect(unknown.status).toBe(404);
  });
});

describe('PATCH and DELETE /radiologist/macro/{id}', () => {
  it('changes one’s own macro, sanitising the value and keeping short keys unique', async () => {
    const macro = await created(u.rad, { short_key: 'liv', value: '<p>Liver</p>', user_fk: u.rad.id });
    const changed = await patch(u.rad, macro.id, {
      short_key: 'LIV',
      value: '<p>Liver normal<script>alert(1)</script></p><p onmouseover="x()">Size 14 cm</p>',
      display_name: 'Liver',
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json).toMatchObject({
      id: macro.id,
      short_key: 'LIV',
      value: '<p>Liver normal</p><p>Size 14 cm</p>',
      display_name: 'Liver',
    });
    expect((await patch(u.rad, macro.id, {})).json).toMatchObject({
      short_key: 'LIV',
      display_name: 'Liver',
    });
    const before = await allMacros();
    const taken = await patch(u.rad, macro.id, { short_key: 'Nad' });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('You already have a macro with the short key Nad');
    const malformed = await patch(u.rad, macro.id, { short_key: 'l v' });
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('short_key');
    const emptied = await patch(u.rad, macro.id, { value: '<script>x</script>' });
    expect(emptied.status).toBe(400);
    expect(emptied.text).toContain('value');
    expect(await allMacros()).toEqual(before);
  });

  it('lets the owner or an admin change and delete; others 403, another organisation 404, nothing changes', async () => {
    const macro = await created(u.rad, { short_key: 'del', value: '<p>Delete me</p>', user_fk: u.rad.id });
    const before = await allMacros();
    for (const user of [u.rad2, u.transcriptionist, u.facilityAdmin, u.referrer]) {
      expect((await patch(user, macro.id, { value: '<p>hijacked</p>' })).status, user.role ?? '').toBe(403);
      expect((await remove(user, macro.id)).status, user.role ?? '').toBe(403);
    }
    for (const user of [u.outsider, u.outsiderRad]) {
      expect((await patch(user, macro.id, { value: '<p>hijacked</p>' })).status).toBe(404);
      expect((await remove(user, macro.id)).status).toBe(404);
    }
    expect((await remove(u.rad, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect(await allMacros()).toEqual(before);

    expect((await patch(u.admin, macro.id, { display_name: 'By admin' })).json).toMatchObject({
      display_name: 'By admin',
      user_fk: u.rad.id,
    });
    const deleted = await remove(u.rad, macro.id);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json).toEqual({ id: macro.id, deleted: true });
    expect(await server.db.select().from(t.macros).where(eq(t.macros.id, macro.id))).toEqual([]);
    expect((await remove(u.rad, macro.id)).status).toBe(404);
    const other = await created(u.rad, { short_key: 'adm', value: '<p>x</p>', user_fk: u.rad.id });
    expect((await remove(u.admin, other.id)).status).toBe(200);
  });
});

describe('ZMacro.abilities', () => {
  it('marks the macros the caller may change: their own, and as an admin anyone’s of the organisation', async () => {
    const macro = await created(u.rad2, { short_key: 'abil', value: '<p>Ability</p>', user_fk: u.rad2.id });
    expect(macro.abilities).toEqual({ change: true });
    for (const reader of [u.rad2, u.admin]) {
      const response = await listOf(reader, u.rad2);
      expect(response.status, response.text).toBe(200);
      const items = (response.json as TMacroList).items;
      expect(items.find((item) => item.id === macro.id)?.abilities).toEqual({ change: true });
    }
    const patched = await patch(u.admin, macro.id, { display_name: 'Changed by the admin' });
    expect((patched.json as TMacro).abilities).toEqual({ change: true });
  });
});
