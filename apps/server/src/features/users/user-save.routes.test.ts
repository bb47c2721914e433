import { ZSaveUserResponse } from '@ris/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { buildUserAdminWorld, savedUser, type TUserAdminWorld } from '../../test/user-admin-world.ts';

let server: TTestServer;
let w: TUserAdminWorld;

beforeAll(async () => {
  server = await startTestServer();
  w = await buildUserAdminWorld(server);
});
afterAll(async () => {
  await server.close();
});

let serial = 0;
const newEmail = () => `new-person-${(serial += 1)}-${Date.now()}@example.test`;
const userCount = async () =>
  (await server.db.select({ n: sql<number>`count(*)::int` }).from(t.users))[0]?.n ?? 0;
const outboxCount = async () => {
  await server.identity.settled();
  return (await server.db.select({ n: sql<number>`count(*)::int` }).from(t.outboundMessages))[0]?.n ?? 0;
};
const facilityIdsOf = async (userId: string) =>
  (await server.db.select().from(t.userFacilities).where(eq(t.userFacilities.userId, userId)))
    .map((row) => row.facilityId)
    .sort();

describe('POST /user: create', () => {
  it('an admin creates a reporter for two facilities: role details, facilities, audit, no password', async () => {
    const email = newEmail();
    const response = await w.save('admin', {
      role: 'RADIOLOGIST',
      user_type: 'REPORTER',
      first_name: 'Meera',
      last_name: 'Iyer',
      email: email.toUpperCase(),
      radiologist_description: 'MD Radiology\nConsultant',
      facility_fks: [w.f1.id, w.f2.id],
      organisation_fk: w.organisationId,
    });
    expect(response.status, response.text).toBe(201);
    const body = ZSaveUserResponse.parse(response.json);
    expect(body).toMatchObject({ created: true, invitation_sent: true });
    expect(body.user).toMatchObject({
      email,
      role: 'RADIOLOGIST',
      display_name: 'Meera Iyer',
      status: 'ACTIVE',
      organisation_fk: w.organisationId,
      user_type: 'REPORTER',
      radiologist_description: 'MD Radiology\nConsultant',
      radiologist_details: { user_type: 'REPORTER', description: 'MD Radiology\nConsultant' },
      invitation_pending: true,
      abilities: { edit: true, disable: true, reset_password: true, resend_invitation: true },
    });
    expect(new Set(body.user.facility_fks)).toEqual(new Set([w.f1.id, w.f2.id]));
    const row = await w.row(body.user.id);
    expect(row.passwordHash).toBeNull();
    expect(await facilityIdsOf(row.id)).toEqual([w.f1.id, w.f2.id].sort());
    const [audit] = await server.db
      .select()
      .from(t.auditEvents)
      .where(and(eq(t.auditEvents.entityId, row.id), eq(t.auditEvents.action, 'user.created')));
    expect(audit).toMatchObject({ actorUserId: w.users.admin.id, organisationId: w.organisationId });
  });

  it('a facility admin creates transcriptionists and referrers of their own facility only', async () => {
    const created = savedUser(
      await w.save('facilityAdmin', {
        role: 'TRANSCRIPTIONIST',
        first_name: 'Tara',
        last_name: 'Nair',
        email: newEmail(),
      }),
    );
    expect(created.facility_fks).toEqual([w.f1.id]);
    expect(created.transcriptionist_details).toEqual({ facility_fks: [w.f1.id] });
    const referrer = savedUser(
      await w.save('facilityAdmin', {
        role: 'REFERRING_PHYSICIAN',
        first_name: 'Ravi',
        last_name: 'Kumar',
        email: newEmail(),
        facility_fks: w.f1.id,
      }),
    );
    expect(referrer.facility_fks).toEqual([w.f1.id]);
    const before = await userCount();
    const radiologist = await w.save('facilityAdmin', {
      role: 'RADIOLOGIST',
      first_name: 'No',
      last_name: 'Way',
      email: newEmail(),
    });
    expect(radiologist.status).toBe(403);
    expect(radiologist.json).toMatchObject({ error: { details: { field: 'role' } } });
    const elsewhere = await w.save('facilityAdmin', {
      role: 'TRANSCRIPTIONIST',
      first_name: 'No',
      last_name: 'Way',
      email: newEmail(),
      facility_fks: w.f2.id,
    });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.json).toMatchObject({ error: { details: { field: 'facility_fks' } } });
    expect(await userCount()).toBe(before);
  });

  it('refuses everyone else before reading the form (403)', async () => {
    for (const user of ['radiologist', 'transcriptionist', 'referrer'] as const) {
      const response = await w.save(user, {
        role: 'TRANSCRIPTIONIST',
        first_name: 'A',
        last_name: 'B',
        email: newEmail(),
      });
      expect(response.status, user).toBe(403);
    }
  });

  it('answers 4xx naming the field for bad input, writing nothing and mailing nobody', async () => {
    const good = {
      role: 'TRANSCRIPTIONIST',
      first_name: 'Good',
      last_name: 'Person',
      email: newEmail(),
      facility_fks: w.f1.id,
    };
    const users = await userCount();
    const mails = await outboxCount();
    const cases: [Record<string, string | string[] | undefined>, number, string][] = [
      [{ ...good, by_user_id: undefined }, 400, 'by_user_id'],
      [{ ...good, by_user_id: w.users.secondAdmin.id }, 403, 'by_user_id'],
      [{ ...good, role: 'KING' }, 400, 'role'],
      [{ ...good, role: undefined }, 400, 'role'],
      [{ ...good, email: undefined }, 400, 'email'],
      [{ ...good, email: 'not-an-address' }, 400, 'email'],
      [{ ...good, first_name: undefined }, 400, 'first_name'],
      [{ ...good, facility_fks: w.foreignFacility.id }, 400, 'facility_fks'],
      [{ ...good, facility_fks: 'nope' }, 400, 'facility_fks'],
      [{ ...good, facility_fks: '' }, 400, 'facility_fks'],
      [{ ...good, user_type: 'REPORTER' }, 400, 'user_type'],
      [{ ...good, radiologist_description: 'Consultant' }, 400, 'radiologist_description'],
      [{ ...good, organisation_fk: w.foreignFacility.organisationId }, 403, 'organisation_fk'],
      [{ ...good, status: 'INACTIVE' }, 400, 'status'],
      [{ ...good, role: 'ADMIN' }, 400, 'facility_fks'],
      [{ ...good, role: 'FACILITY_ADMIN', facility_fks: [w.f1.id, w.f2.id] }, 400, 'facility_fks'],
      [{ ...good, email: w.users.radiologist.email.toUpperCase() }, 409, 'email'],
      [{ ...good, email: w.users.outsider.email }, 409, 'email'],
    ];
    for (const [fields, status, field] of cases) {
      const response = await w.save('admin', fields);
      expect(response.status, `${field}: ${response.text}`).toBe(status);
      expect(response.text, field).toContain(field);
    }
    expect(await userCount()).toBe(users);
    expect(await outboxCount()).toBe(mails);
  });

  it('answers a JSON body like the form (no signature)', async () => {
    const response = await w.post('admin', '/user', {
      by_user_id: w.users.admin.id,
      role: 'ADMIN',
      first_name: 'Json',
      last_name: 'Admin',
      email: newEmail(),
    });
    expect(response.status, response.text).toBe(201);
    expect(ZSaveUserResponse.parse(response.json).user).toMatchObject({ role: 'ADMIN', facility_fks: [] });
  });
});

