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
