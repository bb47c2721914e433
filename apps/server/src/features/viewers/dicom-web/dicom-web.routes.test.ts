import { createHash } from 'node:crypto';
import http from 'node:http';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../../db/schema/index.ts';
import { uploadInstances } from '../../../integrations/pacs/local-orthanc.ts';
import { syntheticStudy, type TSyntheticStudy } from '../../../integrations/pacs/synthetic-dicom.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../../test/factories.ts';
import { startTestOrthanc, type TTestOrthanc } from '../../../test/orthanc.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { VIEWER_COOKIE } from '../viewer-passes.ts';

type TUser = Awaited<ReturnType<typeof buildUser>>;
type TFacility = Awaited<ReturnType<typeof buildFacility>>;
type TRaw = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

let orthanc: TTestOrthanc;
let server: TTestServer;
const seen: string[] = [];
const cookies = new Map<string, string>();
let f1: TFacility;
let rad: TUser;
let otherFacilityRad: TUser;
let outsider: TUser;
let visible: TSyntheticStudy;
let otherFacility: TSyntheticStudy;
let otherOrganisation: TSyntheticStudy;
let large: TSyntheticStudy;

/** GET over raw HTTP: the path goes out exactly as written (fetch would resolve dot segments). */
function get(path: string, headers: Record<string, string> = {}): Promise<TRaw> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = http.get({ host: url.hostname, port: url.port, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const result = {
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        };
        seen.push(JSON.stringify(result.headers), result.body.toString('latin1'));
        resolve(result);
      });
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

const withCookie = (user: TUser, headers: Record<string, string> = {}) => ({
  ...headers,
  cookie: `${VIEWER_COOKIE}=${cookies.get(user.id) ?? ''}`,
});

/** The viewer cookie a user gets by opening a study: GET /dicom/viewer, then its /viewer/open link. */
async function openViewer(user: TUser, studyUid: string): Promise<TRaw> {
  const link = await server.request('GET', `/api/v1/dicom/viewer?study_iuid=${studyUid}`, {
    token: await tokenFor(server, user),
  });
  expect(link.status, link.text).toBe(200);
  const url = new URL((link.json as { url: string }).url);
  return get(`${url.pathname}${url.search}`);
}

function cookieOf(response: TRaw): string {
  const header = (response.headers['set-cookie'] ?? []).find((value) =>
    value.startsWith(`${VIEWER_COOKIE}=`),
  );
  return header?.slice(VIEWER_COOKIE.length + 1).split(';')[0] ?? '';
}

async function archiveFor(db: TTestServer['db'], facility: TFacility): Promise<string> {
  const [archive] = await db
    .insert(t.pacsArchives)
    .values({
      organisationId: facility.organisationId,
      name: 'Orthanc',
      kind: 'orthanc',
      dicomwebUrl: orthanc.dicomwebUrl,
      orthancUrl: orthanc.restUrl,
      authKind: 'basic',
      username: orthanc.username,
      secretSealed: server.app.secretBox.seal(orthanc.password),
    })
    .returning();
  if (!archive) throw new Error('no archive');
  await db.insert(t.pacsArchiveFacilities).values({ archiveId: archive.id, facilityId: facility.id });
  return archive.id;
}

