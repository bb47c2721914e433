import type { TInviteReferringPhysicianResult, TReferringPhysician, TWorklistItem } from '@ris/domain';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { signIn, tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

// The invitation to sign in: a REFERRING_PHYSICIAN account made (or linked) by user administration,
// a one-time link mailed through the outbox (no SMTP_URL here), never a password anyone else sees.
let server: TTestServer;
type TUser = Awaited<ReturnType<typeof buildUser>>;
type TFacility = Awaited<ReturnType<typeof buildFacility>>;
const u = {} as Record<'admin' | 'facilityAdmin' | 'transcriptionist' | 'rad' | 'outsider', TUser>;
const tokens = new Map<string, string>();
const as = (user: TUser) => tokens.get(user.id) ?? '';
let f1: TFacility;
let serial = 0;
const newEmail = () => `referrer-${(serial += 1)}-${Date.now()}@clinic.test`;
const LINK = /https:\/\/ris\.example\.test\/forgot-password\?token=([A-Za-z0-9_-]+)/;

beforeAll(async () => {
  server = await startTestServer({ env: { PUBLIC_URL: 'https://ris.example.test' } });
  const db = server.db;
  const organisation = await buildOrganisation(db);
  f1 = await buildFacility(db, { organisationId: organisation.id });
  u.admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id, displayName: 'Admin Ada' });
  u.facilityAdmin = await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f1] });
  u.transcriptionist = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f1] });
  u.rad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] });
  u.outsider = await buildUser(db, { role: 'ADMIN' });
  for (const user of Object.values(u)) tokens.set(user.id, await tokenFor(server, user));
});

afterAll(async () => {
  await server.close();
});

async function physician(user: TUser, body: Record<string, unknown>): Promise<TReferringPhysician> {
  const response = await server.request('POST', '/api/v1/user/referring-physician', {
    token: as(user),
    body,
  });
  expect(response.status, response.text).toBe(201);
  return response.json as TReferringPhysician;
}

const invite = (user: TUser, id: string, body?: Record<string, unknown>) =>
  server.request('POST', `/api/v1/user/referring-physician/${id}/invitation`, {
    token: as(user),
    ...(body ? { body } : {}),
  });

async function mailsTo(email: string) {
  await server.identity.settled();
  return server.db
    .select()
    .from(t.outboundMessages)
    .where(eq(t.outboundMessages.recipient, email))
    .orderBy(desc(t.outboundMessages.createdAt));
}

async function latestToken(email: string): Promise<string> {
  const [mail] = await mailsTo(email);
  const token = LINK.exec(mail?.body ?? '')?.[1];
  if (!token) throw new Error(`no link in the outbox for ${email}: ${mail?.body}`);
  return token;
}

const setPassword = (token: string, password: string) =>
  server.request('POST', '/api/v1/auth/password-reset/confirm', { body: { token, password } });

async function snapshot(physicianId: string, email: string) {
  const [row] = await server.db
    .select()
    .from(t.referringPhysicians)
    .where(eq(t.referringPhysicians.id, physicianId));
  const accounts = await server.db.select().from(t.users).where(eq(t.users.email, email));
  return JSON.stringify({ row, accounts, mails: await mailsTo(email) });
}

