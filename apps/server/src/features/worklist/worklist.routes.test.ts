import { type TWorklistItem } from '@ris/domain';
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
type TFacility = Awaited<ReturnType<typeof buildFacility>>;
type TUser = Awaited<ReturnType<typeof buildUser>>;
let f1: TFacility;
let f2: TFacility;
let elsewhere: TFacility;
const u = {} as Record<
  'admin' | 'facilityAdmin' | 'transcriptionist' | 'radiologist' | 'referrer' | 'outsider' | 'f2Admin',
  TUser
>;
const tokens = new Map<string, string>();
const as = (user: TUser) => tokens.get(user.id) ?? '';
let physicianId: string;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

type TFile = { name: string; data: Buffer; type?: string };

async function postForm(path: string, token: string, fields: Record<string, string>, files: TFile[] = []) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const file of files) {
    form.append(
      'files',
      new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/pdf' }),
      file.name,
    );
  }
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? (JSON.parse(text) as unknown) : undefined };
}

const countStudies = async () => (await server.db.select({ id: t.studies.id }).from(t.studies)).length;
const countFiles = async () => (await server.db.select({ id: t.storedFiles.id }).from(t.storedFiles)).length;
const studyRow = async (id: string) =>
  (await server.db.select().from(t.studies).where(eq(t.studies.id, id)))[0];

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  f1 = await buildFacility(db, { organisationId: organisation.id });
  f2 = await buildFacility(db, { organisationId: organisation.id });
  elsewhere = await buildFacility(db);
  u.admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  u.facilityAdmin = await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f1] });
  u.f2Admin = await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f2] });
  u.transcriptionist = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f1] });
  u.radiologist = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1, f2] });
  u.referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id });
  u.outsider = await buildUser(db, { role: 'ADMIN', organisationId: elsewhere.organisationId });
  const [physician] = await db
    .insert(t.referringPhysicians)
    .values({ organisationId: organisation.id, userId: u.referrer.id, name: 'Dr Referrer' })
    .returning();
  physicianId = physician?.id ?? '';
  for (const user of Object.values(u)) tokens.set(user.id, await tokenFor(server, user));
});

afterAll(async () => {
  await server.close();
});

const order = (extra: Record<string, string> = {}) => ({
  patient_name: 'Ana Souza',
  patient_sex: 'female',
  patient_birth_date: '1980-02-03',
  modality: 'CT',
  study: 'CT Chest',
  facility_fk: f1.id,
  priority_tag: 'URGENT',
  clinical_history: 'Cough for 3 weeks',
  ...extra,
});