beforeAll(async () => {
  [orthanc, server] = await Promise.all([startTestOrthanc(), startTestServer()]);
  const db = server.db;
  const organisation = await buildOrganisation(db);
  f1 = await buildFacility(db, { organisationId: organisation.id });
  const f2 = await buildFacility(db, { organisationId: organisation.id });
  const fB = await buildFacility(db);
  rad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] });
  otherFacilityRad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f2] });
  outsider = await buildUser(db, { role: 'ADMIN', organisationId: fB.organisationId });
  const archive1 = await archiveFor(db, f1);
  await db.insert(t.pacsArchiveFacilities).values({ archiveId: archive1, facilityId: f2.id });
  await archiveFor(db, fB);
  const spec = {
    patientName: 'Proxy^Test',
    patientId: 'P-1',
    modalities: ['CT', 'CT'],
    instancesPerSeries: 2,
  };
  visible = syntheticStudy({ ...spec, accessionNumber: 'ACC-1' });
  otherFacility = syntheticStudy({ ...spec, accessionNumber: 'ACC-2', modalities: ['MR'] });
  otherOrganisation = syntheticStudy({ ...spec, accessionNumber: 'ACC-3', modalities: ['MR'] });
  large = syntheticStudy({
    ...spec,
    accessionNumber: 'ACC-4',
    modalities: ['CR'],
    instancesPerSeries: 1,
    size: 4096,
  });
  await uploadInstances(orthanc, [
    ...visible.instances,
    ...otherFacility.instances,
    ...otherOrganisation.instances,
    ...large.instances,
  ]);
  await buildStudy(db, {
    facility: f1,
    status: 'TO_READ',
    studyUid: visible.studyUid,
    pacsArchiveId: archive1,
  });
  await buildStudy(db, {
    facility: f1,
    status: 'TO_READ',
    studyUid: large.studyUid,
    pacsArchiveId: archive1,
  });
  await buildStudy(db, { facility: f2, status: 'TO_READ', studyUid: otherFacility.studyUid });
  await buildStudy(db, { facility: fB, status: 'TO_READ', studyUid: otherOrganisation.studyUid });
  for (const [user, uid] of [
    [rad, visible.studyUid],
    [otherFacilityRad, otherFacility.studyUid],
    [outsider, otherOrganisation.studyUid],
  ] as const) {
    cookies.set(user.id, cookieOf(await openViewer(user, uid)));
  }
}, 60_000);

afterAll(async () => {
  // Whatever was answered, the archive's address and credentials never reached the client.
  const everything = seen.join('\n');
  expect(everything).not.toContain(orthanc.password);
  expect(everything).not.toContain(orthanc.authorization);
  expect(everything).not.toContain(new URL(orthanc.restUrl).host);
  await Promise.all([server?.close(), orthanc?.close()]);
});

const series = (study: TSyntheticStudy) => `/dicom-web/studies/${study.studyUid}/series`;
const MULTIPART_DICOM = 'multipart/related; type="application/dicom"; transfer-syntax=*';

async function instanceUids(study: TSyntheticStudy, seriesUid: string): Promise<string[]> {
  const response = await get(
    `/dicom-web/studies/${study.studyUid}/series/${seriesUid}/instances`,
    withCookie(rad),
  );
  expect(response.status, response.body.toString()).toBe(200);
  const json = JSON.parse(response.body.toString()) as Array<Record<string, { Value?: string[] }>>;
  return json.map((item) => item['00080018']?.Value?.[0] ?? '');
}

