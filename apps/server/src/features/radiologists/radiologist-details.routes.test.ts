import type { TUserDetails } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let server: TTestServer;
type TUser = Awaited<ReturnType<typeof buildUser>>;
type TFacility = Awaited<ReturnType<typeof buildFacility>>;
const u = {} as Record<
  | 'admin'
  | 'facilityAdmin'
  | 'rad'
  | 'radF2'
  | 'transcriptionist'
  | 'transcriptionistF2'
  | 'referrer'
  | 'outsider'
  | 'outsiderRad',
  TUser
>;
const tokens = new Map<string, string>();
const as = (user: TUser) => tokens.get(user.id) ?? '';
let f1: TFacility;

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  f1 = await buildFacility(db, { organisationId: organisation.id });
  const f2 = await buildFacility(db, { organisationId: organisation.id });
  u.admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  u.facilityAdmin = await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f1] });
  u.rad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1], displayName: 'Dr Rao' });
  u.radF2 = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f2] });
  u.transcriptionist = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f1] });
  u.transcriptionistF2 = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f2] });
  u.referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id });
  u.outsider = await buildUser(db, { role: 'ADMIN' });
  u.outsiderRad = await buildUser(db, { role: 'RADIOLOGIST' });
  for (const user of Object.values(u)) tokens.set(user.id, await tokenFor(server, user));
  await db
    .update(t.radiologistDetails)
    .set({ description: 'MD Radiology, Reg. 1234' })
    .where(eq(t.radiologistDetails.userId, u.rad.id));
  const [file] = await db
    .insert(t.storedFiles)
    .values({
      organisationId: organisation.id,
      storageKey: `signatures/${u.rad.id}.png`,
      sha256: 'a'.repeat(64),
      sizeBytes: 10,
      mediaType: 'image/png',
    })
    .returning();
  await db
    .update(t.users)
    .set({ signatureFileId: file?.id ?? null })
    .where(eq(t.users.id, u.rad.id));
});

afterAll(async () => {
  await server.close();
});

const radiologist = (user: TUser, target: { id: string } | string) =>
  server.request('GET', `/api/v1/radiologist/${typeof target === 'string' ? target : target.id}`, {
    token: as(user),
  });
const transcriptionist = (user: TUser, target: TUser) =>
  server.request('GET', `/api/v1/radiologist/transcriptionist/${target.id}`, { token: as(user) });

describe('GET /radiologist/{user_fk}', () => {
  it('gives the reporting screen a radiologist’s details', async () => {
    const response = await radiologist(u.admin, u.rad);
    expect(response.status, response.text).toBe(200);
    const details = response.json as TUserDetails;
    expect(details).toMatchObject({
      id: u.rad.id,
      role: 'RADIOLOGIST',
      display_name: 'Dr Rao',
      user_type: 'RADIOLOGIST',
      radiologist_description: 'MD Radiology, Reg. 1234',
      facility_fks: [f1.id],
      has_signature: true,
      radiologist_details: {
        user_type: 'RADIOLOGIST',
        facility_fks: [f1.id],
        description: 'MD Radiology, Reg. 1234',
      },
      transcriptionist_details: null,
      facilities: [{ id: f1.id }],
    });
    expect(response.text).not.toContain('password');
    expect((await radiologist(u.admin, u.radF2)).json).toMatchObject({ has_signature: false });
  });

  it('answers staff who share a facility with the radiologist, and the radiologist', async () => {
    for (const user of [u.rad, u.transcriptionist, u.facilityAdmin]) {
      expect((await radiologist(user, u.rad)).status, user.role ?? '').toBe(200);
    }
    expect((await radiologist(u.radF2, u.radF2)).status).toBe(200);
  });

  it('answers 404 outside the caller’s view, for other roles and for another organisation', async () => {
    expect((await radiologist(u.transcriptionist, u.radF2)).status).toBe(404);
    expect((await radiologist(u.transcriptionistF2, u.rad)).status).toBe(404);
    expect((await radiologist(u.referrer, u.rad)).status).toBe(404);
    expect((await radiologist(u.outsider, u.rad)).status).toBe(404);
    expect((await radiologist(u.admin, u.outsiderRad)).status).toBe(404);
    expect((await radiologist(u.admin, u.transcriptionist)).status).toBe(404);
    expect((await radiologist(u.admin, u.admin)).status).toBe(404);
    expect((await radiologist(u.admin, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const malformed = await radiologist(u.admin, 'someone');
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('user_fk');
  });
});

describe('GET /radiologist/transcriptionist/{user_fk}', () => {
  it('gives a transcriptionist’s details to staff who can see them, 404 otherwise', async () => {
    const response = await transcriptionist(u.rad, u.transcriptionist);
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({
      id: u.transcriptionist.id,
      role: 'TRANSCRIPTIONIST',
      facility_fks: [f1.id],
      has_signature: false,
      radiologist_details: null,
      transcriptionist_details: { facility_fks: [f1.id] },
    });
    expect((await transcriptionist(u.admin, u.transcriptionistF2)).status).toBe(200);
    expect((await transcriptionist(u.transcriptionist, u.transcriptionist)).status).toBe(200);
    expect((await transcriptionist(u.rad, u.transcriptionistF2)).status).toBe(404);
    expect((await transcriptionist(u.admin, u.rad)).status).toBe(404);
    expect((await transcriptionist(u.referrer, u.transcriptionist)).status).toBe(404);
    expect((await transcriptionist(u.outsider, u.transcriptionist)).status).toBe(404);
  });
});

describe('routes beside /radiologist/{user_fk}', () => {
  it('keeps /radiologist/active, /templates and /macros/{user_id} working', async () => {
    const active = await server.request('GET', '/api/v1/radiologist/active', { token: as(u.admin) });
    expect(active.status, active.text).toBe(200);
    expect(Array.isArray(active.json)).toBe(true);
    const templates = await server.request('GET', '/api/v1/radiologist/templates', { token: as(u.rad) });
    expect(templates.status, templates.text).toBe(200);
    expect(templates.json).toMatchObject({ items: [], total: 0 });
    const macros = await server.request('GET', `/api/v1/radiologist/macros/${u.rad.id}`, {
      token: as(u.rad),
    });
    expect(macros.status, macros.text).toBe(200);
    expect(macros.json).toEqual({ items: [] });
  });
});
