import { eq } from 'drizzle-orm';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../../db/schema/index.ts';
import { uploadInstances } from '../../../integrations/pacs/local-orthanc.ts';
import { syntheticStudy } from '../../../integrations/pacs/synthetic-dicom.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildUser } from '../../../test/factories.ts';
import { startTestOrthanc, type TTestOrthanc } from '../../../test/orthanc.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';

// Archives that are not Orthanc: QIDO-RS polling by study date (here Orthanc's DICOMweb root used as
// a plain DICOMweb archive), and an archive answering malformed DICOM JSON.
let orthanc: TTestOrthanc;
let server: TTestServer;
let junk: Server;
let junkUrl: string;
let token: string;
let organisationId: string;
let facilityId: string;
let qidoArchiveId: string;
let junkArchiveId: string;
const VALID_UID = '1.2.826.0.1.3680043.10.1311.77';

type TPopulate = {
  added: number;
  updated: number;
  deleted: number;
  archives: { id: string; ok: boolean; error: string | null }[];
};

/** An archive whose QIDO answer holds a dataset without a UID beside a valid one, or is not JSON. */
function startJunkArchive(): Promise<Server> {
  const valid = {
    '0020000D': { vr: 'UI', Value: [VALID_UID] },
    '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Valid^Only' }] },
    '00100020': { vr: 'LO', Value: ['JUNK-1'] },
    '00080020': { vr: 'DA', Value: [new Date().toISOString().slice(0, 10).replaceAll('-', '')] },
    '00201206': { vr: 'IS', Value: [1] },
    '00201208': { vr: 'IS', Value: [1] },
  };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    response.setHeader('content-type', 'application/dicom+json');
    if (url.pathname === '/broken/dicom-web/studies') return void response.end('<html>not json</html>');
    if (url.pathname.endsWith(`/studies/${VALID_UID}/series`)) return void response.end('[]');
    if (url.pathname.endsWith('/studies')) {
      const one = url.searchParams.get('StudyInstanceUID');
      return void response.end(
        JSON.stringify(one ? [valid] : [{ '0020000D': { vr: 'UI', Value: ['../../etc'] } }, valid]),
      );
    }
    response.statusCode = 404;
    response.end('[]');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  [orthanc, server, junk] = await Promise.all([startTestOrthanc(), startTestServer(), startJunkArchive()]);
  const address = junk.address();
  junkUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const organisation = await buildOrganisation(server.db);
  organisationId = organisation.id;
  const facility = await buildFacility(server.db, { organisationId, name: 'Hill Clinic' });
  facilityId = facility.id;
  const archives = await server.db
    .insert(t.pacsArchives)
    .values([
      {
        organisationId,
        name: 'Plain DICOMweb',
        kind: 'dicomweb',
        dicomwebUrl: orthanc.dicomwebUrl,
        authKind: 'basic',
        username: orthanc.username,
        secretSealed: server.app.secretBox.seal(orthanc.password),
        defaultFacilityId: facility.id,
        pollIntervalSeconds: 3600,
      },
      {
        organisationId,
        name: 'Junk archive',
        kind: 'dicomweb',
        dicomwebUrl: `${junkUrl}/dicom-web`,
        defaultFacilityId: facility.id,
        pollIntervalSeconds: 3600,
      },
    ])
    .returning();
  qidoArchiveId = archives[0]?.id ?? '';
  junkArchiveId = archives[1]?.id ?? '';
  await server.db
    .insert(t.pacsArchiveFacilities)
    .values(archives.map((archive) => ({ archiveId: archive.id, facilityId: facility.id })));
  token = await tokenFor(server, await buildUser(server.db, { role: 'ADMIN', organisationId }));
}, 60_000);

afterAll(async () => {
  await server?.close();
  await orthanc?.close();
  await new Promise((resolve) => junk?.close(resolve));
});

async function populate(archiveId: string): Promise<TPopulate> {
  const response = await server.request('GET', `/api/v1/worklist/populate/worklist?archive_id=${archiveId}`, {
    token,
  });
  expect(response.status).toBe(200);
  return response.json as TPopulate;
}

const itemsOf = (uid: string) => server.db.select().from(t.studies).where(eq(t.studies.studyUid, uid));

describe('QIDO-RS polling of a DICOMweb archive', () => {
  it('imports a study of the window, updates its counts, and marks it when the archive no longer lists it', async () => {
    const study = syntheticStudy({
      patientName: 'Qido^Ravi',
      patientId: 'Q-1',
      accessionNumber: 'Q-ACC-1',
      modalities: ['CT'],
    });
    await uploadInstances(orthanc, study.instances);
    expect(await populate(qidoArchiveId)).toMatchObject({ added: 1, archives: [{ ok: true }] });
    expect(await itemsOf(study.studyUid)).toMatchObject([
      {
        organisationId,
        facilityId,
        patientName: 'Qido Ravi',
        seriesCount: 1,
        instanceCount: 1,
        pacsArchiveId: qidoArchiveId,
      },
    ]);

    const more = syntheticStudy({
      patientName: 'Qido^Ravi',
      patientId: 'Q-1',
      studyUid: study.studyUid,
      modalities: ['CT', 'CT'],
    });
    await uploadInstances(orthanc, more.instances);
    expect(await populate(qidoArchiveId)).toMatchObject({ added: 0, updated: 1 });
    expect(await itemsOf(study.studyUid)).toMatchObject([{ seriesCount: 3, instanceCount: 3 }]);
    expect(await populate(qidoArchiveId)).toMatchObject({ added: 0, updated: 0, deleted: 0 });

    const lookup = await fetch(`${orthanc.restUrl}/tools/lookup`, {
      method: 'POST',
      headers: { authorization: orthanc.authorization },
      body: study.studyUid,
    });
    const [hit] = (await lookup.json()) as { ID: string }[];
    await fetch(`${orthanc.restUrl}/studies/${hit?.ID ?? ''}`, {
      method: 'DELETE',
      headers: { authorization: orthanc.authorization },
    });
    expect(await populate(qidoArchiveId)).toMatchObject({ deleted: 1 });
    expect((await itemsOf(study.studyUid))[0]?.archiveDeletedAt).toBeInstanceOf(Date);
  });
});

describe('malformed answers', () => {
  it('skips a dataset without a valid UID, imports the valid one, and says so on the archive', async () => {
    const result = await populate(junkArchiveId);
    expect(result).toMatchObject({ added: 1, archives: [{ ok: true }] });
    expect(await itemsOf(VALID_UID)).toMatchObject([{ patientName: 'Valid Only', facilityId }]);
    const [archive] = await server.db
      .select()
      .from(t.pacsArchives)
      .where(eq(t.pacsArchives.id, junkArchiveId));
    expect(archive?.lastError).toMatch(/Skipped: a study without a valid StudyInstanceUID/);
  });

  it('reports an answer that is not DICOM JSON as the archive failing, not as a server error', async () => {
    await server.db
      .update(t.pacsArchives)
      .set({ dicomwebUrl: `${junkUrl}/broken/dicom-web` })
      .where(eq(t.pacsArchives.id, junkArchiveId));
    const result = await populate(junkArchiveId);
    expect(result.archives[0]).toMatchObject({ ok: false });
    expect(result.archives[0]?.error).toMatch(/JSON/);
  });
});
