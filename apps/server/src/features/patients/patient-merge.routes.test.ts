import type { TMergePatientResult, TPatientList, TWorklistItem } from '@ris/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
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
const u = {} as Record<
  'admin' | 'facilityAdmin' | 'transcriptionist' | 'rad' | 'referrer' | 'outsider',
  TUser
>;
const tokens = new Map<string, string>();
const as = (user: TUser) => tokens.get(user.id) ?? '';
let f1: TFacility;
let f2: TFacility;

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  f1 = await buildFacility(db, { organisationId: organisation.id });
  f2 = await buildFacility(db, { organisationId: organisation.id });
  u.admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  u.facilityAdmin = await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f1] });
  u.transcriptionist = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f1] });
  u.rad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] });
  u.referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id });
  u.outsider = await buildUser(db, { role: 'ADMIN' });
  for (const user of Object.values(u)) tokens.set(user.id, await tokenFor(server, user));
});

afterAll(async () => {
  await server.close();
});

const merge = (user: TUser, keptId: string, body: Record<string, unknown>) =>
  server.request('POST', `/api/v1/user/patient/${keptId}/merge`, { token: as(user), body });

/** Two records of one person at f1: the kept one with two studies, the duplicate with two (one deleted). */
async function duplicatePair() {
  const kept = await buildPatient(server.db, {
    facility: f1,
    name: 'Priya Sharma',
    birthDate: '1975-05-06',
    phone: null,
  });
  const duplicate = await buildPatient(server.db, {
    facility: f1,
    name: 'Priya Sharmaa',
    sex: 'F',
    birthDate: '1975-06-05',
    phone: '+91 98765 43210',
  });
  const keptStudies = [
    await buildStudy(server.db, { facility: f1, patient: kept, status: 'FINAL' }),
    await buildStudy(server.db, { facility: f1, patient: kept, status: 'TO_READ' }),
  ];
  const duplicateStudies = [
    await buildStudy(server.db, { facility: f1, patient: duplicate, status: 'DRAFTED' }),
    await buildStudy(server.db, { facility: f1, patient: duplicate, status: 'DELETED' }),
  ];
  return { kept, duplicate, keptStudies, duplicateStudies };
}

async function rowsOf(ids: string[]) {
  const patients = await server.db.select().from(t.patients).where(inArray(t.patients.id, ids));
  const studies = await server.db.select().from(t.studies).where(inArray(t.studies.patientId, ids));
  return JSON.stringify({
    patients: patients.sort((a, b) => a.id.localeCompare(b.id)),
    studies: studies.sort((a, b) => a.id.localeCompare(b.id)),
  });
}

const auditOf = (keptId: string) =>
  server.db
    .select()
    .from(t.auditEvents)
    .where(and(eq(t.auditEvents.action, 'patient.merge'), eq(t.auditEvents.entityId, keptId)));

