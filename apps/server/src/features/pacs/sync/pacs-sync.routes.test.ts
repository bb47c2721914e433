import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../../db/schema/index.ts';
import { uploadInstances } from '../../../integrations/pacs/local-orthanc.ts';
import { syntheticStudy, type TSyntheticStudySpec } from '../../../integrations/pacs/synthetic-dicom.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../../test/factories.ts';
import { startTestOrthanc, type TTestOrthanc } from '../../../test/orthanc.ts';
import {
  aboutItem,
  connectSocket,
  listenTopic,
  MessageLog,
  type TTestSocket,
} from '../../../test/realtime-client.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';

// Against a real Orthanc: studies stored in the archive become worklist items through the sync.
let orthanc: TTestOrthanc;
let server: TTestServer;
let socket: TTestSocket;
let log: MessageLog;
let archiveId: string;
let downArchiveId: string;
const tokens = { admin: '', clinicAdmin: '', otherAdmin: '', radiologist: '', outsider: '' };
let organisationId: string;
let general: TFacility;
let clinic: TFacility;

type TFacility = Awaited<ReturnType<typeof buildFacility>>;

function first<T>(rows: readonly T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error('expected a row');
  return row;
}

type TPopulate = {
  added: number;
  updated: number;
  deleted: number;
  archives: { id: string; ok: boolean; error: string | null }[];
};

beforeAll(async () => {
  [orthanc, server] = await Promise.all([startTestOrthanc(), startTestServer()]);
  const db = server.db;
  const organisation = await buildOrganisation(db);
  organisationId = organisation.id;
  general = await buildFacility(db, { organisationId, name: 'General Hospital' });
  clinic = await buildFacility(db, { organisationId, name: 'City Clinic' });
  const other = await buildFacility(db, { organisationId });
  const archive = first(
    await db
      .insert(t.pacsArchives)
      .values({
        organisationId,
        name: 'Main Orthanc',
        kind: 'orthanc',
        dicomwebUrl: orthanc.dicomwebUrl,
        orthancUrl: orthanc.restUrl,
        authKind: 'basic',
        username: orthanc.username,
        secretSealed: server.app.secretBox.seal(orthanc.password),
        defaultFacilityId: general.id,
        // The tests pull with GET /worklist/populate/worklist, except the one that waits for the chain.
        pollIntervalSeconds: 1,
      })
      .returning(),
  );
  archiveId = archive.id;
  await db.insert(t.pacsArchiveFacilities).values([
    { archiveId, facilityId: general.id, institutionName: null },
    { archiveId, facilityId: clinic.id, institutionName: 'CITY CLINIC IMAGING' },
  ]);
  const down = first(
    await db
      .insert(t.pacsArchives)
      .values({
        organisationId,
        name: 'Offline archive',
        kind: 'dicomweb',
        dicomwebUrl: 'http://127.0.0.1:9/dicom-web',
        authKind: 'none',
        enabled: false,
      })
      .returning(),
  );
  downArchiveId = down.id;
  const users = {
    admin: await buildUser(db, { role: 'ADMIN', organisationId }),
    clinicAdmin: await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [clinic] }),
    otherAdmin: await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [other] }),
    radiologist: await buildUser(db, { role: 'RADIOLOGIST', facilities: [general, clinic] }),
    outsider: await buildUser(db, { role: 'ADMIN' }),
  };
  for (const key of Object.keys(tokens) as (keyof typeof tokens)[])
    tokens[key] = await tokenFor(server, users[key]);
  socket = await connectSocket(server.url, { auth: { token: tokens.radiologist } });
  log = new MessageLog(socket);
  expect(await listenTopic(socket, 'worklist')).toMatchObject({ ok: true });
}, 60_000);

afterAll(async () => {
  socket?.close();
  await server?.close();
  await orthanc?.close();
});

async function populate(token: string, query = ''): Promise<{ status: number; body: TPopulate }> {
  const response = await server.request('GET', `/api/v1/worklist/populate/worklist${query}`, { token });
  return { status: response.status, body: response.json as TPopulate };
}

