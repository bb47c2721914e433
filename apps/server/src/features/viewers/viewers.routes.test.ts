import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

const OHIF = 'https://viewer.example/ohif';
const DICOMWEB = 'https://pacs.example/dicom-web';
const RIS = 'https://ris.example';

type TUser = Awaited<ReturnType<typeof buildUser>>;
type TRole =
  'admin' | 'rad' | 'transcriptionist' | 'otherFacilityRad' | 'referrer' | 'otherReferrer' | 'outsider';
let server: TTestServer;
let bare: TTestServer;
let builtIn: TTestServer;
const u = {} as Record<TRole, TUser>;
const tokens = new Map<string, string>();
let studyUid: string;
let deletedUid: string;

beforeAll(async () => {
  [server, bare, builtIn] = await Promise.all([
    startTestServer({ env: { VIEWER_OHIF_URL: `${OHIF}/`, PACS_DICOMWEB_URL: DICOMWEB, PUBLIC_URL: RIS } }),
    startTestServer(),
    startTestServer({ env: { PACS_DICOMWEB_URL: DICOMWEB, PUBLIC_URL: RIS } }),
  ]);
  const db = server.db;
  const organisation = await buildOrganisation(db);
  const f1 = await buildFacility(db, { organisationId: organisation.id });
  const f2 = await buildFacility(db, { organisationId: organisation.id });
  u.admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
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
  const study = await buildStudy(db, {
    facility: f1,
    status: 'TO_READ',
    referringPhysicianId: physician?.id,
  });
  studyUid = study.studyUid ?? '';
  deletedUid = (await buildStudy(db, { facility: f1, status: 'DELETED' })).studyUid ?? '';
});

afterAll(async () => {
  await Promise.all([server.close(), bare.close(), builtIn.close()]);
});

const open = (user: TUser, query: Record<string, string>, on: TTestServer = server) =>
  on.request('GET', `/api/v1/dicom/viewer?${new URLSearchParams(query).toString()}`, {
    token: tokens.get(user.id) ?? '',
  });