describe('POST /user/patient/{id}/merge', () => {
  it('moves every study to the record kept, keeps the duplicate marked merged and audits both', async () => {
    const { kept, duplicate, keptStudies, duplicateStudies } = await duplicatePair();
    const changed: string[] = [];
    const off = server.app.events.on('worklist.item.changed', (e) => changed.push(e.item.id));
    const response = await merge(u.admin, kept.id, { duplicate_id: duplicate.id, by_user_id: u.admin.id });
    off();
    expect(response.status, response.text).toBe(200);
    const result = response.json as TMergePatientResult;
    expect(result.moved_study_ids.sort()).toEqual(duplicateStudies.map((s) => s.id).sort());
    // The kept record keeps its own values and takes the duplicate's where it had none.
    expect(result.patient).toMatchObject({
      id: kept.id,
      name: 'Priya Sharma',
      birth_date: '1975-05-06',
      sex: 'F',
      phone: '+91 98765 43210',
      merged_into_fk: null,
      abilities: { edit: true, merge: true },
    });
    expect(result.merged).toMatchObject({
      id: duplicate.id,
      name: 'Priya Sharmaa',
      merged_into_fk: kept.id,
      abilities: { edit: false, merge: false },
    });

    // Every study is on the kept record and shows its details; nothing was deleted.
    const studies = await server.db.select().from(t.studies).where(eq(t.studies.patientId, kept.id));
    expect(studies.map((s) => s.id).sort()).toEqual(
      [...keptStudies, ...duplicateStudies].map((s) => s.id).sort(),
    );
    for (const study of studies) {
      expect(study).toMatchObject({
        patientName: 'Priya Sharma',
        patientIdentifier: kept.patientIdentifier,
        patientSex: 'F',
        patientBirthDate: '1975-05-06',
      });
    }
    const [stored] = await server.db.select().from(t.patients).where(eq(t.patients.id, duplicate.id));
    expect(stored).toMatchObject({ name: 'Priya Sharmaa', phone: '+91 98765 43210', mergedIntoId: kept.id });
    expect(stored?.mergedAt).toBeInstanceOf(Date);
    // Live studies are announced (the deleted one is not).
    expect(changed.sort()).toEqual([...keptStudies, duplicateStudies[0]].map((s) => s?.id ?? '').sort());

    const [audit, ...more] = await auditOf(kept.id);
    expect(more).toEqual([]);
    expect(audit).toMatchObject({
      actorUserId: u.admin.id,
      organisationId: f1.organisationId,
      entityType: 'patient',
      data: {
        kept_id: kept.id,
        duplicate_id: duplicate.id,
        duplicate: {
          name: 'Priya Sharmaa',
          patient_id: duplicate.patientIdentifier,
          birth_date: '1975-06-05',
        },
        kept: { name: 'Priya Sharma', phone: null },
        filled_from_duplicate: ['sex', 'phone'],
      },
    });

    // The duplicate leaves the list and its studies' list is empty; it cannot change any more.
    const list = await server.request('GET', `/api/v1/user/patients?search=priya%20sharma`, {
      token: as(u.admin),
    });
    expect((list.json as TPatientList).items.map((p) => p.id)).toEqual([kept.id]);
    const onKept = await server.request('GET', `/api/v1/user/patient/${kept.id}/studies`, {
      token: as(u.admin),
    });
    expect((onKept.json as { total: number }).total).toBe(4);
    const edit = await server.request('PATCH', `/api/v1/user/patient/${duplicate.id}`, {
      token: as(u.admin),
      body: { name: 'X' },
    });
    expect(edit.status).toBe(409);
    expect(edit.text).toContain('merged');
    const again = await merge(u.admin, kept.id, { duplicate_id: duplicate.id });
    expect(again.status).toBe(409);
    expect(again.text).toContain('duplicate_id');
    const into = await merge(u.admin, duplicate.id, { duplicate_id: kept.id });
    expect(into.status).toBe(409);
  });

  it('sends a new order with the duplicate’s patient id to the record kept', async () => {
    const { kept, duplicate } = await duplicatePair();
    expect((await merge(u.admin, kept.id, { duplicate_id: duplicate.id })).status).toBe(200);
    const order = await server.request('POST', '/api/v1/worklist/create/order', {
      token: as(u.transcriptionist),
      body: {
        patient_name: 'Priya Sharmaa',
        patient_id: duplicate.patientIdentifier,
        modality: 'CT',
        study: 'CT Head',
        facility_fk: f1.id,
      },
    });
    expect(order.status, order.text).toBe(201);
    const item = order.json as TWorklistItem;
    expect(item).toMatchObject({ patient_name: 'Priya Sharma', patient_id: kept.patientIdentifier });
    const [study] = await server.db.select().from(t.studies).where(eq(t.studies.id, item.id));
    expect(study?.patientId).toBe(kept.id);
  });

  it('refuses a record into itself, another organisation’s, another facility’s, non-admins and spoofing; nothing changes', async () => {
    const { kept, duplicate } = await duplicatePair();
    const elsewhere = await buildPatient(server.db);
    const atF2 = await buildPatient(server.db, { facility: f2, name: 'Priya Sharma' });
    const before = await rowsOf([kept.id, duplicate.id, elsewhere.id, atF2.id]);

    const itself = await merge(u.admin, kept.id, { duplicate_id: kept.id });
    expect(itself.status).toBe(400);
    expect(itself.json).toMatchObject({ error: { details: { field: 'duplicate_id' } } });
    const otherOrganisation = await merge(u.admin, kept.id, { duplicate_id: elsewhere.id });
    expect(otherOrganisation.status).toBe(404);
    expect(otherOrganisation.json).toMatchObject({ error: { details: { field: 'duplicate_id' } } });
    const otherFacility = await merge(u.admin, kept.id, { duplicate_id: atF2.id });
    expect(otherFacility.status).toBe(422);
    expect(otherFacility.json).toMatchObject({ error: { details: { field: 'duplicate_id' } } });
    expect((await merge(u.outsider, kept.id, { duplicate_id: duplicate.id })).status).toBe(404);
    expect((await merge(u.outsider, elsewhere.id, { duplicate_id: duplicate.id })).status).toBe(404);
    for (const user of [u.facilityAdmin, u.transcriptionist, u.rad]) {
      const refused = await merge(user, kept.id, { duplicate_id: duplicate.id });
      expect(refused.status, user.role ?? '').toBe(403);
    }
    expect((await merge(u.referrer, kept.id, { duplicate_id: duplicate.id })).status).toBe(404);
    const spoofed = await merge(u.admin, kept.id, { duplicate_id: duplicate.id, by_user_id: u.rad.id });
    expect(spoofed.status).toBe(403);
    const invalid = await merge(u.admin, kept.id, { duplicate_id: 'nope' });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain('duplicate_id');

    expect(await rowsOf([kept.id, duplicate.id, elsewhere.id, atF2.id])).toBe(before);
    expect(await auditOf(kept.id)).toEqual([]);
  });

  it('writes nothing when a step of the merge fails', async () => {
    const { kept, duplicate } = await duplicatePair();
    const before = await rowsOf([kept.id, duplicate.id]);
    // The audit entry is the merge's last write: make the database refuse it.
    await server.db.execute(sql`create function ris_test_refuse_merge() returns trigger language plpgsql as
      $$ begin raise exception 'audit refused'; end $$`);
    await server.db.execute(sql`create trigger ris_test_refuse_merge before insert on audit_events
      for each row when (new.action = 'patient.merge') execute function ris_test_refuse_merge()`);
    try {
      const response = await merge(u.admin, kept.id, { duplicate_id: duplicate.id });
      expect(response.status).toBe(500);
      expect(response.json).toMatchObject({ error: { code: expect.any(String) } });
    } finally {
      await server.db.execute(sql`drop trigger ris_test_refuse_merge on audit_events`);
      await server.db.execute(sql`drop function ris_test_refuse_merge()`);
    }
    expect(await rowsOf([kept.id, duplicate.id])).toBe(before);
    expect((await merge(u.admin, kept.id, { duplicate_id: duplicate.id })).status).toBe(200);
  });
});
