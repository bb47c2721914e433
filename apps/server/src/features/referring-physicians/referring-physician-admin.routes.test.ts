import type { TReferringPhysician, TReferringPhysicianList } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let server: TTestServer;
type TUser = Awaited<ReturnType<typeof buildUser>>;
type TFacility = Awaited<ReturnType<typeof buildFacility>>;
const u = {} as Record<
  'admin' | 'facilityAdmin' | 'transcriptionist' | 'rad' | 'referrer' | 'outsider',
  TUser
>;
const tokens = new Map<string, string>();
const as = (user: TUser) => tokens.get(user.id) ?? '';
let f1: TFacility;
let f2: TFacility;
let elsewhere: TFacility;
const p = {} as Record<'wide' | 'atF1' | 'atF2' | 'both' | 'inactive', TReferringPhysician>;

const save = (user: TUser, body: Record<string, unknown>) =>
  server.request('POST', '/api/v1/user/referring-physician', { token: as(user), body });
const list = (user: TUser, query = '') =>
  server.request('GET', `/api/v1/user/referring-physicians${query}`, { token: as(user) });
const names = (response: { json: unknown }) =>
  (response.json as TReferringPhysicianList).items.map((item) => item.name);
const stored = async (id: string) => {
  const [row] = await server.db.select().from(t.referringPhysicians).where(eq(t.referringPhysicians.id, id));
  const facilities = await server.db
    .select({ id: t.referringPhysicianFacilities.facilityId })
    .from(t.referringPhysicianFacilities)
    .where(eq(t.referringPhysicianFacilities.referringPhysicianId, id));
  return JSON.stringify({ row, facilities: facilities.map((f) => f.id).sort() });
};

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  f1 = await buildFacility(db, { organisationId: organisation.id, name: 'F1' });
  f2 = await buildFacility(db, { organisationId: organisation.id, name: 'F2' });
  elsewhere = await buildFacility(db);
  u.admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  u.facilityAdmin = await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f1] });
  u.transcriptionist = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f1] });
  u.rad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1, f2] });
  u.referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id });
  u.outsider = await buildUser(db, { role: 'ADMIN', organisationId: elsewhere.organisationId });
  for (const user of Object.values(u)) tokens.set(user.id, await tokenFor(server, user));
  const create = async (body: Record<string, unknown>) => {
    const response = await save(u.admin, body);
    expect(response.status, response.text).toBe(201);
    return response.json as TReferringPhysician;
  };
  p.wide = await create({ name: 'Dr Anil Wide', email: 'anil@clinic.test' });
  p.atF1 = await create({ name: 'Dr Bela One', facility_fks: [f1.id], phone: '+91 2222' });
  p.atF2 = await create({ name: 'Dr Chen Two', facility_fks: [f2.id], email: 'chen@clinic.test' });
  p.both = await create({ name: 'Dr Dora Both', facility_fks: [f1.id, f2.id] });
  p.inactive = await create({ name: 'Dr Emil Gone', status: 'INACTIVE', facility_fks: [f1.id] });
});

afterAll(async () => {
  await server.close();
});

describe('GET /user/referring-physicians for the management screen', () => {
  it('scopes by facility, filters by facility and status, and paginates', async () => {
    expect(names(await list(u.admin))).toEqual([
      'Dr Anil Wide',
      'Dr Bela One',
      'Dr Chen Two',
      'Dr Dora Both',
    ]);
    // Staff other than admins see those referring to their facilities or to every facility.
    expect(names(await list(u.transcriptionist))).toEqual(['Dr Anil Wide', 'Dr Bela One', 'Dr Dora Both']);
    expect(names(await list(u.admin, `?facility_fks=${f2.id}`))).toEqual([
      'Dr Anil Wide',
      'Dr Chen Two',
      'Dr Dora Both',
    ]);
    const outside = await list(u.transcriptionist, `?facility_fks=${f2.id}`);
    expect(outside.status).toBe(404);
    expect(outside.json).toMatchObject({ error: { details: { field: 'facility_fks' } } });
    expect(names(await list(u.admin, '?status=INACTIVE'))).toEqual(['Dr Emil Gone']);
    const page = await list(u.admin, '?status=ALL&limit=2&offset=2');
    expect(page.json).toMatchObject({ total: 5, limit: 2, offset: 2, next_offset: 4, previous_offset: 0 });
    expect(names(page)).toEqual(['Dr Chen Two', 'Dr Dora Both']);
    expect(names(await list(u.outsider))).toEqual([]);
    const bad = await list(u.admin, '?status=SOME');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('status');
  });

  it('tells each role what it may do with each physician', async () => {
    const abilities = async (user: TUser) =>
      Object.fromEntries(
        ((await list(user, '?status=ALL')).json as TReferringPhysicianList).items.map((item) => [
          item.name,
          item.abilities,
        ]),
      );
    expect(await abilities(u.admin)).toEqual({
      'Dr Anil Wide': { edit: true, invite: true },
      'Dr Bela One': { edit: true, invite: false },
      'Dr Chen Two': { edit: true, invite: true },
      'Dr Dora Both': { edit: true, invite: false },
      'Dr Emil Gone': { edit: true, invite: false },
    });
    // A facility admin edits only those referring to their own facility alone.
    expect(await abilities(u.facilityAdmin)).toEqual({
      'Dr Anil Wide': { edit: false, invite: false },
      'Dr Bela One': { edit: true, invite: false },
      'Dr Dora Both': { edit: false, invite: false },
      'Dr Emil Gone': { edit: true, invite: false },
    });
    for (const user of [u.transcriptionist, u.rad]) {
      const all = Object.values(await abilities(user));
      expect(all.length).toBeGreaterThan(0);
      expect(all.every((a) => !a.edit && !a.invite)).toBe(true);
    }
  });
});