describe('GET /dicom/viewer', () => {
  it('answers the link of each viewer for a study the caller may see', async () => {
    const expected = {
      ohif: `${OHIF}/viewer?StudyInstanceUIDs=${studyUid}`,
      horos: `horos://?methodName=displayStudy&StudyInstanceUID=${studyUid}`,
      radiant: `radiant://?n=pstv&v=0020000D&v=${studyUid}`,
    };
    for (const [viewer, url] of Object.entries(expected)) {
      const response = await open(u.rad, { study_iuid: studyUid, viewer_type: viewer, local_ip: '10.0.0.5' });
      expect(response.status, response.text).toBe(200);
      expect(response.json).toEqual({ url, viewer_type: viewer });
    }
  });

  it('points Weasis at the RIS’s DICOMweb proxy with a pass for this study in the path, never the archive', async () => {
    const response = await open(u.rad, { study_iuid: studyUid, viewer_type: 'weasis' });
    expect(response.status, response.text).toBe(200);
    const { url } = response.json as { url: string };
    const command = decodeURIComponent(url.slice('weasis://'.length));
    const match =
      /^\$dicom:rs --url "https:\/\/ris\.example\/dicom-web\/t\/([A-Za-z0-9_.-]+)" -r "studyUID=([0-9.]+)"$/.exec(
        command,
      );
    expect(match, command).not.toBeNull();
    expect(match?.[2]).toBe(studyUid);
    const pass = server.app.viewerPasses.verify('weasis', match?.[1]);
    expect(pass).toMatchObject({ userId: u.rad.id, studyUid });
    expect(url).not.toContain('pacs.example');
  });

  it('opens the built-in OHIF by default: a ticket link to /viewer/open valid 60 s for this user and study', async () => {
    const organisation = await buildOrganisation(builtIn.db);
    const facility = await buildFacility(builtIn.db, { organisationId: organisation.id });
    const rad = await buildUser(builtIn.db, { role: 'RADIOLOGIST', facilities: [facility] });
    const uid = (await buildStudy(builtIn.db, { facility, status: 'TO_READ' })).studyUid ?? '';
    const response = await builtIn.request(
      'GET',
      `/api/v1/dicom/viewer?${new URLSearchParams({ study_iuid: uid }).toString()}`,
      { token: await tokenFor(builtIn, rad) },
    );
    expect(response.status, response.text).toBe(200);
    const { url, viewer_type } = response.json as { url: string; viewer_type: string };
    expect(viewer_type).toBe('ohif');
    const link = new URL(url);
    expect(`${link.origin}${link.pathname}`).toBe(`${RIS}/viewer/open`);
    const ticket = builtIn.app.viewerPasses.verify('ticket', link.searchParams.get('ticket'));
    expect(ticket).toMatchObject({ userId: rad.id, studyUid: uid });
    expect((ticket?.expires ?? 0) - Date.now() / 1000).toBeLessThanOrEqual(60);
    // A ticket is no cookie and no Weasis pass.
    expect(builtIn.app.viewerPasses.verify('cookie', link.searchParams.get('ticket'))).toBeNull();
    expect(builtIn.app.viewerPasses.verify('weasis', link.searchParams.get('ticket'))).toBeNull();
  });

  it('defaults to OHIF; local_ip alone changes nothing', async () => {
    const response = await open(u.rad, { study_iuid: studyUid, local_ip: '10.0.0.5' });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({
      url: `${OHIF}/viewer?StudyInstanceUIDs=${studyUid}`,
      viewer_type: 'ohif',
    });
  });

  it('lets staff of the facility, admins and the referring physician of the study open it', async () => {
    for (const user of [u.admin, u.transcriptionist, u.referrer]) {
      const response = await open(user, { study_iuid: studyUid, viewer_type: 'horos' });
      expect(response.status, response.text).toBe(200);
    }
  });

  it('sends OHIF to the facility’s own image node when the workstation reaches it (local_ip), else says where it is', async () => {
    const [study] = await server.db.select().from(t.studies).where(eq(t.studies.studyUid, studyUid));
    const facilityId = study?.facilityId ?? '';
    await server.db
      .update(t.facilities)
      .set({ localNodeUrl: 'https://10.0.0.5:8443/ohif' })
      .where(eq(t.facilities.id, facilityId));
    try {
      const away = await open(u.rad, { study_iuid: studyUid, viewer_type: 'ohif' });
      expect(away.json).toEqual({
        url: `${OHIF}/viewer?StudyInstanceUIDs=${studyUid}`,
        viewer_type: 'ohif',
        local_node: { host: '10.0.0.5', port: 8443 },
      });
      const there = await open(u.rad, { study_iuid: studyUid, viewer_type: 'ohif', local_ip: '10.0.0.5' });
      expect(there.json).toEqual({
        url: `https://10.0.0.5:8443/ohif/viewer?StudyInstanceUIDs=${studyUid}`,
        viewer_type: 'ohif',
      });
      // Another address is no reason to leave the RIS's own viewer; other viewers are not concerned.
      const elsewhere = await open(u.rad, {
        study_iuid: studyUid,
        viewer_type: 'ohif',
        local_ip: 'evil.example',
      });
      expect((elsewhere.json as { url: string }).url).toBe(`${OHIF}/viewer?StudyInstanceUIDs=${studyUid}`);
      const weasis = await open(u.rad, { study_iuid: studyUid, viewer_type: 'weasis', local_ip: '10.0.0.5' });
      expect(weasis.json).not.toHaveProperty('local_node');
      expect((await open(u.otherFacilityRad, { study_iuid: studyUid, local_ip: '10.0.0.5' })).status).toBe(
        404,
      );
    } finally {
      await server.db.update(t.facilities).set({ localNodeUrl: null }).where(eq(t.facilities.id, facilityId));
    }
  });

  it('writes who opened which study in which viewer to the audit log, and nothing for a refused caller', async () => {
    const opened = () =>
      server.db
        .select()
        .from(t.auditEvents)
        .where(
          and(
            eq(t.auditEvents.action, 'study.viewer_opened'),
            eq(t.auditEvents.actorUserId, u.transcriptionist.id),
          ),
        );
    const before = (await opened()).length;
    expect((await open(u.transcriptionist, { study_iuid: studyUid, viewer_type: 'radiant' })).status).toBe(
      200,
    );
    const rows = await opened();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({
      entityType: 'study',
      data: { study_uid: studyUid, viewer_type: 'radiant' },
    });
    const outsider = () =>
      server.db
        .select()
        .from(t.auditEvents)
        .where(
          and(eq(t.auditEvents.action, 'study.viewer_opened'), eq(t.auditEvents.actorUserId, u.outsider.id)),
        );
    expect((await open(u.outsider, { study_iuid: studyUid, viewer_type: 'ohif' })).status).toBe(404);
    expect(await outsider()).toEqual([]);
  });

  it('answers 404 outside the caller’s scope: another facility, another referrer, another organisation', async () => {
    for (const user of [u.otherFacilityRad, u.otherReferrer, u.outsider]) {
      for (const viewer of ['ohif', 'weasis']) {
        const response = await open(user, { study_iuid: studyUid, viewer_type: viewer });
        expect(response.status, response.text).toBe(404);
        expect(response.json).toMatchObject({ error: { code: 'NOT_FOUND' } });
      }
    }
    expect((await open(u.rad, { study_iuid: '1.2.3.999999', viewer_type: 'ohif' })).status).toBe(404);
  });

  it('hides deleted studies from everyone but admins, as the worklist does', async () => {
    expect((await open(u.rad, { study_iuid: deletedUid, viewer_type: 'horos' })).status).toBe(404);
    expect((await open(u.admin, { study_iuid: deletedUid, viewer_type: 'horos' })).status).toBe(200);
  });

  it('answers 400 naming the field for a study_iuid that is not a DICOM UID, or an unknown viewer', async () => {
    for (const bad of ['abc', '1.2.3;drop', '1..2', '1.2.', `1.${'2'.repeat(63)}`]) {
      const response = await open(u.rad, { study_iuid: bad, viewer_type: 'ohif' });
      expect(response.status, bad).toBe(400);
      expect(response.text, bad).toContain('study_iuid');
    }
    const missing = await open(u.rad, { viewer_type: 'ohif' });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('study_iuid');
    const viewer = await open(u.rad, { study_iuid: studyUid, viewer_type: 'osirix' });
    expect(viewer.status).toBe(400);
    expect(viewer.text).toContain('viewer_type');
  });

  it('answers 409 VIEWER_NOT_CONFIGURED when no archive holds the study for OHIF or Weasis', async () => {
    const organisation = await buildOrganisation(bare.db);
    const facility = await buildFacility(bare.db, { organisationId: organisation.id });
    const rad = await buildUser(bare.db, { role: 'RADIOLOGIST', facilities: [facility] });
    tokens.set(rad.id, await tokenFor(bare, rad));
    const uid = (await buildStudy(bare.db, { facility, status: 'TO_READ' })).studyUid ?? '';
    for (const viewer of ['ohif', 'weasis']) {
      const response = await open(rad, { study_iuid: uid, viewer_type: viewer }, bare);
      expect(response.status, response.text).toBe(409);
      expect(response.json).toMatchObject({
        error: { code: 'VIEWER_NOT_CONFIGURED', message: expect.stringContaining('PACS_DICOMWEB_URL') },
      });
    }
    // Desktop viewers need no server setting; a study outside the scope is still 404 first.
    expect((await open(rad, { study_iuid: uid, viewer_type: 'radiant' }, bare)).status).toBe(200);
    expect((await open(rad, { study_iuid: studyUid, viewer_type: 'ohif' }, bare)).status).toBe(404);
  });
});