describe('POST /user: update', () => {
  it('an admin changes names, role and facilities; the fields not sent stay', async () => {
    const created = savedUser(
      await w.save('admin', {
        role: 'TRANSCRIPTIONIST',
        first_name: 'Old',
        last_name: 'Name',
        email: newEmail(),
        facility_fks: w.f1.id,
      }),
    );
    const renamed = savedUser(await w.save('admin', { id: created.id, display_name: 'New Display' }));
    expect(renamed).toMatchObject({
      display_name: 'New Display',
      first_name: 'Old',
      role: 'TRANSCRIPTIONIST',
    });
    const promoted = savedUser(
      await w.save('admin', {
        id: created.id,
        role: 'RADIOLOGIST',
        facility_fks: [w.f1.id, w.f2.id],
        radiologist_description: 'DNB',
      }),
    );
    expect(promoted).toMatchObject({
      role: 'RADIOLOGIST',
      user_type: 'RADIOLOGIST',
      radiologist_details: { user_type: 'RADIOLOGIST', description: 'DNB' },
      transcriptionist_details: null,
    });
    expect(await facilityIdsOf(created.id)).toEqual([w.f1.id, w.f2.id].sort());
    const admin = savedUser(await w.save('admin', { id: created.id, role: 'ADMIN', facility_fks: '' }));
    expect(admin).toMatchObject({ role: 'ADMIN', facility_fks: [], radiologist_details: null });
    expect(await facilityIdsOf(created.id)).toEqual([]);
    const [audit] = await server.db
      .select()
      .from(t.auditEvents)
      .where(and(eq(t.auditEvents.entityId, created.id), eq(t.auditEvents.action, 'user.updated')))
      .orderBy(sql`${t.auditEvents.createdAt} desc`)
      .limit(1);
    expect(audit?.data).toMatchObject({ role: { from: 'RADIOLOGIST', to: 'ADMIN' } });
  });

  it('an e-mail taken by another account (any case) is 409 naming email; one’s own is fine', async () => {
    const created = savedUser(
      await w.save('admin', { role: 'ADMIN', first_name: 'E', last_name: 'Mail', email: newEmail() }),
    );
    const taken = await w.save('admin', { id: created.id, email: w.users.referrer.email.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ error: { code: 'CONFLICT', details: { field: 'email' } } });
    const same = await w.save('admin', { id: created.id, email: created.email.toUpperCase() });
    expect(same.status, same.text).toBe(200);
    expect((await w.row(created.id)).email).toBe(created.email);
  });

  it('a facility admin edits their transcriptionists; others answer 403 or 404 and stay unchanged', async () => {
    const own = await w.save('facilityAdmin', { id: w.users.transcriptionist.id, last_name: 'Edited' });
    expect(own.status, own.text).toBe(200);
    const promote = await w.save('facilityAdmin', { id: w.users.transcriptionist.id, role: 'RADIOLOGIST' });
    expect(promote.status).toBe(403);
    const radiologist = await w.save('facilityAdmin', { id: w.users.radiologist.id, last_name: 'Hacked' });
    expect(radiologist.status).toBe(403);
    const otherFacility = await w.save('facilityAdmin', {
      id: w.users.transcriptionistF2.id,
      last_name: 'Hacked',
    });
    expect(otherFacility.status).toBe(404);
    const orphan = await w.save('facilityAdmin', {
      id: w.users.transcriptionist.id,
      role: 'REFERRING_PHYSICIAN',
      facility_fks: '',
    });
    expect(orphan.status).toBe(400);
    expect(orphan.json).toMatchObject({ error: { details: { field: 'facility_fks' } } });
    const admin = await w.save('facilityAdmin', { id: w.users.admin.id, last_name: 'Hacked' });
    expect(admin.status).toBe(404);
    const foreign = await w.save('outsider', { id: w.users.radiologist.id, last_name: 'Hacked' });
    expect(foreign.status).toBe(404);
    for (const user of ['radiologist', 'transcriptionistF2', 'admin'] as const) {
      expect((await w.row(w.users[user].id)).lastName).not.toBe('Hacked');
    }
    const unknown = await w.save('admin', { id: '00000000-0000-4000-8000-000000000000', last_name: 'X' });
    expect(unknown.status).toBe(404);
  });

  it('nobody changes their own role, status or facilities; their own name they may', async () => {
    for (const [fields, field] of [
      [{ role: 'RADIOLOGIST', facility_fks: w.f1.id }, 'role'],
      [{ status: 'INACTIVE' }, 'status'],
    ] as const) {
      const response = await w.save('admin', { id: w.users.admin.id, ...fields });
      expect(response.status).toBe(403);
      expect(response.json).toMatchObject({ error: { details: { field } } });
    }
    const facility = await w.save('facilityAdmin', { id: w.users.facilityAdmin.id, facility_fks: w.f2.id });
    expect(facility.status).toBe(403);
    expect(savedUser(await w.save('admin', { id: w.users.admin.id, first_name: 'Ada' })).first_name).toBe(
      'Ada',
    );
    expect(await w.row(w.users.admin.id)).toMatchObject({ role: 'ADMIN', status: 'ACTIVE' });
  });
});