describe('POST /user/referring-physician/{id}/invitation', () => {
  it('makes an account, mails a one-time link, and the physician then reads the final reports they referred', async () => {
    const email = newEmail();
    const doctor = await physician(u.admin, { name: 'Dr Meera Iyer', email });
    const response = await invite(u.admin, doctor.id, { by_user_id: u.admin.id });
    expect(response.status, response.text).toBe(200);
    const result = response.json as TInviteReferringPhysicianResult;
    expect(result).toMatchObject({
      sent: true,
      physician: { sign_in: 'INVITED', abilities: { invite: true } },
    });
    expect(Date.parse(result.expires_at ?? '')).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);
    const userId = result.physician.user_fk ?? '';
    const [account] = await server.db.select().from(t.users).where(eq(t.users.id, userId));
    expect(account).toMatchObject({
      role: 'REFERRING_PHYSICIAN',
      organisationId: f1.organisationId,
      email,
      displayName: 'Dr Meera Iyer',
      firstName: 'Dr Meera',
      lastName: 'Iyer',
      passwordHash: null,
    });
    const [mail, ...others] = await mailsTo(email);
    expect(others).toEqual([]);
    expect(mail).toMatchObject({
      channel: 'email',
      createdBy: u.admin.id,
      organisationId: f1.organisationId,
    });
    expect(mail?.body).toContain('Admin Ada');
    const audit = await server.db
      .select()
      .from(t.auditEvents)
      .where(
        and(eq(t.auditEvents.entityId, doctor.id), eq(t.auditEvents.action, 'referring_physician.invited')),
      );
    expect(audit).toMatchObject([{ actorUserId: u.admin.id, data: { user_id: userId, account: 'created' } }]);

    // The link sets their password; they sign in and see exactly the studies they referred.
    expect((await setPassword(await latestToken(email), 'a-long-enough-passphrase')).status).toBe(200);
    const referred = await buildStudy(server.db, {
      facility: f1,
      status: 'FINAL',
      referringPhysicianId: doctor.id,
    });
    const other = await buildStudy(server.db, { facility: f1, status: 'FINAL' });
    const session = await signIn(server, email, 'a-long-enough-passphrase');
    const worklist = await server.request('GET', '/api/v1/worklist', {
      token: session.id_token,
    });
    expect(worklist.status, worklist.text).toBe(200);
    expect((worklist.json as { items: TWorklistItem[] }).items.map((item) => item.id)).toEqual([referred.id]);
    const report = await server.request('GET', `/api/v1/worklist/${other.id}/report`, {
      token: session.id_token,
    });
    expect(report.status).toBe(404);

    const list = await server.request('GET', '/api/v1/user/referring-physicians?search=meera', {
      token: as(u.admin),
    });
    expect(list.json).toMatchObject({ items: [{ sign_in: 'ACTIVE', abilities: { invite: false } }] });
    const again = await invite(u.admin, doctor.id);
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ detail: expect.stringContaining('already signs in') });
  });

  it('sends the invitation again while no password is set: the earlier link stops working', async () => {
    const email = newEmail();
    const doctor = await physician(u.admin, { name: 'Dr Arjun Reddy', email, facility_fks: [f1.id] });
    expect((await invite(u.admin, doctor.id)).status).toBe(200);
    const first = await latestToken(email);
    // A facility admin manages a physician of their own facility.
    const resent = await invite(u.facilityAdmin, doctor.id);
    expect(resent.status, resent.text).toBe(200);
    const second = await latestToken(email);
    expect(second).not.toBe(first);
    expect((await setPassword(first, 'a-long-enough-passphrase')).status).toBe(400);
    expect((await setPassword(second, 'a-long-enough-passphrase')).status).toBe(200);
    const [account] = await server.db
      .select({ id: t.users.id })
      .from(t.users)
      .where(eq(t.users.email, email));
    const facilities = await server.db
      .select({ id: t.userFacilities.facilityId })
      .from(t.userFacilities)
      .where(eq(t.userFacilities.userId, account?.id ?? ''));
    expect(facilities.map((f) => f.id)).toEqual([f1.id]);
  });

  it('links a referring physician’s account that exists already', async () => {
    const existing = await buildUser(server.db, {
      role: 'REFERRING_PHYSICIAN',
      organisationId: f1.organisationId,
      email: newEmail(),
    });
    const doctor = await physician(u.admin, {
      name: 'Dr Hélène Laurent',
      email: existing.email.toUpperCase(),
    });
    const response = await invite(u.admin, doctor.id);
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({
      sent: false,
      expires_at: null,
      physician: { user_fk: existing.id, sign_in: 'ACTIVE' },
    });
    expect(await mailsTo(existing.email)).toEqual([]);
  });

  it('refuses what cannot be invited, naming the field, and writes nothing', async () => {
    const silent = await physician(u.admin, { name: 'Dr No Mail' });
    const before = await server.db
      .select()
      .from(t.referringPhysicians)
      .where(eq(t.referringPhysicians.id, silent.id));
    const noEmail = await invite(u.admin, silent.id);
    expect(noEmail.status).toBe(422);
    expect(noEmail.json).toMatchObject({
      error: { details: { field: 'email' } },
      detail: expect.stringContaining('e-mail'),
    });
    expect(
      await server.db.select().from(t.referringPhysicians).where(eq(t.referringPhysicians.id, silent.id)),
    ).toEqual(before);

    const goneEmail = newEmail();
    const gone = await physician(u.admin, { name: 'Dr Gone', email: goneEmail, status: 'INACTIVE' });
    expect((await invite(u.admin, gone.id)).status).toBe(409);

    // The address of a radiologist's account: 409 naming email; no account made, nothing linked.
    const staff = await physician(u.admin, { name: 'Dr Staff', email: u.rad.email });
    const before2 = await snapshot(staff.id, u.rad.email);
    const taken = await invite(u.admin, staff.id);
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ error: { details: { field: 'email' } } });
    expect(await snapshot(staff.id, u.rad.email)).toBe(before2);

    const email = newEmail();
    const wide = await physician(u.admin, { name: 'Dr Wide', email });
    const before3 = await snapshot(wide.id, email);
    for (const user of [u.facilityAdmin, u.transcriptionist, u.rad]) {
      expect((await invite(user, wide.id)).status, user.role ?? '').toBe(403);
    }
    expect((await invite(u.outsider, wide.id)).status).toBe(404);
    expect((await invite(u.admin, wide.id, { by_user_id: u.rad.id })).status).toBe(403);
    expect((await invite(u.admin, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect(await snapshot(wide.id, email)).toBe(before3);
  });
});
