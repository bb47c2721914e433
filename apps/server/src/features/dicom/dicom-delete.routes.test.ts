// DELETE /dicom/delete-study over HTTP against a real Orthanc, who may, what a final report keeps,
// and the archive down or unable (nothing changed), including the zip from a plain DICOMweb archive.
import type { TDeletedStudy } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import JSZip from 'jszip';
import { freePort } from '../../integrations/pacs/local-orthanc.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { buildFacility, buildStudy } from '../../test/factories.ts';
import { startDicomWorld, type TDicomWorld, type TUser } from '../../test/dicom-test-world.ts';

let world: TDicomWorld;
beforeAll(async () => {
  world = await startDicomWorld();
}, 60_000);
afterAll(async () => {
  await world?.close();
});

describe('DELETE /dicom/delete-study', () => {
  const del = (user: TUser, studyUid: string, byUserId = user.id) =>
    world.server.request(
      'DELETE',
      `/api/v1/dicom/delete-study?study_uid=${studyUid}&by_user_id=${byUserId}`,
      {
        token: world.as(user),
      },
    );

  it('lets an admin delete the study in Orthanc and marks every item of it DELETED, with history and event', async () => {
    const { images, study } = await world.archivedStudy();
    const copy = await buildStudy(world.server.db, {
      facility: world.f1,
      status: 'ASSIGNED',
      studyUid: images.studyUid,
      duplicatedFromStudyId: study.id,
    });
    const orthancId = await world.orthancStudyId(images.studyUid);
    expect(await world.orthancHas(orthancId)).toBe(true);
    const seen: string[] = [];
    const off = world.server.app.events.on('worklist.item.deleted', (event) => seen.push(event.id));
    const response = await del(world.u.admin, images.studyUid);
    off();
    expect(response.status, response.text).toBe(200);
    const body = response.json as TDeletedStudy;
    expect(body.worklist_ids.sort()).toEqual([study.id, copy.id].sort());
    expect(await world.orthancHas(orthancId)).toBe(false);
    for (const id of [study.id, copy.id]) {
      const [row] = await world.server.db.select().from(t.studies).where(eq(t.studies.id, id));
      expect(row).toMatchObject({ status: 'DELETED', deletedBy: world.u.admin.id });
      expect(row?.archiveDeletedAt).toBeInstanceOf(Date);
      const history = await world.server.db
        .select()
        .from(t.studyStatusHistory)
        .where(and(eq(t.studyStatusHistory.studyId, id), eq(t.studyStatusHistory.toStatus, 'DELETED')));
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ changedBy: world.u.admin.id });
    }
    expect(seen.sort()).toEqual([study.id, copy.id].sort());
    const audit = await world.server.db
      .select()
      .from(t.auditEvents)
      .where(and(eq(t.auditEvents.action, 'study.archive_deleted'), eq(t.auditEvents.entityId, study.id)));
    expect(audit).toHaveLength(1);
  });

  it('refuses everyone but organisation admins (403), other organisations and facilities (404), Orthanc unchanged', async () => {
    const { images, study } = await world.archivedStudy();
    const orthancId = await world.orthancStudyId(images.studyUid);
    for (const user of [world.u.facilityAdmin, world.u.rad, world.u.transcriptionist]) {
      const response = await del(user, images.studyUid);
      expect(response.status, String(user.role)).toBe(403);
    }
    for (const user of [world.u.otherFacilityRad, world.u.otherReferrer, world.u.outsider]) {
      const response = await del(user, images.studyUid);
      expect(response.status, String(user.role)).toBe(404);
    }
    const naming = await del(world.u.outsider, images.studyUid, world.u.admin.id);
    expect(naming.status).toBe(403);
    expect(await world.orthancHas(orthancId)).toBe(true);
    const [row] = await world.server.db.select().from(t.studies).where(eq(t.studies.id, study.id));
    expect(row).toMatchObject({ status: 'TO_READ', archiveDeletedAt: null });
  });

  it('keeps a study with a final report (409), Orthanc and the item unchanged', async () => {
    const { images, study } = await world.archivedStudy({ status: 'FINAL' });
    const response = await del(world.u.admin, images.studyUid);
    expect(response.status, response.text).toBe(409);
    expect(await world.orthancHas(await world.orthancStudyId(images.studyUid))).toBe(true);
    const [row] = await world.server.db.select().from(t.studies).where(eq(t.studies.id, study.id));
    expect(row?.status).toBe('FINAL');
  });
});

describe('an archive that is down or cannot do it', () => {
  it('answers 503 ARCHIVE_UNAVAILABLE when the archive cannot be reached, and changes nothing', async () => {
    const organisationId = world.f1.organisationId;
    const facility = await buildFacility(world.server.db, { organisationId });
    const down = await world.addArchive(organisationId, facility.id, {
      kind: 'orthanc',
      url: `http://127.0.0.1:${await freePort()}`,
    });
    const study = await buildStudy(world.server.db, { facility, status: 'TO_READ', pacsArchiveId: down });
    const uid = study.studyUid ?? '';
    const response = await world.server.request('DELETE', `/api/v1/dicom/delete-study?study_uid=${uid}`, {
      token: world.as(world.u.admin),
    });
    expect(response.status, response.text).toBe(503);
    expect(response.json).toMatchObject({ error: { code: 'ARCHIVE_UNAVAILABLE' } });
    expect((response.json as { error: { message: string } }).error.message).toContain('cannot be reached');
    const [row] = await world.server.db.select().from(t.studies).where(eq(t.studies.id, study.id));
    expect(row).toMatchObject({ status: 'TO_READ', archiveDeletedAt: null, deletedAt: null });
    const history = await world.server.db
      .select()
      .from(t.studyStatusHistory)
      .where(eq(t.studyStatusHistory.studyId, study.id));
    expect(history).toHaveLength(0);

    const series = await world.get(world.u.admin, `/dicom/series?study_uid=${uid}`);
    expect(series.status).toBe(503);
    const link = await world.zipUrl(world.u.admin, uid);
    const { response: zip } = await world.download(link.url);
    expect(zip.status).toBe(503);
  });

  it('builds the zip from WADO-RS for a plain DICOMweb archive; its delete answers 409', async () => {
    const organisationId = world.f1.organisationId;
    const facility = await buildFacility(world.server.db, { organisationId });
    const plain = await world.addArchive(organisationId, facility.id, {
      kind: 'dicomweb',
      url: world.orthanc.restUrl,
    });
    const { images, study } = await world.archivedStudy({ facility, archive: plain });
    const link = await world.zipUrl(world.u.admin, images.studyUid);
    const { response, body } = await world.download(link.url);
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

    const response409 = await world.server.request(
      'DELETE',
      `/api/v1/dicom/delete-study?study_uid=${images.studyUid}`,
      { token: world.as(world.u.admin) },
    );
    expect(response409.status).toBe(409);
    expect(response409.json).toMatchObject({ error: { code: 'ARCHIVE_NOT_SUPPORTED' } });
    const [row] = await world.server.db.select().from(t.studies).where(eq(t.studies.id, study.id));
    expect(row?.status).toBe('TO_READ');
  });

  it('answers 409 NO_ARCHIVE for a study no archive serves', async () => {
    const facility = await buildFacility(world.server.db, { organisationId: world.f1.organisationId });
    const study = await buildStudy(world.server.db, { facility, status: 'TO_READ' });
    const response = await world.get(world.u.admin, `/dicom/series?study_uid=${study.studyUid ?? ''}`);
    expect(response.status).toBe(409);
    expect(response.json).toMatchObject({ error: { code: 'NO_ARCHIVE' } });
  });
});