describe('GET /dicom-web (the per-study DICOMweb proxy)', () => {
  it('answers QIDO for the study, its URLs rewritten to the proxy', async () => {
    const response = await get(`/dicom-web/studies?StudyInstanceUID=${visible.studyUid}`, withCookie(rad));
    expect(response.status, response.body.toString()).toBe(200);
    expect(response.headers['content-type']).toContain('application/dicom+json');
    const [study] = JSON.parse(response.body.toString()) as Array<Record<string, { Value?: unknown[] }>>;
    expect(study?.['0020000D']?.Value).toEqual([visible.studyUid]);
    expect(study?.['00081190']?.Value).toEqual([
      `${server.app.deps.config.publicUrl}/dicom-web/studies/${visible.studyUid}`,
    ]);
    expect(response.headers['cache-control']).toMatch(/^private/);
  });

  it('answers series, study and series metadata, with bulk data URIs only under the proxy', async () => {
    const listed = await get(series(visible), withCookie(rad));
    expect(listed.status).toBe(200);
    const uids = (JSON.parse(listed.body.toString()) as Array<Record<string, { Value?: string[] }>>).map(
      (item) => item['0020000E']?.Value?.[0],
    );
    expect(uids.sort()).toEqual([...visible.seriesUids].sort());
    for (const path of [
      `/dicom-web/studies/${visible.studyUid}/metadata`,
      `${series(visible)}/${visible.seriesUids[0]}/metadata`,
    ]) {
      const response = await get(path, withCookie(rad));
      expect(response.status, path).toBe(200);
      const text = response.body.toString();
      expect(JSON.parse(text)).toHaveLength(path.endsWith('/metadata') && path.includes('/series/') ? 2 : 4);
      for (const match of text.matchAll(/"BulkDataURI":"([^"]+)"/g))
        expect(
          match[1]?.startsWith(`${server.app.deps.config.publicUrl}/dicom-web/studies/${visible.studyUid}/`),
        ).toBe(true);
    }
  });

  it('streams an instance exactly as uploaded, and frames', async () => {
    const seriesUid = visible.seriesUids[0] ?? '';
    const [first] = await instanceUids(visible, seriesUid);
    const response = await get(
      `${series(visible)}/${seriesUid}/instances/${first}`,
      withCookie(rad, { accept: MULTIPART_DICOM }),
    );
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^multipart\/related;.*boundary=/);
    const uploaded = visible.instances.find((file) => file.includes(Buffer.from(first ?? '')));
    expect(uploaded).toBeDefined();
    expect(response.body.includes(uploaded ?? Buffer.alloc(1))).toBe(true);
    const frame = await get(
      `${series(visible)}/${seriesUid}/instances/${first}/frames/1`,
      withCookie(rad, {
        accept: 'multipart/related; type="application/octet-stream"; transfer-syntax=*',
      }),
    );
    expect(frame.status).toBe(200);
    expect(frame.body.length).toBeGreaterThan(64 * 64);
  });

  it('passes a 16 MB instance (4096 × 4096) through intact, in many chunks', async () => {
    // That it streams (first bytes out before the archive has sent the rest) and stops when the
    // browser goes away: dicom-web-streaming.routes.test.ts, with an archive that holds its answer.
    const seriesUid = large.seriesUids[0] ?? '';
    const [uid] = await instanceUids(large, seriesUid);
    const uploaded = large.instances[0] ?? Buffer.alloc(0);
    expect(uploaded.length).toBeGreaterThan(16 * 1024 * 1024);
    const url = new URL(server.url);
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      http
        .get(
          {
            host: url.hostname,
            port: url.port,
            path: `${series(large)}/${seriesUid}/instances/${uid}`,
            headers: withCookie(rad, { accept: MULTIPART_DICOM }),
          },
          (response) => {
            expect(response.statusCode).toBe(200);
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', resolve);
            response.on('error', reject);
          },
        )
        .on('error', reject);
    });
    expect(chunks.length).toBeGreaterThan(16);
    const body = Buffer.concat(chunks);
    expect(
      createHash('sha256')
        .update(body.subarray(body.indexOf(uploaded), body.indexOf(uploaded) + uploaded.length))
        .digest('hex'),
    ).toBe(createHash('sha256').update(uploaded).digest('hex'));
    expect(body.indexOf(uploaded)).toBeGreaterThan(0);
  });

  it('passes conditional requests and caching headers through', async () => {
    const path = `/dicom-web/studies/${visible.studyUid}/metadata`;
    const first = await get(path, withCookie(rad));
    expect(first.status).toBe(200);
    const etag = first.headers.etag;
    if (typeof etag === 'string') {
      const again = await get(path, withCookie(rad, { 'if-none-match': etag }));
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
    } else {
      // This archive sends no ETag: nothing to revalidate against, the answer is still private.
      expect(first.headers['cache-control']).toMatch(/^private/);
    }
  });

  it('refuses paths that leave the study, bad UIDs and searches not about one study, before any check (400/404)', async () => {
    const s = visible.studyUid;
    const o = otherFacility.studyUid;
    const cases: Array<[string, number]> = [
      [`/dicom-web/studies/${s}/../${o}/metadata`, 400],
      [`/dicom-web/studies/${s}/series/..%2F..%2F${o}/metadata`, 400],
      [`/dicom-web/studies/${s}%2F..%2F${o}/metadata`, 400],
      [`/dicom-web/studies/${s}//metadata`, 400],
      [`/dicom-web/studies/${s}/./metadata`, 400],
      [`/dicom-web/studies/1.2.x/metadata`, 400],
      [`/dicom-web/studies/${'1.'.repeat(40)}1/metadata`, 400],
      [`/dicom-web/studies?PatientID=P-1`, 400],
      [`/dicom-web/studies`, 400],
      [`/dicom-web/studies?StudyInstanceUID=${s}&StudyInstanceUID=${o}`, 400],
      [`/dicom-web/studies?StudyInstanceUID=${s},${o}`, 400],
      [`/dicom-web/studies?StudyInstanceUID=*`, 400],
      [`/dicom-web/studies/${s}/series?StudyInstanceUID=${o}`, 400],
      [`/dicom-web/studies/${s}/series?0020000D=${o}`, 400],
      [`/dicom-web/patients`, 404],
      [`/dicom-web/studies/${s}/series/1.2/instances/3.4/anything`, 404],
      [`/dicom-web/workitems`, 404],
    ];
    for (const [path, status] of cases) {
      for (const headers of [withCookie(rad), {}]) {
        const response = await get(path, headers);
        expect(response.status, path).toBe(status);
        expect(response.headers['content-type'], path).toContain('application/json');
      }
    }
  });

  it('answers 404 for a study of another facility or organisation, streaming nothing', async () => {
    for (const [user, uid] of [
      [rad, otherFacility.studyUid],
      [rad, otherOrganisation.studyUid],
      [otherFacilityRad, visible.studyUid],
      [outsider, visible.studyUid],
    ] as const) {
      for (const path of [
        `/dicom-web/studies?StudyInstanceUID=${uid}`,
        `/dicom-web/studies/${uid}/metadata`,
      ]) {
        const response = await get(path, withCookie(user));
        expect(response.status, path).toBe(404);
        expect(JSON.parse(response.body.toString())).toMatchObject({ error: { code: 'NOT_FOUND' } });
      }
    }
    // Each one's own study is there: the 404s above are the scope, not the archive.
    expect(
      (await get(`/dicom-web/studies/${otherFacility.studyUid}/series`, withCookie(otherFacilityRad))).status,
    ).toBe(200);
  });

  it('answers 401 without a cookie, with a tampered or expired one, and with a ticket or Weasis pass in its place', async () => {
    const path = `/dicom-web/studies/${visible.studyUid}/series`;
    const good = cookies.get(rad.id) ?? '';
    const expired = server.app.viewerPasses.issue(
      'cookie',
      {
        userId: rad.id,
        sessionId: '00000000-0000-0000-0000-000000000000',
        organisationId: null,
        issuedAt: 0,
        studyUid: null,
      },
      -1,
    );
    const weasis = server.app.viewerPasses.issue(
      'weasis',
      {
        userId: rad.id,
        sessionId: '00000000-0000-0000-0000-000000000000',
        organisationId: null,
        issuedAt: 0,
        studyUid: visible.studyUid,
      },
      60,
    );
    expect((await get(path)).status).toBe(401);
    for (const value of ['', 'junk', `${good}x`, `x${good}`, expired, weasis]) {
      const response = await get(path, { cookie: `${VIEWER_COOKIE}=${value}` });
      expect(response.status, value).toBe(401);
    }
    expect((await get(path, withCookie(rad))).status).toBe(200);
  });

  it('refuses the cookie of a user disabled since, and follows a facility taken away, on the very next request', async () => {
    const user = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [f1] });
    cookies.set(user.id, cookieOf(await openViewer(user, visible.studyUid)));
    const path = `/dicom-web/studies/${visible.studyUid}/series`;
    expect((await get(path, withCookie(user))).status).toBe(200);
    await server.db.delete(t.userFacilities).where(eq(t.userFacilities.userId, user.id));
    expect((await get(path, withCookie(user))).status).toBe(404);
    await server.db.insert(t.userFacilities).values({ userId: user.id, facilityId: f1.id });
    expect((await get(path, withCookie(user))).status).toBe(200);
    await server.db.execute(sql`update users set status = 'INACTIVE' where id = ${user.id}`);
    const refused = await get(path, withCookie(user));
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body.toString())).toMatchObject({ error: { code: 'auth/id-token-revoked' } });
  });

  it('lets Weasis read its one study with the pass in the path, no cookie, and nothing else', async () => {
    const link = await server.request(
      'GET',
      `/api/v1/dicom/viewer?study_iuid=${visible.studyUid}&viewer_type=weasis`,
      {
        token: await tokenFor(server, rad),
      },
    );
    const command = decodeURIComponent((link.json as { url: string }).url.slice('weasis://'.length));
    const root = /--url "([^"]+)"/.exec(command)?.[1] ?? '';
    const base = new URL(root).pathname;
    const qido = await get(`${base}/studies?StudyInstanceUID=${visible.studyUid}`);
    expect(qido.status, qido.body.toString()).toBe(200);
    expect(qido.body.toString()).toContain(`${root}/studies/${visible.studyUid}`);
    expect((await get(`${base}/studies/${visible.studyUid}/metadata`)).status).toBe(200);
    expect((await get(`${base}/studies/${otherFacility.studyUid}/metadata`)).status).toBe(404);
    expect((await get(`${base}/studies/${large.studyUid}/metadata`)).status).toBe(404);
    expect(
      (await get(`/dicom-web/t/${cookies.get(rad.id) ?? ''}/studies/${visible.studyUid}/metadata`)).status,
    ).toBe(401);
  });
});