describe('POST /worklist/create/order', () => {
  it('creates an ORDERED item with a generated patient id, documents and a history entry', async () => {
    const response = await postForm('/worklist/create/order', as(u.transcriptionist), order(), [
      { name: 'requisition.pdf', data: PDF },
      { name: 'scan.png', data: PNG, type: 'image/png' },
    ]);
    expect(response.status, response.text).toBe(201);
    const item = response.json as TWorklistItem;
    expect(item).toMatchObject({
      status: 'ORDERED',
      patient_name: 'Ana Souza',
      patient_sex: 'F',
      modality_group: 'CT',
      priority_tag: 'URGENT',
      facility_fk: f1.id,
      study_uid: null,
    });
    expect(item.patient_id).toMatch(/^SM[A-Z0-9]{8}$/);
    expect(item.accession_number).toMatch(/^SM[A-Z0-9]{8}$/);
    expect(item.patient_documents.map((d) => d.media_type)).toEqual(['application/pdf', 'image/png']);
    // GET /worklist builds its items as JSON in SQL: the same item, field for field, as the presenter's.
    const listed = await server.request('GET', `/api/v1/worklist?search=${item.accession_number}`, {
      token: as(u.transcriptionist),
    });
    expect(listed.status, listed.text).toBe(200);
    expect((listed.json as { items: TWorklistItem[] }).items).toEqual([item]);
    expect(Object.keys((listed.json as { items: TWorklistItem[] }).items[0] ?? {})).toEqual(
      Object.keys(item),
    );
    const history = await server.request('GET', `/api/v1/worklist/statuses/${item.id}`, {
      token: as(u.transcriptionist),
    });
    expect(history.json).toMatchObject({
      history: [{ from_status: null, to_status: 'ORDERED', by_user_fk: u.transcriptionist.id }],
    });
  });

  it('reuses the patient found by (facility, patient_id) and links a referring physician', async () => {
    const patient = await buildPatient(server.db, { facility: f1, name: 'Existing Person' });
    const response = await postForm(
      '/worklist/create/order',
      as(u.admin),
      order({
        patient_id: patient.patientIdentifier,
        patient_name: 'Typed Name',
        referring_physician_fk: physicianId,
        by_user_id: u.admin.id,
      }),
    );
    expect(response.status, response.text).toBe(201);
    expect(response.json).toMatchObject({
      patient_name: 'Existing Person',
      patient_id: patient.patientIdentifier,
      referring_physician: 'Dr Referrer',
    });
    const patients = await server.db
      .select()
      .from(t.patients)
      .where(eq(t.patients.patientIdentifier, patient.patientIdentifier));
    expect(patients).toHaveLength(1);
  });

  it('refuses radiologists, referring physicians and facilities outside the caller’s scope', async () => {
    const before = await countStudies();
    expect((await postForm('/worklist/create/order', as(u.radiologist), order())).status).toBe(403);
    expect((await postForm('/worklist/create/order', as(u.referrer), order())).status).toBe(403);
    const otherFacility = await postForm(
      '/worklist/create/order',
      as(u.facilityAdmin),
      order({ facility_fk: f2.id }),
    );
    expect(otherFacility.status).toBe(404);
    expect(otherFacility.text).toContain('facility_fk');
    const otherOrg = await postForm(
      '/worklist/create/order',
      as(u.admin),
      order({ facility_fk: elsewhere.id }),
    );
    expect(otherOrg.status).toBe(404);
    expect(await countStudies()).toBe(before);
  });

  it('names missing and malformed fields, and writes nothing', async () => {
    const before = await countStudies();
    const fields = order({ patient_birth_date: '03/02/1980', priority_tag: 'SOON' });
    delete (fields as Partial<typeof fields>).patient_name;
    const response = await postForm('/worklist/create/order', as(u.admin), fields);
    expect(response.status).toBe(400);
    expect(response.text).toContain('patient_name');
    expect(response.text).toContain('patient_birth_date');
    expect(response.text).toContain('priority_tag');
    const future = await postForm(
      '/worklist/create/order',
      as(u.admin),
      order({ patient_birth_date: '2999-01-01' }),
    );
    expect(future.status).toBe(400);
    expect(future.json).toMatchObject({
      error: { message: expect.stringMatching(/patient_birth_date: must not be in the future/) },
    });
    expect(await countStudies()).toBe(before);
  });

  it('refuses a file of the wrong type by its content whatever its name, and writes nothing', async () => {
    const [studiesBefore, filesBefore] = [await countStudies(), await countFiles()];
    const response = await postForm('/worklist/create/order', as(u.admin), order(), [
      { name: 'ok.pdf', data: PDF },
      { name: 'fake.pdf', data: Buffer.from('GIF89a not a pdf at all'), type: 'application/pdf' },
    ]);
    expect(response.status).toBe(415);
    expect(response.text).toContain('files');
    expect([await countStudies(), await countFiles()]).toEqual([studiesBefore, filesBefore]);
  });

  it('refuses a file over 20 MB and more than 10 files', async () => {
    const before = await countStudies();
    const big = Buffer.alloc(20 * 1024 * 1024 + 1, 0);
    PDF.copy(big);
    const oversize = await postForm('/worklist/create/order', as(u.admin), order(), [
      { name: 'big.pdf', data: big },
    ]);
    expect(oversize.status).toBe(413);
    expect(oversize.text).toContain('files');
    const many = Array.from({ length: 11 }, (_, i) => ({ name: `d${i}.pdf`, data: PDF }));
    const tooMany = await postForm('/worklist/create/order', as(u.admin), order(), many);
    expect(tooMany.status).toBe(413);
    expect(tooMany.text).toContain('files');
    expect(await countStudies()).toBe(before);
  });

  it('refuses by_user_id naming someone else', async () => {
    const before = await countStudies();
    const response = await postForm(
      '/worklist/create/order',
      as(u.admin),
      order({ by_user_id: u.facilityAdmin.id }),
    );
    expect(response.status).toBe(403);
    expect(response.text).toContain('by_user_id');
    expect(await countStudies()).toBe(before);
  });
});

