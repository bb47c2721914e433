// The study images routes over HTTP against a real Orthanc and a migrated database: the zip through
// its signed URL and the series with thumbnails, for every role, another facility and organisation.
import type { TDicomSeries } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import JSZip from 'jszip';
import { LinkSigner, deriveLinkKey } from '../../auth/signed-links.ts';
import { DICOM_ZIP_KEY_LABEL } from './dicom-zip-links.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { startDicomWorld, type TDicomWorld } from '../../test/dicom-test-world.ts';

let world: TDicomWorld;
beforeAll(async () => {
  world = await startDicomWorld();
}, 60_000);
afterAll(async () => {
  await world?.close();
});

describe('GET /dicom/get-dicom-zip-url and the zip it points to', () => {
  it('streams the study as a zip holding every uploaded instance, logged in the audit trail', async () => {
    const { images, study } = await world.archivedStudy();
    const link = await world.zipUrl(world.u.rad, images.studyUid);
    expect(link.url).toMatch(new RegExp(`^/api/v1/dicom/zip/${study.id}\\?`));
    const lifetime = new Date(link.expires_at).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(200_000);
    expect(lifetime).toBeLessThanOrEqual(300_000);

    const { response, body } = await world.download(link.url);
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

    const audit = await world.server.db
      .select()
      .from(t.auditEvents)
      .where(and(eq(t.auditEvents.action, 'study.images_downloaded'), eq(t.auditEvents.entityId, study.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorUserId: world.u.rad.id, entityType: 'study' });
    expect(audit[0]?.data).toMatchObject({ study_uid: images.studyUid });
  });

  it('gives a URL to everyone who sees the study on the worklist, and 404 to anyone else', async () => {
    const { images } = await world.archivedStudy();
    for (const user of [world.u.admin, world.u.facilityAdmin, world.u.transcriptionist, world.u.referrer]) {
      const link = await world.zipUrl(user, images.studyUid);
      const { response } = await world.download(link.url);
      expect(response.status, String(user.role)).toBe(200);
    }
    for (const user of [world.u.otherFacilityRad, world.u.otherReferrer, world.u.outsider]) {
      const response = await world.get(user, `/dicom/get-dicom-zip-url?study_uid=${images.studyUid}`);
      expect(response.status, String(user.role)).toBe(404);
      expect(response.json).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    expect((await world.get(world.u.rad, '/dicom/get-dicom-zip-url?study_uid=1.2.3.4.5.999')).status).toBe(
      404,
    );
  });

  it('answers 400 naming study_uid for a UID that is not one', async () => {
    for (const bad of ['abc', '1..2', '1.2.', `1.${'2'.repeat(64)}`]) {
      const response = await world.get(
        world.u.rad,
        `/dicom/get-dicom-zip-url?study_uid=${encodeURIComponent(bad)}`,
      );
      expect(response.status, bad).toBe(400);
      expect(response.text).toContain('study_uid');
    }
  });

  it('refuses a tampered, expired or borrowed URL (403) and one missing its signature (400)', async () => {
    const { study, images } = await world.archivedStudy();
    const other = await world.archivedStudy();
    const link = await world.zipUrl(world.u.rad, images.studyUid);
    const url = new URL(link.url, world.server.url);
    const signature = url.searchParams.get('signature') ?? '';
    const variants: string[] = [];
    const flipped = new URL(url);
    flipped.searchParams.set('signature', `${signature[0] === 'a' ? 'b' : 'a'}${signature.slice(1)}`);
    variants.push(flipped.pathname + flipped.search);
    const longer = new URL(url);
    longer.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    variants.push(longer.pathname + longer.search);
    const someoneElse = new URL(url);
    someoneElse.searchParams.set('uid', world.u.admin.id);
    variants.push(someoneElse.pathname + someoneElse.search);
    // The same signature on another study's path.
    variants.push(url.pathname.replace(study.id, other.study.id) + url.search);
    // Correctly signed, but expired.
    const signer = new LinkSigner(
      await deriveLinkKey(world.server.app.deps.config, DICOM_ZIP_KEY_LABEL),
      300,
    );
    const past = Math.floor(Date.now() / 1000) - 1;
    variants.push(
      `/api/v1/dicom/zip/${study.id}?uid=${world.u.rad.id}&expires=${past}&signature=${signer.sign([study.id, world.u.rad.id], past)}`,
    );
    for (const variant of variants) {
      const { response, body } = await world.download(variant);
      expect(response.status, variant).toBe(403);
      expect(JSON.parse(body.toString())).toMatchObject({ error: { code: 'FORBIDDEN' } });
    }
    const unsigned = await world.download(
      `/api/v1/dicom/zip/${study.id}?uid=${world.u.rad.id}&expires=${past}`,
    );
    expect(unsigned.response.status).toBe(400);
    // A fresh, correct signature still works.
    const fresh = Math.floor(Date.now() / 1000) + 60;
    const good = await world.download(
      `/api/v1/dicom/zip/${study.id}?uid=${world.u.rad.id}&expires=${fresh}&signature=${signer.sign([study.id, world.u.rad.id], fresh)}`,
    );
    expect(good.response.status).toBe(200);
  });

  it('stops working once the user may no longer see the study', async () => {
    const { images } = await world.archivedStudy();
    const link = await world.zipUrl(world.u.transcriptionist, images.studyUid);
    await world.server.db
      .delete(t.userFacilities)
      .where(eq(t.userFacilities.userId, world.u.transcriptionist.id));
    try {
      const { response } = await world.download(link.url);
      expect(response.status).toBe(403);
    } finally {
      await world.server.db
        .insert(t.userFacilities)
        .values({ userId: world.u.transcriptionist.id, facilityId: world.f1.id });
    }
  });
});

describe('GET /dicom/series and /dicom/series-thumbnail', () => {
  it('lists the series from the archive and renders a thumbnail of each', async () => {
    const { images } = await world.archivedStudy();
    const response = await world.get(world.u.rad, `/dicom/series?study_uid=${images.studyUid}`);
    expect(response.status, response.text).toBe(200);
    const series = response.json as TDicomSeries[];
    expect(series.map((s) => s.series_uid).sort()).toEqual([...images.seriesUids].sort());
    expect(series.map((s) => s.modality).sort()).toEqual(['CT', 'SR']);
    expect(series.every((s) => s.instance_count === 3)).toBe(true);

    const ct = series.find((s) => s.modality === 'CT');
    const thumbnail = await fetch(
      `${world.server.url}/api/v1/dicom/series-thumbnail?study_uid=${images.studyUid}&series_uid=${ct?.series_uid}`,
      { headers: { authorization: `Bearer ${world.as(world.u.referrer)}` } },
    );
    const bytes = Buffer.from(await thumbnail.arrayBuffer());
    expect(thumbnail.status, bytes.toString().slice(0, 200)).toBe(200);
    expect(thumbnail.headers.get('content-type')).toMatch(/^image\/(jpeg|png)$/);
    expect(thumbnail.headers.get('cache-control')).toContain('private');
    const jpeg = bytes.subarray(0, 3).toString('hex') === 'ffd8ff';
    const png = bytes.subarray(0, 8).toString('hex') === '89504e470d0a1a0a';
    expect(jpeg || png).toBe(true);
    // Whole: a JPEG ends with its EOI marker (Orthanc's DICOMweb plugin announces a shorter length).
    if (jpeg) expect(bytes.subarray(-2).toString('hex')).toBe('ffd9');
  });

  it('answers 404 outside the scope, for another study’s series, and 400 naming a bad UID', async () => {
    const { images } = await world.archivedStudy();
    const other = await world.archivedStudy();
    for (const user of [world.u.otherFacilityRad, world.u.otherReferrer, world.u.outsider]) {
      expect(
        (await world.get(user, `/dicom/series?study_uid=${images.studyUid}`)).status,
        String(user.role),
      ).toBe(404);
      const thumb = await world.get(
        user,
        `/dicom/series-thumbnail?study_uid=${images.studyUid}&series_uid=${images.seriesUids[0]}`,
      );
      expect(thumb.status, String(user.role)).toBe(404);
    }
    const borrowed = await world.get(
      world.u.rad,
      `/dicom/series-thumbnail?study_uid=${images.studyUid}&series_uid=${other.images.seriesUids[0]}`,
    );
    expect(borrowed.status).toBe(404);
    const bad = await world.get(
      world.u.rad,
      `/dicom/series-thumbnail?study_uid=${images.studyUid}&series_uid=../x`,
    );
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('series_uid');
  });
});
