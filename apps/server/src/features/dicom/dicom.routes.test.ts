// The study images calls over HTTP against a real Orthanc (one per file) and a migrated database:
// the zip download through its signed URL, the delete in the archive, the series and thumbnails,
// every role, another facility and organisation, and the archive down.
import type { TDeletedStudy, TDicomSeries, TDicomZipUrl } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkSigner, deriveLinkKey } from '../../auth/signed-links.ts';
import * as t from '../../db/schema/index.ts';
import { freePort, uploadInstances } from '../../integrations/pacs/local-orthanc.ts';
import { syntheticStudy } from '../../integrations/pacs/synthetic-dicom.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../test/factories.ts';
import { startTestOrthanc, type TTestOrthanc } from '../../test/orthanc.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { DICOM_ZIP_KEY_LABEL } from './dicom-zip-links.ts';

type TUser = Awaited<ReturnType<typeof buildUser>>;
type TFacility = Awaited<ReturnType<typeof buildFacility>>;
type TRole =
  | 'admin'
  | 'facilityAdmin'
  | 'rad'
  | 'transcriptionist'
  | 'otherFacilityRad'
  | 'referrer'
  | 'otherReferrer'
  | 'outsider';

let orthanc: TTestOrthanc;
let server: TTestServer;
const u = {} as Record<TRole, TUser>;
const tokens = new Map<string, string>();
let f1: TFacility;
let archiveId: string;
let physicianId: string;

beforeAll(async () => {
  [orthanc, server] = await Promise.all([startTestOrthanc(), startTestServer()]);
  const db = server.db;
  const organisation = await buildOrganisation(db);
  f1 = await buildFacility(db, { organisationId: organisation.id });
  const f2 = await buildFacility(db, { organisationId: organisation.id });
  u.admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  u.facilityAdmin = await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f1] });
  u.rad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] });
  u.transcriptionist = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f1] });
  u.otherFacilityRad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f2] });
  u.referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id });
  u.otherReferrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id });
  u.outsider = await buildUser(db, { role: 'ADMIN' });
  for (const user of Object.values(u)) tokens.set(user.id, await tokenFor(server, user));
  const [physician] = await db
    .insert(t.referringPhysicians)
    .values({ organisationId: organisation.id, userId: u.referrer.id, name: 'Dr Referrer' })
    .returning();
  physicianId = physician?.id ?? '';
  archiveId = await addArchive(organisation.id, f1.id, { kind: 'orthanc', url: orthanc.restUrl });
}, 60_000);

afterAll(async () => {
  await Promise.all([server?.close(), orthanc?.close()]);
});

async function addArchive(
  organisationId: string,
  facilityId: string,
  options: { kind: 'orthanc' | 'dicomweb'; url: string },
): Promise<string> {
  const [row] = await server.db
    .insert(t.pacsArchives)
    .values({
      organisationId,
      name: `Archive ${options.kind} ${options.url}`,
      kind: options.kind,
      dicomwebUrl: `${options.url}/dicom-web`,
      orthancUrl: options.kind === 'orthanc' ? options.url : null,
      authKind: 'basic',
      username: orthanc.username,
      secretSealed: server.app.secretBox.seal(orthanc.password),
    })
    .returning();
  await server.db.insert(t.pacsArchiveFacilities).values({ archiveId: row?.id ?? '', facilityId });
  return row?.id ?? '';
}

/** A synthetic study in Orthanc and its worklist item (archive_study_key left null: found by lookup). */
async function archivedStudy(
  options: { status?: 'TO_READ' | 'FINAL' | 'ASSIGNED'; facility?: TFacility; archive?: string } = {},
) {
  const images = syntheticStudy({
    patientName: 'Zip^Patient',
    patientId: 'PID/7 é',
    accessionNumber: `ACC-${Date.now()}`,
    studyDescription: 'CT CHEST',
    modalities: ['CT', 'SR'],
    instancesPerSeries: 3,
  });
  await uploadInstances(orthanc, images.instances);
  const study = await buildStudy(server.db, {
    facility: options.facility ?? f1,
    status: options.status ?? 'TO_READ',
    studyUid: images.studyUid,
    pacsArchiveId: options.archive ?? archiveId,
    patientIdentifier: 'PID/7 é',
    studyDatetime: new Date('2026-03-04T10:00:00Z'),
    referringPhysicianId: physicianId,
  });
  return { images, study };
}