describe('POST /user/referring-physician with facilities and id', () => {
  it('gives a facility admin’s new physician their facility and refuses others', async () => {
    const created = await save(u.facilityAdmin, { name: 'Dr Fatima New' });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({
      facility_fks: [f1.id],
      sign_in: 'NOT_INVITED',
      abilities: { edit: true },
    });
    const other = await save(u.facilityAdmin, { name: 'Dr X', facility_fks: [f2.id] });
    expect(other.status).toBe(404);
    expect(other.json).toMatchObject({
      detail: expect.stringContaining('facility_fks'),
      error: { details: { field: 'facility_fks' } },
    });
    const wide = await save(u.facilityAdmin, { name: 'Dr X', facility_fks: [] });
    expect(wide.status).toBe(403);
    expect(wide.json).toMatchObject({ error: { details: { field: 'facility_fks' } } });
    const foreign = await save(u.admin, { name: 'Dr X', facility_fks: [elsewhere.id] });
    expect(foreign.status).toBe(404);
    const byTranscriptionist = await save(u.transcriptionist, { name: 'Dr From Order' });
    expect(byTranscriptionist.json).toMatchObject({ facility_fks: [f1.id], abilities: { edit: false } });
    expect((await save(u.rad, { name: 'Dr X' })).status).toBe(403);
    const rows = await server.db
      .select()
      .from(t.referringPhysicians)
      .where(eq(t.referringPhysicians.name, 'Dr X'));
    expect(rows).toEqual([]);
  });

  it('changes the fields given, audited, for who may edit; nothing changes otherwise', async () => {
    const edited = await save(u.admin, {
      id: p.atF2.id,
      name: 'Dr Chen Li',
      email: null,
      phone: '+44 20 7946 0000',
      facility_fks: [f1.id, f2.id],
      by_user_id: u.admin.id,
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json).toMatchObject({
      id: p.atF2.id,
      name: 'Dr Chen Li',
      email: null,
      phone: '+44 20 7946 0000',
      registration_number: null,
      status: 'ACTIVE',
      abilities: { edit: true, invite: false },
    });
    expect((edited.json as TReferringPhysician).facility_fks.sort()).toEqual([f1.id, f2.id].sort());
    const [audit] = await server.db
      .select()
      .from(t.auditEvents)
      .where(
        and(eq(t.auditEvents.action, 'referring_physician.updated'), eq(t.auditEvents.entityId, p.atF2.id)),
      );
    expect(audit).toMatchObject({
      actorUserId: u.admin.id,
      data: {
        changed: ['name', 'email', 'phone'],
        before: { name: 'Dr Chen Two', email: 'chen@clinic.test' },
      },
    });

    const byFacilityAdmin = await save(u.facilityAdmin, { id: p.atF1.id, status: 'INACTIVE' });
    expect(byFacilityAdmin.status, byFacilityAdmin.text).toBe(200);
    expect(byFacilityAdmin.json).toMatchObject({ status: 'INACTIVE', facility_fks: [f1.id] });

    const before = await stored(p.wide.id);
    expect((await save(u.facilityAdmin, { id: p.wide.id, name: 'X' })).status).toBe(403);
    expect((await save(u.transcriptionist, { id: p.wide.id, name: 'X' })).status).toBe(403);
    expect((await save(u.rad, { id: p.wide.id, name: 'X' })).status).toBe(403);
    const outsider = await save(u.outsider, { id: p.wide.id, name: 'X' });
    expect(outsider.status).toBe(404);
    expect(outsider.json).toMatchObject({ error: { details: { field: 'id' } } });
    expect((await save(u.referrer, { id: p.wide.id, name: 'X' })).status).toBe(404);
    expect((await save(u.admin, { id: p.wide.id, name: 'X', by_user_id: u.rad.id })).status).toBe(403);
    const invalid = await save(u.admin, { id: p.wide.id, email: 'not-an-email', phone: '1' });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain('email');
    expect(invalid.text).toContain('phone');
    const nameless = await save(u.admin, { email: 'someone@clinic.test' });
    expect(nameless.status).toBe(400);
    expect(nameless.text).toContain('name');
    expect(await stored(p.wide.id)).toBe(before);
  });

  it('says whether each physician can sign in, from their account', async () => {
    const org = f1.organisationId;
    const invited = await buildUser(server.db, {
      role: 'REFERRING_PHYSICIAN',
      organisationId: org,
      password: null,
    });
    const active = await buildUser(server.db, { role: 'REFERRING_PHYSICIAN', organisationId: org });
    const disabled = await buildUser(server.db, {
      role: 'REFERRING_PHYSICIAN',
      organisationId: org,
      status: 'INACTIVE',
    });
    const linked = [
      ['Dr Gita Invited', invited],
      ['Dr Hari Active', active],
      ['Dr Ines Disabled', disabled],
    ] as const;
    for (const [name, user] of linked) {
      await server.db
        .insert(t.referringPhysicians)
        .values({ organisationId: org, name, email: user.email, userId: user.id });
    }
    const response = await list(u.admin, '?search=dr%20');
    const byName = Object.fromEntries(
      (response.json as TReferringPhysicianList).items.map((item) => [item.name, item]),
    );
    expect(byName['Dr Gita Invited']).toMatchObject({ sign_in: 'INVITED', abilities: { invite: true } });
    expect(byName['Dr Hari Active']).toMatchObject({ sign_in: 'ACTIVE', abilities: { invite: false } });
    expect(byName['Dr Ines Disabled']).toMatchObject({ sign_in: 'DISABLED', abilities: { invite: false } });
    expect(byName['Dr Anil Wide']).toMatchObject({ sign_in: 'NOT_INVITED', user_fk: null });
  });
});
