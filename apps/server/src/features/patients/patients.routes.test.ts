import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import {
  buildFacility,
  buildOrganisation,
  buildPatient,
  buildStudy,
  buildUser,
} from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let server: TTestServer;
type TUser = Awaited<ReturnType<typeof buildUser>>;
type TFacility = Awaited<ReturnType<typeof buildFacility>>;
type TPatient = Awaited<ReturnType<typeof buildPatient>>;
const u = {} as Record<'admin' | 'transcriptionist' | 'rad' | 'referrer' | 'outsider', TUser>;
const tokens = new Map<string, string>();
const as = (user: TUser) => tokens.get(user.id) ?? '';
let f1: TFacility;
let f2: TFacility;
let jose: TPatient;
let other: TPatient;

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  f1 = await buildFacility(db, { organisationId: organisation.id });
  f2 = await buildFacility(db, { organisationId: organisation.id });
  u.admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  u.transcriptionist = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f1] });
  u.rad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] });
  u.referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id });
  u.outsider = await buildUser(db, { role: 'ADMIN' });
  for (const user of Object.values(u)) tokens.set(user.id, await tokenFor(server, user));
  jose = await buildPatient(db, { facility: f1, name: 'José Álvarez', patientIdentifier: 'MRN-100' });
  for (let i = 0; i < 11; i += 1) await buildPatient(db, { facility: f1, name: `Zed ${i}` });
  other = await buildPatient(db, { facility: f2, name: 'Other Person' });
});

afterAll(async () => {
  await server.close();
});

describe('GET /user/patients', () => {
  it('searches accent-insensitively and paginates within the caller’s facilities', async () => {
    const found = await server.request('GET', '/api/v1/user/patients?search=jose%20alv', {
      token: as(u.transcriptionist),
    });
    expect(found.status, found.text).toBe(200);
    expect(found.json).toMatchObject({ total: 1, items: [{ id: jose.id, patient_id: 'MRN-100' }] });
    const page = await server.request('GET', '/api/v1/user/patients?limit=10&offset=10', {
      token: as(u.transcriptionist),
    });
    expect(page.json).toMatchObject({ total: 12, offset: 10, next_offset: null, previous_offset: 0 });
    const admin = await server.request('GET', `/api/v1/user/patients?facility_fks=${f2.id}`, {
      token: as(u.admin),
    });
    expect(admin.json).toMatchObject({ total: 1, items: [{ id: other.id }] });
    const outside = await server.request('GET', `/api/v1/user/patients?facility_fks=${f2.id}`, {
      token: as(u.transcriptionist),
    });
    expect(outside.status).toBe(404);
    expect(outside.text).toContain('facility_fks');
    expect((await server.request('GET', '/api/v1/user/patients', { token: as(u.referrer) })).status).toBe(
      403,
    );
    expect(
      (await server.request('GET', '/api/v1/user/patients?limit=0', { token: as(u.admin) })).status,
    ).toBe(400);
  });
});

describe('PATCH /user/patient/{id}', () => {
  it('corrects the patient and the patient columns of their studies together', async () => {
    const study = await buildStudy(server.db, { facility: f1, patient: jose, status: 'TO_READ' });
    const changed: string[] = [];
    const off = server.app.events.on('worklist.item.changed', (e) => changed.push(e.item.id));
    const response = await server.request('PATCH', `/api/v1/user/patient/${jose.id}`, {
      token: as(u.transcriptionist),
      body: { name: 'José Álvarez Ruiz', sex: 'M', birth_date: '1970-01-31' },
    });
    off();
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({ name: 'José Álvarez Ruiz', sex: 'M', birth_date: '1970-01-31' });
    const [row] = await server.db.select().from(t.studies).where(eq(t.studies.id, study.id));
    expect(row).toMatchObject({
      patientName: 'José Álvarez Ruiz',
      patientSex: 'M',
      patientBirthDate: '1970-01-31',
    });
    expect(changed).toEqual([study.id]);
  });

  it('refuses outsiders, other facilities, radiologists, identifier clashes and spoofing; nothing changes', async () => {
    const patch = (user: TUser, id: string, body: object) =>
      server.request('PATCH', `/api/v1/user/patient/${id}`, { token: as(user), body });
    expect((await patch(u.outsider, jose.id, { name: 'X' })).status).toBe(404);
    expect((await patch(u.transcriptionist, other.id, { name: 'X' })).status).toBe(404);
    expect((await patch(u.rad, jose.id, { name: 'X' })).status).toBe(403);
    expect((await patch(u.admin, jose.id, { name: 'X', by_user_id: u.rad.id })).status).toBe(403);
    const clash = await buildPatient(server.db, { facility: f1, patientIdentifier: 'MRN-200' });
    const conflict = await patch(u.admin, jose.id, { patient_id: clash.patientIdentifier });
    expect(conflict.status).toBe(409);
    expect(conflict.text).toContain('patient_id');
    const future = await patch(u.admin, jose.id, { birth_date: '2999-01-01' });
    expect(future.status).toBe(400);
    expect(future.text).toContain('birth_date: must not be in the future');
    const [row] = await server.db.select().from(t.patients).where(eq(t.patients.id, jose.id));
    expect(row).toMatchObject({ name: 'José Álvarez Ruiz', patientIdentifier: 'MRN-100' });
  });
});