const as = (user: TUser) => tokens.get(user.id) ?? '';
const get = (user: TUser, path: string) => server.request('GET', `/api/v1${path}`, { token: as(user) });

async function orthancStudyId(studyUid: string): Promise<string> {
  const response = await fetch(`${orthanc.restUrl}/tools/lookup`, {
    method: 'POST',
    headers: { authorization: orthanc.authorization },
    body: studyUid,
  });
  const [hit] = (await response.json()) as { ID: string }[];
  return hit?.ID ?? '';
}

async function orthancHas(orthancId: string): Promise<boolean> {
  const response = await fetch(`${orthanc.restUrl}/studies/${orthancId}`, {
    headers: { authorization: orthanc.authorization },
  });
  await response.arrayBuffer();
  return response.status === 200;
}

async function zipUrl(user: TUser, studyUid: string): Promise<TDicomZipUrl> {
  const response = await get(user, `/dicom/get-dicom-zip-url?study_uid=${studyUid}`);
  expect(response.status, response.text).toBe(200);
  return response.json as TDicomZipUrl;
}

async function download(url: string) {
  const response = await fetch(`${server.url}${url}`);
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

describe('GET /dicom/get-dicom-zip-url and the zip it points to', () => {
  it('streams the study as a zip holding every uploaded instance, logged in the audit trail', async () => {
    const { images, study } = await archivedStudy();
    const link = await zipUrl(u.rad, images.studyUid);
    expect(link.url).toMatch(new RegExp(`^/api/v1/dicom/zip/${study.id}\\?`));
    const lifetime = new Date(link.expires_at).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(200_000);
    expect(lifetime).toBeLessThanOrEqual(300_000);

    const { response, body } = await download(link.url);
    expect(response.status, body.toString().slice(0, 300)).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain('filename="PID_7_e_20260304.zip"');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(body.subarray(0, 4).toString('hex')).toBe('504b0304');
    const zip = await JSZip.loadAsync(body);
    const files = Object.values(zip.files).filter((entry) => !entry.dir);
    expect(files).toHaveLength(images.instances.length);
    const sizes = (await Promise.all(files.map((file) => file.async('nodebuffer'))))
      .map((b) => b.length)
      .sort();
    expect(sizes).toEqual(images.instances.map((b) => b.length).sort());

    const audit = await server.db
      .select()
      .from(t.auditEvents)
      .where(and(eq(t.auditEvents.action, 'study.images_downloaded'), eq(t.auditEvents.entityId, study.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorUserId: u.rad.id, entityType: 'study' });
    expect(audit[0]?.data).toMatchObject({ study_uid: images.studyUid });
  });

  it('gives a URL to everyone who sees the study on the worklist, and 404 to anyone else', async () => {
    const { images } = await archivedStudy();
    for (const user of [u.admin, u.facilityAdmin, u.transcriptionist, u.referrer]) {
      const link = await zipUrl(user, images.studyUid);
      const { response } = await download(link.url);
      expect(response.status, String(user.role)).toBe(200);
    }
    for (const user of [u.otherFacilityRad, u.otherReferrer, u.outsider]) {
      const response = await get(user, `/dicom/get-dicom-zip-url?study_uid=${images.studyUid}`);
      expect(response.status, String(user.role)).toBe(404);
      expect(response.json).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    expect((await get(u.rad, '/dicom/get-dicom-zip-url?study_uid=1.2.3.4.5.999')).status).toBe(404);
  });

  it('answers 400 naming study_uid for a UID that is not one', async () => {
    for (const bad of ['abc', '1..2', '1.2.', `1.${'2'.repeat(64)}`]) {
      const response = await get(u.rad, `/dicom/get-dicom-zip-url?study_uid=${encodeURIComponent(bad)}`);
      expect(response.status, bad).toBe(400);
      expect(response.text).toContain('study_uid');
    }
  });

  it('refuses a tampered, expired or borrowed URL (403) and one missing its signature (400)', async () => {
    const { study, images } = await archivedStudy();
    const other = await archivedStudy();
    const link = await zipUrl(u.rad, images.studyUid);
    const url = new URL(link.url, server.url);
    const signature = url.searchParams.get('signature') ?? '';
    const variants: string[] = [];
    const flipped = new URL(url);
    flipped.searchParams.set('signature', `${signature[0] === 'a' ? 'b' : 'a'}${signature.slice(1)}`);
    variants.push(flipped.pathname + flipped.search);
    const longer = new URL(url);
    longer.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    variants.push(longer.pathname + longer.search);
    const someoneElse = new URL(url);
    someoneElse.searchParams.set('uid', u.admin.id);
    variants.push(someoneElse.pathname + someoneElse.search);
    // The same signature on another study's path.
    variants.push(url.pathname.replace(study.id, other.study.id) + url.search);
    // Correctly signed, but expired.
    const signer = new LinkSigner(await deriveLinkKey(server.app.deps.config, DICOM_ZIP_KEY_LABEL), 300);
    const past = Math.floor(Date.now() / 1000) - 1;
    variants.push(
      `/api/v1/dicom/zip/${study.id}?uid=${u.rad.id}&expires=${past}&signature=${signer.sign([study.id, u.rad.id], past)}`,
    );
    for (const variant of variants) {
      const { response, body } = await download(variant);
      expect(response.status, variant).toBe(403);
      expect(JSON.parse(body.toString())).toMatchObject({ error: { code: 'FORBIDDEN' } });
    }
    const unsigned = await download(`/api/v1/dicom/zip/${study.id}?uid=${u.rad.id}&expires=${past}`);
    expect(unsigned.response.status).toBe(400);
    // A fresh, correct signature still works.
    const fresh = Math.floor(Date.now() / 1000) + 60;
    const good = await download(
      `/api/v1/dicom/zip/${study.id}?uid=${u.rad.id}&expires=${fresh}&signature=${signer.sign([study.id, u.rad.id], fresh)}`,
    );
    expect(good.response.status).toBe(200);
  });

  it('stops working once the user may no longer see the study', async () => {
    const { images } = await archivedStudy();
    const link = await zipUrl(u.transcriptionist, images.studyUid);
    await server.db.delete(t.userFacilities).where(eq(t.userFacilities.userId, u.transcriptionist.id));
    try {
      const { response } = await download(link.url);
      expect(response.status).toBe(403);
    } finally {
      await server.db.insert(t.userFacilities).values({ userId: u.transcriptionist.id, facilityId: f1.id });
    }
  });
});

describe('GET /dicom/series and /dicom/series-thumbnail', () => {
  it('lists the series from the archive and renders a thumbnail of each', async () => {
    const { images } = await archivedStudy();
    const response = await get(u.rad, `/dicom/series?study_uid=${images.studyUid}`);
    expect(response.status, response.text).toBe(200);
    const series = response.json as TDicomSeries[];
    expect(series.map((s) => s.series_uid).sort()).toEqual([...images.seriesUids].sort());
    expect(series.map((s) => s.modality).sort()).toEqual(['CT', 'SR']);
    expect(series.every((s) => s.instance_count === 3)).toBe(true);

    const ct = series.find((s) => s.modality === 'CT');
    const thumbnail = await fetch(
      `${server.url}/api/v1/dicom/series-thumbnail?study_uid=${images.studyUid}&series_uid=${ct?.series_uid}`,
      { headers: { authorization: `Bearer ${as(u.referrer)}` } },
    );
    const bytes = Buffer.from(await thumbnail.arrayBuffer());
    expect(thumbnail.status, bytes.toString().slice(0, 200)).toBe(200);
    expect(thumbnail.headers.get('content-type')).toMatch(/^image\/(jpeg|png)$/);
    expect(thumbnail.headers.get('cache-control')).toContain('private');
    const jpeg = bytes.subarray(0, 3).toString('hex') === 'ffd8ff';
    const png = bytes.subarray(0, 8).toString('hex') === '89504e470d0a1a0a';
    expect(jpeg || png).toBe(true);
  });

  it('answers 404 outside the scope, for another study’s series, and 400 naming a bad UID', async () => {
    const { images } = await archivedStudy();
    const other = await archivedStudy();
    for (const user of [u.otherFacilityRad, u.otherReferrer, u.outsider]) {
      expect((await get(user, `/dicom/series?study_uid=${images.studyUid}`)).status, String(user.role)).toBe(
        404,
      );
      const thumb = await get(
        user,
        `/dicom/series-thumbnail?study_uid=${images.studyUid}&series_uid=${images.seriesUids[0]}`,
      );
      expect(thumb.status, String(user.role)).toBe(404);
    }
    const borrowed = await get(
      u.rad,
      `/dicom/series-thumbnail?study_uid=${images.studyUid}&series_uid=${other.images.seriesUids[0]}`,
    );
    expect(borrowed.status).toBe(404);
    const bad = await get(u.rad, `/dicom/series-thumbnail?study_uid=${images.studyUid}&series_uid=../x`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('series_uid');
  });
});

describe('DELETE /dicom/delete-study', () => {
  const del = (user: TUser, studyUid: string, byUserId = user.id) =>
    server.request('DELETE', `/api/v1/dicom/delete-study?study_uid=${studyUid}&by_user_id=${byUserId}`, {
      token: as(user),
    });

  it('lets an admin delete the study in Orthanc and marks every item of it DELETED, with history and event', async () => {
    const { images, study } = await archivedStudy();
    const copy = await buildStudy(server.db, {
      facility: f1,
      status: 'ASSIGNED',
      studyUid: images.studyUid,
      duplicatedFromStudyId: study.id,
    });
    const orthancId = await orthancStudyId(images.studyUid);
    expect(await orthancHas(orthancId)).toBe(true);
    const seen: string[] = [];
    const off = server.app.events.on('worklist.item.deleted', (event) => seen.push(event.id));
    const response = await del(u.admin, images.studyUid);
    off();
    expect(response.status, response.text).toBe(200);
    const body = response.json as TDeletedStudy;
    expect(body.worklist_ids.sort()).toEqual([study.id, copy.id].sort());
    expect(await orthancHas(orthancId)).toBe(false);
    for (const id of [study.id, copy.id]) {
      const [row] = await server.db.select().from(t.studies).where(eq(t.studies.id, id));
      expect(row).toMatchObject({ status: 'DELETED', deletedBy: u.admin.id });
      expect(row?.archiveDeletedAt).toBeInstanceOf(Date);
      const history = await server.db
        .select()
        .from(t.studyStatusHistory)
        .where(and(eq(t.studyStatusHistory.studyId, id), eq(t.studyStatusHistory.toStatus, 'DELETED')));
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ changedBy: u.admin.id });
    }
    expect(seen.sort()).toEqual([study.id, copy.id].sort());
    const audit = await server.db
      .select()
      .from(t.auditEvents)
      .where(and(eq(t.auditEvents.action, 'study.archive_deleted'), eq(t.auditEvents.entityId, study.id)));
    expect(audit).toHaveLength(1);
  });

  it('refuses everyone but organisation admins (403), other organisations and facilities (404), Orthanc unchanged', async () => {
    const { images, study } = await archivedStudy();
    const orthancId = await orthancStudyId(images.studyUid);
    for (const user of [u.facilityAdmin, u.rad, u.transcriptionist]) {
      const response = await del(user, images.studyUid);
      expect(response.status, String(user.role)).toBe(403);
    }
    for (const user of [u.otherFacilityRad, u.otherReferrer, u.outsider]) {
      const response = await del(user, images.studyUid);
      expect(response.status, String(user.role)).toBe(404);
    }
    const naming = await del(u.outsider, images.studyUid, u.admin.id);
    expect(naming.status).toBe(403);
    expect(await orthancHas(orthancId)).toBe(true);
    const [row] = await server.db.select().from(t.studies).where(eq(t.studies.id, study.id));
    expect(row).toMatchObject({ status: 'TO_READ', archiveDeletedAt: null });
  });

  it('keeps a study with a final report (409), Orthanc and the item unchanged', async () => {
    const { images, study } = await archivedStudy({ status: 'FINAL' });
    const response = await del(u.admin, images.studyUid);
    expect(response.status, response.text).toBe(409);
    expect(await orthancHas(await orthancStudyId(images.studyUid))).toBe(true);
    const [row] = await server.db.select().from(t.studies).where(eq(t.studies.id, study.id));
    expect(row?.status).toBe('FINAL');
  });
});

describe('an archive that is down or cannot do it', () => {
  it('answers 503 ARCHIVE_UNAVAILABLE when the archive cannot be reached, and changes nothing', async () => {
    const organisationId = f1.organisationId;
    const facility = await buildFacility(server.db, { organisationId });
    const down = await addArchive(organisationId, facility.id, {
      kind: 'orthanc',
      url: `http://127.0.0.1:${await freePort()}`,
    });
    const study = await buildStudy(server.db, { facility, status: 'TO_READ', pacsArchiveId: down });
    const uid = study.studyUid ?? '';
    const response = await server.request('DELETE', `/api/v1/dicom/delete-study?study_uid=${uid}`, {
      token: as(u.admin),
    });
    expect(response.status, response.text).toBe(503);
    expect(response.json).toMatchObject({ error: { code: 'ARCHIVE_UNAVAILABLE' } });
    expect((response.json as { error: { message: string } }).error.message).toContain('cannot be reached');
    const [row] = await server.db.select().from(t.studies).where(eq(t.studies.id, study.id));
    expect(row).toMatchObject({ status: 'TO_READ', archiveDeletedAt: null, deletedAt: null });
    const history = await server.db
      .select()
      .from(t.studyStatusHistory)
      .where(eq(t.studyStatusHistory.studyId, study.id));
    expect(history).toHaveLength(0);

    const series = await get(u.admin, `/dicom/series?study_uid=${uid}`);
    expect(series.status).toBe(503);
    const link = await zipUrl(u.admin, uid);
    const { response: zip } = await download(link.url);
    expect(zip.status).toBe(503);
  });

  it('builds the zip from WADO-RS for a plain DICOMweb archive; its delete answers 409', async () => {
    const organisationId = f1.organisationId;
    const facility = await buildFacility(server.db, { organisationId });
    const plain = await addArchive(organisationId, facility.id, { kind: 'dicomweb', url: orthanc.restUrl });
    const { images, study } = await archivedStudy({ facility, archive: plain });
    const link = await zipUrl(u.admin, images.studyUid);
    const { response, body } = await download(link.url);
    expect(response.status, body.toString().slice(0, 300)).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    const zip = await JSZip.loadAsync(body);
    const files = Object.values(zip.files).filter((entry) => !entry.dir);
    expect(files.map((file) => file.name).sort()).toEqual(
      images.instances.map((_, n) => `DICOM/IM${String(n + 1).padStart(5, '0')}.dcm`),
    );
    const contents = await Promise.all(files.map((file) => file.async('nodebuffer')));
    // Each entry is one uploaded instance, byte for byte (Part 10: "DICM" at 128).
    const uploaded = new Set(images.instances.map((b) => b.toString('base64')));
    for (const content of contents) {
      expect(content.subarray(128, 132).toString()).toBe('DICM');
      expect(uploaded.has(content.toString('base64'))).toBe(true);
    }

    const response409 = await server.request(
      'DELETE',
      `/api/v1/dicom/delete-study?study_uid=${images.studyUid}`,
      { token: as(u.admin) },
    );
    expect(response409.status).toBe(409);
    expect(response409.json).toMatchObject({ error: { code: 'ARCHIVE_NOT_SUPPORTED' } });
    const [row] = await server.db.select().from(t.studies).where(eq(t.studies.id, study.id));
    expect(row?.status).toBe('TO_READ');
  });

  it('answers 409 NO_ARCHIVE for a study no archive serves', async () => {
    const facility = await buildFacility(server.db, { organisationId: f1.organisationId });
    const study = await buildStudy(server.db, { facility, status: 'TO_READ' });
    const response = await get(u.admin, `/dicom/series?study_uid=${study.studyUid ?? ''}`);
    expect(response.status).toBe(409);
    expect(response.json).toMatchObject({ error: { code: 'NO_ARCHIVE' } });
  });
});
