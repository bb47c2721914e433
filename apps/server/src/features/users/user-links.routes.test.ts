import { ZAdminResetPasswordResponse, ZUserList } from '@ris/domain';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { signIn } from '../../test/auth-helpers.ts';
import { buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { buildUserAdminWorld, savedUser, type TUserAdminWorld } from '../../test/user-admin-world.ts';

// Invitations and administrator-started password resets: one-time links to the web app's reset page
// (mailed through the outbox here: no SMTP_URL), never a password an administrator sees or types.
let server: TTestServer;
let w: TUserAdminWorld;

beforeAll(async () => {
  server = await startTestServer({ env: { PUBLIC_URL: 'https://ris.example.test' } });
  w = await buildUserAdminWorld(server);
});
afterAll(async () => {
  await server.close();
});

const LINK = /https:\/\/ris\.example\.test\/forgot-password\?token=([A-Za-z0-9_-]+)/;
let serial = 0;
const newEmail = () => `invitee-${(serial += 1)}-${Date.now()}@example.test`;

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

const invite = async (fields: Record<string, string> = {}) =>
  savedUser(
    await w.save('admin', {
      role: 'TRANSCRIPTIONIST',
      first_name: 'Ina',
      last_name: 'Vite',
      email: newEmail(),
      facility_fks: w.f1.id,
      ...fields,
    }),
  );

const auditOf = async (userId: string, action: string) =>
  server.db
    .select()
    .from(t.auditEvents)
    .where(and(eq(t.auditEvents.entityId, userId), eq(t.auditEvents.action, action)));

describe('invitation', () => {
  it('mails the new user a one-time link that sets their password, which then signs in', async () => {
    const user = await invite();
    const [mail, ...others] = await mailsTo(user.email);
    expect(others).toEqual([]);
    expect(mail).toMatchObject({
      channel: 'email',
      organisationId: w.organisationId,
      createdBy: w.users.admin.id,
    });
    expect(mail?.subject).toMatch(/^You are invited to .+ on RIS$/);
    expect(mail?.body).toContain('Admin Ada');
    const token = await latestToken(user.email);
    const weak = await setPassword(token, 'short');
    expect(weak.status).toBe(400);
    const set = await setPassword(token, 'a-long-enough-passphrase');
    expect(set.status, set.text).toBe(200);
    expect((await setPassword(token, 'another-long-passphrase')).status).toBe(400);
    const session = await signIn(server, user.email, 'a-long-enough-passphrase');
    expect(session.user).toMatchObject({ id: user.id, role: 'TRANSCRIPTIONIST', facility_fks: [w.f1.id] });
    const page = ZUserList.parse((await w.get('admin', `/user?search=${user.email}`)).json);
    expect(page.items[0]).toMatchObject({
      invitation_pending: false,
      abilities: { resend_invitation: false, reset_password: true },
    });
    expect(await auditOf(user.id, 'user.invitation_sent')).toHaveLength(1);
  });

  it('takes in an account its owner made by signing up: its password and sessions end, the link sets one', async () => {
    const email = newEmail();
    const signUp = await server.request('POST', '/api/v1/auth/sign-up', {
      body: { email, password: 'signed-up-passphrase' },
    });
    expect(signUp.status, signUp.text).toBe(201);
    const early = await signIn(server, email, 'signed-up-passphrase');
    const [account] = await server.db.select().from(t.users).where(eq(t.users.email, email));
    const user = await invite({ email: email.toUpperCase() });
    expect(user.id).toBe(account?.id);
    expect(user).toMatchObject({ role: 'TRANSCRIPTIONIST', organisation_fk: w.organisationId });
    // Whoever signed up with the address no longer gets in: the invitation mailed to it decides.
    const old = await server.request('POST', '/api/v1/auth/sign-in', {
      body: { email, password: 'signed-up-passphrase' },
    });
    expect(old.status).toBe(401);
    const stale = await server.request('GET', '/api/v1/user/me', { token: early.id_token });
    expect(stale.status).toBe(401);
    const refreshed = await server.request('POST', '/api/v1/auth/refresh', {
      body: { refresh_token: early.refresh_token },
    });
    expect(refreshed.status).toBe(401);
    expect((await setPassword(await latestToken(email), 'a-long-enough-passphrase')).status).toBe(200);
    const session = await signIn(server, email, 'a-long-enough-passphrase');
    expect(session.user).toMatchObject({ id: user.id, role: 'TRANSCRIPTIONIST' });
    // An account another organisation took in stays taken.
    const taken = await w.save('admin', {
      role: 'TRANSCRIPTIONIST',
      first_name: 'Ina',
      last_name: 'Vite',
      email: w.users.outsider.email,
      facility_fks: w.f1.id,
    });
    expect(taken.status).toBe(409);
  });

  it('is sent again on request; the earlier link stops working', async () => {
    const user = await invite();
    const first = await latestToken(user.email);
    const resent = await w.post('admin', `/user/${user.id}/invitation`);
    expect(resent.status, resent.text).toBe(200);
    expect(resent.json).toMatchObject({ sent: true });
    const second = await latestToken(user.email);
    expect(second).not.toBe(first);
    expect((await setPassword(first, 'a-long-enough-passphrase')).status).toBe(400);
    expect((await setPassword(second, 'a-long-enough-passphrase')).status).toBe(200);
    const again = await w.post('admin', `/user/${user.id}/invitation`);
    expect(again.status).toBe(409);
  });

  it('may be resent by whoever manages the user, and only them', async () => {
    const pending = savedUser(
      await w.save('facilityAdmin', {
        role: 'TRANSCRIPTIONIST',
        first_name: 'F',
        last_name: 'A',
        email: newEmail(),
      }),
    );
    expect((await w.post('facilityAdmin', `/user/${pending.id}/invitation`)).status).toBe(200);
    const radiologist = await invite({ role: 'RADIOLOGIST' });
    expect((await w.post('facilityAdmin', `/user/${radiologist.id}/invitation`)).status).toBe(403);
    expect((await w.post('outsider', `/user/${pending.id}/invitation`)).status).toBe(404);
    // Colleagues of the same facility see the user but may not invite; a referrer does not see them.
    for (const user of ['radiologist', 'transcriptionist'] as const) {
      expect((await w.post(user, `/user/${pending.id}/invitation`)).status, user).toBe(403);
    }
    expect((await w.post('referrer', `/user/${pending.id}/invitation`)).status).toBe(404);
    expect((await w.post('admin', '/user/not-a-uuid/invitation')).status).toBe(400);
  });
});

describe('POST /user/reset-password', () => {
  it('send_email=true mails the user a link; the audit trail names the admin', async () => {
    const user = await buildUser(server.db, { role: 'TRANSCRIPTIONIST', facilities: [w.f1] });
    const response = await w.post('admin', '/user/reset-password', { email: user.email.toUpperCase() });
    expect(response.status, response.text).toBe(200);
    expect(ZAdminResetPasswordResponse.parse(response.json)).toEqual({
      sent: true,
      reset_link: null,
      expires_at: null,
    });
    const [mail] = await mailsTo(user.email);
    expect(mail?.body).toContain('Admin Ada');
    expect((await setPassword(await latestToken(user.email), 'a-new-long-passphrase')).status).toBe(200);
    await signIn(server, user.email, 'a-new-long-passphrase');
    const [audit] = await auditOf(user.id, 'user.password_reset_started');
    expect(audit).toMatchObject({ actorUserId: w.users.admin.id, data: { delivery: 'email' } });
  });

  it('send_email=false hands the one-time link to the admin and mails nothing', async () => {
    const user = await buildUser(server.db, { role: 'REFERRING_PHYSICIAN', facilities: [w.f1] });
    const response = await w.post('facilityAdmin', '/user/reset-password', {
      email: user.email,
      send_email: false,
    });
    expect(response.status, response.text).toBe(200);
    const body = ZAdminResetPasswordResponse.parse(response.json);
    expect(body.sent).toBe(false);
    expect(body.expires_at).not.toBeNull();
    const token = LINK.exec(body.reset_link ?? '')?.[1] ?? '';
    expect(await mailsTo(user.email)).toEqual([]);
    expect((await setPassword(token, 'handed-over-passphrase')).status).toBe(200);
    await signIn(server, user.email, 'handed-over-passphrase');
    const [audit] = await auditOf(user.id, 'user.password_reset_started');
    expect(audit).toMatchObject({
      actorUserId: w.users.facilityAdmin.id,
      data: { delivery: 'handed_to_admin' },
    });
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it('tells nobody outside the scope whether an address exists', async () => {
    const unknown = await w.post('admin', '/user/reset-password', { email: 'nobody-at-all@example.test' });
    const foreign = await w.post('admin', '/user/reset-password', { email: w.users.outsider.email });
    expect(unknown.status).toBe(404);
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe(unknown.text);
    const elsewhere = await w.post('facilityAdmin', '/user/reset-password', {
      email: w.users.transcriptionistF2.email,
    });
    expect(elsewhere.text).toBe(unknown.text);
    for (const user of ['radiologist', 'transcriptionist', 'referrer'] as const) {
      const known = await w.post(user, '/user/reset-password', { email: w.users.admin.email });
      const nobody = await w.post(user, '/user/reset-password', { email: 'nobody-at-all@example.test' });
      expect([known.status, nobody.status], user).toEqual([403, 403]);
      expect(known.text).toBe(nobody.text);
    }
    expect(await mailsTo(w.users.outsider.email)).toEqual([]);
  });

  it('refuses a user the caller sees but does not manage, oneself, a disabled user and bad input', async () => {
    const radiologist = await w.post('facilityAdmin', '/user/reset-password', {
      email: w.users.radiologist.email,
    });
    expect(radiologist.status).toBe(403);
    expect((await w.post('admin', '/user/reset-password', { email: w.users.admin.email })).status).toBe(403);
    const disabled = await buildUser(server.db, {
      role: 'TRANSCRIPTIONIST',
      facilities: [w.f1],
      status: 'INACTIVE',
    });
    expect((await w.post('admin', '/user/reset-password', { email: disabled.email })).status).toBe(403);
    for (const [body, field] of [
      [{ email: 'not-an-address' }, 'email'],
      [{}, 'email'],
      [{ email: w.users.transcriptionist.email, send_email: 'maybe' }, 'send_email'],
    ] as const) {
      const response = await w.post('admin', '/user/reset-password', body);
      expect(response.status).toBe(400);
      expect(response.text).toContain(field);
    }
  });
});