describe('POST /worklist/activate and /worklist/duplicate', () => {
  it('activates an order to TO_READ with a generated DICOM UID, then refuses a second activation', async () => {
    const created = (await postForm('/worklist/create/order', as(u.facilityAdmin), order()))
      .json as TWorklistItem;
    const response = await postForm(
      '/worklist/activate',
      as(u.facilityAdmin),
      {
        worklist_id: created.id,
        series_count: '3',
        study: 'CT Chest with contrast',
      },
      [{ name: 'form.pdf', data: PDF }],
    );
    expect(response.status, response.text).toBe(200);
    const item = response.json as TWorklistItem;
    expect(item).toMatchObject({ status: 'TO_READ', series_count: 3, study: 'CT Chest with contrast' });
    expect(item.study_uid).toMatch(/^2\.25\.\d+$/);
    expect(item.patient_documents).toHaveLength(1);
    const again = await postForm('/worklist/activate', as(u.facilityAdmin), { worklist_id: created.id });
    expect(again.status).toBe(409);
    const history = await server.request('GET', `/api/v1/worklist/statuses/${created.id}`, {
      token: as(u.admin),
    });
    expect((history.json as { history: { to_status: string }[] }).history.map((h) => h.to_status)).toEqual([
      'ORDERED',
      'TO_READ',
    ]);
  });

  it('refuses a study_uid another study has, a radiologist, and an item of another facility', async () => {
    const taken = await buildStudy(server.db, { facility: f1, status: 'TO_READ' });
    const target = await buildStudy(server.db, { facility: f1, status: 'ORDERED', studyUid: null });
    const clash = await postForm('/worklist/activate', as(u.admin), {
      worklist_id: target.id,
      study_uid: taken.studyUid ?? '',
    });
    expect(clash.status).toBe(409);
    expect(clash.text).toContain('study_uid');
    expect((await postForm('/worklist/activate', as(u.radiologist), { worklist_id: target.id })).status).toBe(
      403,
    );
    const foreign = await postForm('/worklist/activate', as(u.f2Admin), { worklist_id: target.id });
    expect(foreign.status).toBe(404);
    expect(foreign.text).toContain('worklist_id');
    expect((await postForm('/worklist/activate', as(u.outsider), { worklist_id: target.id })).status).toBe(
      404,
    );
    expect((await studyRow(target.id))?.status).toBe('ORDERED');
  });

  it('duplicates an item as a new order sharing study_uid and accession', async () => {
    const source = await buildStudy(server.db, { facility: f1, status: 'TO_READ', priorityTag: 'ONCO' });
    const response = await postForm('/worklist/duplicate', as(u.transcriptionist), {
      worklist_id: source.id,
    });
    expect(response.status, response.text).toBe(201);
    const copy = response.json as TWorklistItem;
    expect(copy).toMatchObject({
      status: 'ORDERED',
      study_uid: source.studyUid,
      accession_number: source.accessionNumber,
      priority_tag: 'ONCO',
      last_assigned_user_fk: null,
    });
    expect((await studyRow(copy.id))?.duplicatedFromStudyId).toBe(source.id);
    const json = await server.request('POST', '/api/v1/worklist/duplicate', {
      token: as(u.outsider),
      body: { worklist_id: source.id },
    });
    expect(json.status).toBe(404);
  });
});

