import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../../db/schema/index.ts';
import { buildReportWorld, type TWorld } from '../../../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';

// A RIS hosting several groups sets PACS_ALLOWED_HOSTS: no organisation's admin can point the
// server at another host (its own network, a cloud metadata address) through an archive URL.
let server: TTestServer;
let w: TWorld;

beforeAll(async () => {
  server = await startTestServer({ env: { PACS_ALLOWED_HOSTS: 'pacs.example, *.hospital.example' } });
  w = await buildReportWorld(server);
});
afterAll(async () => server.close());

const body = (urls: { dicomweb_url: string; orthanc_url?: string }) => ({
  name: `Archive ${Math.random().toString(36).slice(2, 8)}`,
  kind: urls.orthanc_url ? 'orthanc' : 'dicomweb',
  ...urls,
  auth_kind: 'none',
  facilities: [{ facility_id: w.facility.id }],
  // Polled hourly: the test is about what may be saved, not about calling these hosts.
  poll_interval_seconds: 3600,
});

describe('PACS_ALLOWED_HOSTS', () => {
  it('refuses archive URLs naming other hosts, naming the field, and saves nothing', async () => {
    for (const [urls, field] of [
      [{ dicomweb_url: 'http://127.0.0.1:5432/dicom-web' }, 'dicomweb_url'],
      [{ dicomweb_url: 'http://169.254.169.254/latest' }, 'dicomweb_url'],
      [
        { dicomweb_url: 'https://pacs.example/dicom-web', orthanc_url: 'http://localhost:8042' },
        'orthanc_url',
      ],
      [{ dicomweb_url: 'https://hospital.example.evil.test/dicom-web' }, 'dicomweb_url'],
    ] as const) {
      const response = await w.call('admin', 'POST', '/pacs/archives', body(urls));
      expect(response.status, response.text).toBe(400);
      expect(response.json).toMatchObject({
        error: { code: 'VALIDATION_FAILED', message: expect.stringContaining(field) },
      });
    }
    const rows = await server.db
      .select()
      .from(t.pacsArchives)
      .where(eq(t.pacsArchives.organisationId, w.organisationId));
    expect(rows).toEqual([]);
  });

  it('accepts the allowed hosts, and refuses moving a saved archive elsewhere', async () => {
    const created = await w.call(
      'admin',
      'POST',
      '/pacs/archives',
      body({ dicomweb_url: 'https://orthanc.hospital.example/dicom-web' }),
    );
    expect(created.status, created.text).toBe(201);
    const { id } = created.json as { id: string };
    const moved = await w.call('admin', 'PUT', `/pacs/archives/${id}`, {
      dicomweb_url: 'http://10.0.0.1/dicom-web',
    });
    expect(moved.status).toBe(400);
    const [row] = await server.db.select().from(t.pacsArchives).where(eq(t.pacsArchives.id, id));
    expect(row?.dicomwebUrl).toBe('https://orthanc.hospital.example/dicom-web');
  });
});

// An archive's stored password or token goes to its address on every call, and is never sent back:
// an administrator who moves the archive to another host gives it again, or could read it there.
const row = async (id: string) =>
  (
    await server.db
      .select({
        dicomwebUrl: t.pacsArchives.dicomwebUrl,
        orthancUrl: t.pacsArchives.orthancUrl,
        authKind: t.pacsArchives.authKind,
        secretSealed: t.pacsArchives.secretSealed,
        updatedAt: t.pacsArchives.updatedAt,
      })
      .from(t.pacsArchives)
      .where(eq(t.pacsArchives.id, id))
  )[0];

describe('an archive’s stored secret', () => {
  it('stays only while the archive keeps its hosts; moved elsewhere, it is given again', async () => {
    const created = await w.call('admin', 'POST', '/pacs/archives', {
      name: 'Secret archive',
      kind: 'orthanc',
      dicomweb_url: 'https://pacs.example/dicom-web',
      orthanc_url: 'https://pacs.example',
      auth_kind: 'basic',
      username: 'ris',
      secret: 'S3CRET-PACS-PASSWORD',
      facilities: [{ facility_id: w.facility.id }],
      // Disabled: the test is about what is saved, not about calling these hosts.
      enabled: false,
      poll_interval_seconds: 3600,
    });
    expect(created.status, created.text).toBe(201);
    const { id } = created.json as { id: string };
    const before = await row(id);

    for (const change of [
      { dicomweb_url: 'https://a.hospital.example/dicom-web' },
      { orthanc_url: 'https://a.hospital.example' },
      { dicomweb_url: 'http://pacs.example/dicom-web' },
      { dicomweb_url: 'https://pacs.example:8443/dicom-web' },
    ]) {
      const moved = await w.call('admin', 'PUT', `/pacs/archives/${id}`, change);
      expect(moved.status, JSON.stringify(change)).toBe(400);
      expect(moved.json).toMatchObject({
        error: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/^secret: must be given again/) },
      });
      expect(await row(id)).toEqual(before);
    }

    // The same host on another path keeps it.
    const path = await w.call('admin', 'PUT', `/pacs/archives/${id}`, {
      dicomweb_url: 'https://pacs.example/wado',
    });
    expect(path.status, path.text).toBe(200);
    expect((await row(id))?.secretSealed).toBe(before?.secretSealed);
    // Another host with the secret given again, or without credentials, is saved.
    const again = await w.call('admin', 'PUT', `/pacs/archives/${id}`, {
      dicomweb_url: 'https://a.hospital.example/dicom-web',
      orthanc_url: 'https://a.hospital.example',
      secret: 'ANOTHER-PASSWORD',
    });
    expect(again.status, again.text).toBe(200);
    expect(server.app.secretBox.open((await row(id))?.secretSealed ?? '')).toBe('ANOTHER-PASSWORD');
    const none = await w.call('admin', 'PUT', `/pacs/archives/${id}`, {
      dicomweb_url: 'https://pacs.example/dicom-web',
      auth_kind: 'none',
    });
    expect(none.status, none.text).toBe(200);
    expect((await row(id))?.secretSealed).toBeNull();
  });
});