/** Pulls until `done` holds (Orthanc calls a study stable 1 s after its last instance). */
async function pullUntil<T>(done: () => Promise<T | null | undefined | false>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { status } = await populate(tokens.admin);
    expect(status).toBe(200);
    const value = await done();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

function itemsOf(studyUid: string) {
  return server.db.select().from(t.studies).where(eq(t.studies.studyUid, studyUid));
}

async function store(spec: Partial<TSyntheticStudySpec> & Pick<TSyntheticStudySpec, 'modalities'>) {
  const study = syntheticStudy({ patientName: 'Doe^Jane', patientId: 'MRN-100', ...spec });
  await uploadInstances(orthanc, study.instances);
  return study;
}

describe('GET /worklist/populate/worklist against a real Orthanc', () => {
  it('makes a stored study a TO_READ item of the facility its institution names, with its counts and patient, announced over the socket', async () => {
    const study = await store({
      patientName: 'Fernandes^Ana',
      patientId: 'MRN-1',
      patientSex: 'F',
      patientBirthDate: '19800215',
      accessionNumber: 'ACC-1',
      studyDescription: 'CT CHEST',
      modalities: ['CT', 'CT'],
      instancesPerSeries: 2,
      bodyPart: 'CHEST',
      institutionName: 'General Hospital',
    });
    const item = first(
      await pullUntil(async () => {
        const rows = await itemsOf(study.studyUid);
        return rows.length > 0 ? rows : null;
      }, 'the study'),
    );
    expect(item).toMatchObject({
      organisationId,
      facilityId: general.id,
      status: 'TO_READ',
      accessionNumber: 'ACC-1',
      patientName: 'Fernandes Ana',
      patientIdentifier: 'MRN-1',
      patientSex: 'F',
      patientBirthDate: '1980-02-15',
      studyDescription: 'CT CHEST',
      modality: 'CT',
      modalityGroup: 'CT',
      bodyPart: 'CHEST',
      seriesCount: 2,
      instanceCount: 4,
      pacsArchiveId: archiveId,
      createdBy: null,
    });
    const patient = first(await server.db.select().from(t.patients).where(eq(t.patients.id, item.patientId)));
    expect(patient).toMatchObject({
      facilityId: general.id,
      patientIdentifier: 'MRN-1',
      name: 'Fernandes Ana',
    });
    const history = await server.db
      .select()
      .from(t.studyStatusHistory)
      .where(eq(t.studyStatusHistory.studyId, item.id));
    expect(history).toMatchObject([{ fromStatus: null, toStatus: 'TO_READ', changedBy: null }]);
    expect(await log.next(aboutItem(item.id))).toMatchObject({
      data: { action: 'upsert', item: { id: item.id, status: 'TO_READ', series_count: 2 } },
    });
  });

  it('activates the ORDERED order whose accession the study carries, in the facility its institution maps to', async () => {
    const order = await buildStudy(server.db, {
      facility: clinic,
      status: 'ORDERED',
      accessionNumber: 'ORD-77',
      studyUid: null,
      seriesCount: 0,
    });
    const study = await store({
      patientId: 'MRN-77',
      accessionNumber: 'ORD-77',
      modalities: ['MR'],
      instancesPerSeries: 3,
      institutionName: 'City Clinic Imaging',
    });
    const activated = await pullUntil(async () => {
      const [row] = await server.db.select().from(t.studies).where(eq(t.studies.id, order.id));
      return row?.status === 'TO_READ' ? row : null;
    }, 'the order to be activated');
    expect(activated).toMatchObject({
      studyUid: study.studyUid,
      seriesCount: 1,
      instanceCount: 3,
      modalityGroup: 'MRI',
    });
    expect(await itemsOf(study.studyUid)).toHaveLength(1);
  });

  it('updates the counts when more series arrive, and never duplicates the item', async () => {
    const study = await store({
      patientId: 'MRN-2',
      accessionNumber: 'ACC-2',
      modalities: ['CT'],
      institutionName: 'General Hospital',
    });
    await pullUntil(async () => (await itemsOf(study.studyUid)).length === 1, 'the first series');
    const more = syntheticStudy({
      patientName: 'Doe^Jane',
      patientId: 'MRN-2',
      accessionNumber: 'ACC-2',
      studyUid: study.studyUid,
      modalities: ['CT', 'SR'],
      institutionName: 'General Hospital',
    });
    await uploadInstances(orthanc, more.instances);
    const item = first(
      await pullUntil(async () => {
        const rows = await itemsOf(study.studyUid);
        return rows[0]?.seriesCount === 3 ? rows : null;
      }, 'the new series'),
    );
    expect(item).toMatchObject({ seriesCount: 3, instanceCount: 3, modality: 'CT,SR', modalityGroup: 'CT' });
    expect(await itemsOf(study.studyUid)).toHaveLength(1);
  });

  it('replays changes after a crash before the cursor was saved without duplicating anything', async () => {
    const before = await server.db
      .select({ id: t.studies.id })
      .from(t.studies)
      .where(eq(t.studies.organisationId, organisationId));
    await server.db.update(t.pacsArchives).set({ changesCursor: 0 }).where(eq(t.pacsArchives.id, archiveId));
    const { body } = await populate(tokens.admin, `?archive_id=${archiveId}`);
    expect(body.archives).toMatchObject([{ id: archiveId, ok: true, error: null }]);
    expect(body.added).toBe(0);
    const after = await server.db
      .select({ id: t.studies.id })
      .from(t.studies)
      .where(eq(t.studies.organisationId, organisationId));
    expect(after).toHaveLength(before.length);
    const archive = first(
      await server.db.select().from(t.pacsArchives).where(eq(t.pacsArchives.id, archiveId)),
    );
    expect(archive.changesCursor).toBeGreaterThan(0);
  });

  it('marks the item when the archive deletes the study, and keeps it', async () => {
    const study = await store({
      patientId: 'MRN-3',
      accessionNumber: 'ACC-3',
      modalities: ['DX'],
      institutionName: 'General Hospital',
    });
    const item = first(
      await pullUntil(async () => {
        const rows = await itemsOf(study.studyUid);
        return rows[0]?.archiveStudyKey ? rows : null;
      }, 'the study and its Orthanc id'),
    );
    const response = await fetch(`${orthanc.restUrl}/studies/${item.archiveStudyKey}`, {
      method: 'DELETE',
      headers: { authorization: orthanc.authorization },
    });
    expect(response.status).toBe(200);
    const marked = first(
      await pullUntil(async () => {
        const rows = await itemsOf(study.studyUid);
        return rows[0]?.archiveDeletedAt ? rows : null;
      }, 'the deletion'),
    );
    expect(marked).toMatchObject({ id: item.id, status: 'TO_READ' });
    const shown = await server.request('GET', `/api/v1/worklist/${item.id}`, { token: tokens.radiologist });
    expect(shown.json).toMatchObject({ id: item.id, images_deleted_at: expect.any(String) });
  });

  it('places a study without accession or patient id with generated identifiers', async () => {
    const study = await store({
      patientName: '',
      patientId: '',
      accessionNumber: '',
      modalities: ['US'],
      institutionName: 'Unknown Place',
    });
    const item = first(
      await pullUntil(async () => {
        const rows = await itemsOf(study.studyUid);
        return rows.length > 0 ? rows : null;
      }, 'the anonymous study'),
    );
    expect(item).toMatchObject({ facilityId: general.id, modalityGroup: 'USG', patientName: 'Unknown' });
    expect(item.accessionNumber).not.toBe('');
    expect(item.patientIdentifier).not.toBe('');
  });
});

describe('who may pull, and an archive that is down', () => {
  it('lets a facility admin pull the archives serving their facility; refuses radiologists; another organisation sees no archive', async () => {
    const clinicAdmin = await populate(tokens.clinicAdmin);
    expect(clinicAdmin.status).toBe(200);
    expect(clinicAdmin.body.archives.map((archive) => archive.id)).toEqual([archiveId]);
    const unrelated = await populate(tokens.otherAdmin);
    expect(unrelated).toMatchObject({ status: 200, body: { archives: [] } });
    expect((await populate(tokens.radiologist)).status).toBe(403);
    const outsider = await populate(tokens.outsider, `?archive_id=${archiveId}`);
    expect(outsider.status).toBe(404);
    expect((await populate(tokens.admin, '?archive_id=nope')).status).toBe(400);
  });

  it('reports an unreachable archive in the answer and on the archive, and the worklist keeps working', async () => {
    await server.db.update(t.pacsArchives).set({ enabled: true }).where(eq(t.pacsArchives.id, downArchiveId));
    const { status, body } = await populate(tokens.admin, `?archive_id=${downArchiveId}`);
    expect(status).toBe(200);
    expect(body.archives).toMatchObject([{ id: downArchiveId, ok: false }]);
    expect(first(body.archives).error).toMatch(/cannot be reached/);
    const [archive] = await server.db
      .select()
      .from(t.pacsArchives)
      .where(eq(t.pacsArchives.id, downArchiveId));
    expect(archive?.failureCount).toBeGreaterThanOrEqual(1);
    expect(archive?.lastError).toMatch(/cannot be reached/);
    await server.db
      .update(t.pacsArchives)
      .set({ enabled: false })
      .where(eq(t.pacsArchives.id, downArchiveId));
    const worklist = await server.request('GET', '/api/v1/worklist?limit=5', {
      token: tokens.radiologist,
    });
    expect(worklist.status).toBe(200);
  });

  it('brings new studies in by itself: the chain of sync jobs runs without anyone pulling', async () => {
    const study = await store({
      patientId: 'MRN-9',
      accessionNumber: 'ACC-9',
      modalities: ['CT'],
      institutionName: 'General Hospital',
    });
    const message = await log.next(
      (m) =>
        m.type === 'worklist-status-update' &&
        m.data.action === 'upsert' &&
        typeof m.data.item === 'object' &&
        m.data.item !== null &&
        'study_uid' in m.data.item &&
        m.data.item.study_uid === study.studyUid,
    );
    expect(message).toMatchObject({ data: { item: { status: 'TO_READ' } } });
    // One chain per archive: once this pass settles, exactly one successor waits.
    const liveJobs = async () =>
      (
        await server.db
          .select()
          .from(t.jobs)
          .where(and(eq(t.jobs.queue, 'pacs.sync'), inArray(t.jobs.status, ['pending', 'running'])))
      ).filter((job) => job.payload['archive_id'] === archiveId).length;
    await expect.poll(liveJobs, { timeout: 10_000 }).toBe(1);
  }, 30_000);
});