describe('GET, PUT and DELETE /worklist/{id}', () => {
  it('reads an item within scope and answers 404 elsewhere', async () => {
    const referred = await buildStudy(server.db, { facility: f2, referringPhysicianId: physicianId });
    const plain = await buildStudy(server.db, { facility: f2 });
    const get = (user: TUser, id: string) =>
      server.request('GET', `/api/v1/worklist/${id}`, { token: as(user) });
    expect((await get(u.admin, plain.id)).status).toBe(200);
    expect((await get(u.radiologist, plain.id)).status).toBe(200);
    expect((await get(u.facilityAdmin, plain.id)).status).toBe(404);
    expect((await get(u.outsider, plain.id)).status).toBe(404);
    expect((await get(u.referrer, plain.id)).status).toBe(404);
    expect((await get(u.referrer, referred.id)).json).toMatchObject({ id: referred.id });
  });

  it('lets the order desk correct details, rewriting every study of the patient', async () => {
    const patient = await buildPatient(server.db, { facility: f1, name: 'Jon Smiht' });
    const a = await buildStudy(server.db, { facility: f1, patient, status: 'TO_READ' });
    const b = await buildStudy(server.db, { facility: f1, patient, status: 'FINAL' });
    const response = await server.request('PUT', `/api/v1/worklist/${a.id}`, {
      token: as(u.transcriptionist),
      body: {
        patient_name: 'Jon Smith',
        clinical_history: 'Fall',
        priority_tag: 'EMERGENCY',
        by_user_id: u.transcriptionist.id,
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({
      patient_name: 'Jon Smith',
      clinical_history: 'Fall',
      priority_tag: 'EMERGENCY',
    });
    expect((await studyRow(b.id))?.patientName).toBe('Jon Smith');
  });

  it('refuses fields the caller may not change, spoofed by_user_id, and outsiders, changing nothing', async () => {
    const study = await buildStudy(server.db, {
      facility: f1,
      status: 'ASSIGNED',
      lastAssignedUserId: u.radiologist.id,
    });
    const put = (user: TUser, body: object) =>
      server.request('PUT', `/api/v1/worklist/${study.id}`, { token: as(user), body });
    const collab = await put(u.transcriptionist, { collaboration_enabled: true });
    expect(collab.status).toBe(403);
    expect(collab.text).toContain('collaboration_enabled');
    expect((await put(u.radiologist, { patient_name: 'X' })).status).toBe(403);
    expect((await put(u.referrer, { priority_tag: 'MLC' })).status).toBe(404);
    expect((await put(u.outsider, { priority_tag: 'MLC' })).status).toBe(404);
    expect((await put(u.admin, { priority_tag: 'MLC', by_user_id: u.radiologist.id })).status).toBe(403);
    expect(await studyRow(study.id)).toMatchObject({
      collaborationEnabled: false,
      priorityTag: null,
      patientName: study.patientName,
    });
    const own = await put(u.radiologist, { collaboration_enabled: true, by_user_id: u.radiologist.id });
    expect(own.status, own.text).toBe(200);
    expect(own.json).toMatchObject({ collaboration_enabled: true });
  });

  it('soft-deletes for admins only, never a FINAL study, and records it', async () => {
    const study = await buildStudy(server.db, { facility: f1, status: 'TO_READ' });
    const final = await buildStudy(server.db, { facility: f1, status: 'FINAL' });
    const del = (user: TUser, id: string, query = '') =>
      server.request('DELETE', `/api/v1/worklist/${id}${query}`, { token: as(user) });
    expect((await del(u.facilityAdmin, study.id)).status).toBe(403);
    expect((await del(u.outsider, study.id)).status).toBe(404);
    expect((await del(u.admin, study.id, `?by_user_id=${u.facilityAdmin.id}`)).status).toBe(403);
    expect((await studyRow(study.id))?.status).toBe('TO_READ');
    const deleted = await del(u.admin, study.id, `?by_user_id=${u.admin.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(await studyRow(study.id)).toMatchObject({ status: 'DELETED', deletedBy: u.admin.id });
    expect(
      (await server.request('GET', `/api/v1/worklist/${study.id}`, { token: as(u.radiologist) })).status,
    ).toBe(404);
    const finalDelete = await del(u.admin, final.id);
    expect(finalDelete.status).toBe(409);
    expect((await studyRow(final.id))?.status).toBe('FINAL');
    const history = await server.request('GET', `/api/v1/worklist/statuses/${study.id}`, {
      token: as(u.admin),
    });
    expect(history.json).toMatchObject({
      history: [
        {
          from_status: 'TO_READ',
          to_status: 'DELETED',
          by_user_fk: u.admin.id,
          by_user_display_name: u.admin.displayName,
        },
      ],
    });
  });

  it('announces changes and deletions after commit', async () => {
    const seen: string[] = [];
    const offChanged = server.app.events.on('worklist.item.changed', (e) =>
      seen.push(`changed:${e.item.id}`),
    );
    const offDeleted = server.app.events.on('worklist.item.deleted', (e) => seen.push(`deleted:${e.id}`));
    const study = await buildStudy(server.db, { facility: f1, status: 'TO_READ' });
    await server.request('PUT', `/api/v1/worklist/${study.id}`, {
      token: as(u.admin),
      body: { priority_tag: 'MLC' },
    });
    await server.request('DELETE', `/api/v1/worklist/${study.id}`, { token: as(u.admin) });
    offChanged();
    offDeleted();
    expect(seen).toEqual([`changed:${study.id}`, `deleted:${study.id}`]);
  });
});
