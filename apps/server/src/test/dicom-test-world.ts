// The world of the study images route tests: a real Orthanc (one per test file), the server, an
// organisation with two facilities and a caller of every kind, the Orthanc registered as the
// organisation's archive, and helpers to put synthetic studies in it and ask the routes.
import type { TDicomZipUrl } from '@ris/domain';
import { expect } from 'vitest';
import * as t from '../db/schema/index.ts';
import { uploadInstances } from '../integrations/pacs/local-orthanc.ts';
import { syntheticStudy } from '../integrations/pacs/synthetic-dicom.ts';
import { tokenFor } from './auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from './factories.ts';
import { startTestOrthanc, type TTestOrthanc } from './orthanc.ts';
import { startTestServer, type TTestServer } from './test-server.ts';

export type TUser = Awaited<ReturnType<typeof buildUser>>;
export type TFacility = Awaited<ReturnType<typeof buildFacility>>;
export type TRole =
  | 'admin'
  | 'facilityAdmin'
  | 'rad'
  | 'transcriptionist'
  | 'otherFacilityRad'
  | 'referrer'
  | 'otherReferrer'
  | 'outsider';

export type TDicomWorld = Awaited<ReturnType<typeof startDicomWorld>>;

/** Starts Orthanc and the server and builds the organisation (call in beforeAll, 60 s). */
export async function startDicomWorld() {
  const [orthanc, server]: [TTestOrthanc, TTestServer] = await Promise.all([
    startTestOrthanc(),
    startTestServer(),
  ]);
  const db = server.db;
  const u = {} as Record<TRole, TUser>;
  const tokens = new Map<string, string>();
  const organisation = await buildOrganisation(db);
  const f1 = await buildFacility(db, { organisationId: organisation.id });
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
  const physicianId = physician?.id ?? '';

  async function addArchive(
    organisationId: string,
    facilityId: string,
    options: { kind: 'orthanc' | 'dicomweb'; url: string },
  ): Promise<string> {
    const [row] = await db
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
    await db.insert(t.pacsArchiveFacilities).values({ archiveId: row?.id ?? '', facilityId });
    return row?.id ?? '';
  }
  const archiveId = await addArchive(organisation.id, f1.id, { kind: 'orthanc', url: orthanc.restUrl });

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
    const study = await buildStudy(db, {
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

  return {
    orthanc,
    server,
    u,
    f1,
    addArchive,
    archivedStudy,
    as,
    get,
    /** Orthanc's id of a study (POST /tools/lookup). */
    async orthancStudyId(studyUid: string): Promise<string> {
      const response = await fetch(`${orthanc.restUrl}/tools/lookup`, {
        method: 'POST',
        headers: { authorization: orthanc.authorization },
        body: studyUid,
      });
      const [hit] = (await response.json()) as { ID: string }[];
      return hit?.ID ?? '';
    },
    /** Whether Orthanc still holds the study (GET /studies/{id}). */
    async orthancHas(orthancId: string): Promise<boolean> {
      const response = await fetch(`${orthanc.restUrl}/studies/${orthancId}`, {
        headers: { authorization: orthanc.authorization },
      });
      await response.arrayBuffer();
      return response.status === 200;
    },
    async zipUrl(user: TUser, studyUid: string): Promise<TDicomZipUrl> {
      const response = await get(user, `/dicom/get-dicom-zip-url?study_uid=${studyUid}`);
      expect(response.status, response.text).toBe(200);
      return response.json as TDicomZipUrl;
    },
    async download(url: string) {
      const response = await fetch(`${server.url}${url}`);
      return { response, body: Buffer.from(await response.arrayBuffer()) };
    },
    async close() {
      await Promise.all([server.close(), orthanc.close()]);
    },
  };
}
