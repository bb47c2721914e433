import type { TPatientList, TPatientStudies } from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
type TPatient = Awaited<ReturnType<typeof buildPatient>>;
type TStudy = Awaited<ReturnType<typeof buildStudy>>;
const u = {} as Record<
  'admin' | 'facilityAdmin' | 'transcriptionist' | 'rad' | 'reporter' | 'referrer' | 'outsider',
  TUser
>;
const tokens = new Map<string, string>();
const as = (user: TUser) => tokens.get(user.id) ?? '';
let patient: TPatient;
const s = {} as Record<'old' | 'recent' | 'atF2' | 'deleted' | 'referred', TStudy>;

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  const f1 = await buildFacility(db, { organisationId: organisation.id });
  const f2 = await buildFacility(db, { organisationId: organisation.id });
  u.admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  u.facilityAdmin = await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f1] });
  u.transcriptionist = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f1] });
  u.rad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] });
  u.reporter = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f2] });
  u.referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id });
  u.outsider = await buildUser(db, { role: 'ADMIN' });
  for (const user of Object.values(u)) tokens.set(user.id, await tokenFor(server, user));
  patient = await buildPatient(db, { facility: f1, name: 'Kofi Mensah' });
  s.old = await buildStudy(db, {
    facility: f1,
    patient,
    status: 'FINAL',
    studyDatetime: new Date('2026-01-10T08:00:00Z'),
  });
  s.recent = await buildStudy(db, {
    facility: f1,
    patient,
    status: 'TO_READ',
    studyDatetime: new Date('2026-11-01T08:00:00Z'),
  });
  // A study of the same record read at another facility of the group.
  s.atF2 = await buildStudy(db, {
    facility: f2,
    patient,
    status: 'ASSIGNED',
    studyDatetime: new Date('2026-06-01T08:00:00Z'),
  });
  s.deleted = await buildStudy(db, {
    facility: f1,
    patient,
    status: 'DELETED',
    studyDatetime: new Date('2026-11-20T08:00:00Z'),
  });
});

afterAll(async () => {
  await server.close();
});

const studiesOf = (user: TUser, query = '') =>
  server.request('GET', `/api/v1/user/patient/${patient.id}/studies${query}`, { token: as(user) });
const ids = (response: { json: unknown }) => (response.json as TPatientStudies).items.map((item) => item.id);

describe('GET /user/patient/{id}/studies', () => {
  it('lists what each role sees of the record’s studies, newest first, as worklist items', async () => {
    const admin = await studiesOf(u.admin);
    expect(admin.status, admin.text).toBe(200);
    expect(ids(admin)).toEqual([s.deleted.id, s.recent.id, s.atF2.id, s.old.id]);
    expect((admin.json as TPatientStudies).items[1]).toMatchObject({
      patient_name: 'Kofi Mensah',
      status: 'TO_READ',
      abilities: { assign_anyone: true },
    });
    // Staff of f1 see f1's studies, never a deleted one; the record's study at f2 is not theirs.
    for (const user of [u.facilityAdmin, u.transcriptionist, u.rad]) {
      const response = await studiesOf(user);
      expect(response.status, user.role ?? '').toBe(200);
      expect(ids(response)).toEqual([s.recent.id, s.old.id]);
    }
    const page = await studiesOf(u.admin, '?limit=2&offset=2');
    expect(page.json).toMatchObject({ total: 4, limit: 2, offset: 2, next_offset: null, previous_offset: 0 });
    expect(ids(page)).toEqual([s.atF2.id, s.old.id]);
  });

  it('answers 404 to callers who cannot see the record, and 400 to a bad page', async () => {
    // The record is f1's: a radiologist of f2 only does not see it, nor another organisation, nor a referrer.
    for (const user of [u.reporter, u.outsider, u.referrer]) {
      const response = await studiesOf(user);
      expect(response.status, user.role ?? '').toBe(404);
    }
    const unknown = await server.request(
      'GET',
      '/api/v1/user/patient/00000000-0000-4000-8000-000000000000/studies',
      { token: as(u.admin) },
    );
    expect(unknown.status).toBe(404);
    const bad = await studiesOf(u.admin, '?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('limit');
  });
});

describe('GET /user/patients abilities', () => {
  it('tells each role what it may do with a record', async () => {
    const abilitiesOf = async (user: TUser) => {
      const response = await server.request('GET', '/api/v1/user/patients?search=kofi', { token: as(user) });
      expect(response.status, response.text).toBe(200);
      return (response.json as TPatientList).items[0]?.abilities;
    };
    expect(await abilitiesOf(u.admin)).toEqual({ edit: true, merge: true });
    expect(await abilitiesOf(u.facilityAdmin)).toEqual({ edit: true, merge: false });
    expect(await abilitiesOf(u.transcriptionist)).toEqual({ edit: true, merge: false });
    expect(await abilitiesOf(u.rad)).toEqual({ edit: false, merge: false });
    expect(await abilitiesOf(u.reporter)).toBeUndefined();
    expect(await abilitiesOf(u.outsider)).toBeUndefined();
  });
});
