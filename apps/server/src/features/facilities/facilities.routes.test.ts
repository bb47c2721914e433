import { MAX_LETTERHEAD_BYTES, type TFacilityDetails } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { hugePng } from '../../documents/sample-report.ts';
import { buildFacility } from '../../test/factories.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let server: TTestServer;
let w: TWorld;

beforeAll(async () => {
  server = await startTestServer();
  w = await buildReportWorld(server);
});
afterAll(async () => {
  await server.close();
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/yQALCAABAAEBAREA/8wABgAQEAX/2gAIAQEAAD8A0s8g/9k=',
  'base64',
);

type TPart = { field: string; data?: Buffer; name?: string; value?: string };

async function upload(user: TWorldUser, facilityId: string, parts: TPart[]) {
  const form = new FormData();
  for (const part of parts) {
    if (part.data)
      form.append(
        part.field,
        new Blob([new Uint8Array(part.data)], { type: 'image/png' }),
        part.name ?? 'x.png',
      );
    else form.append(part.field, part.value ?? '');
  }
  const response = await fetch(`${server.url}/api/v1/user/facility/${facilityId}/letterhead`, {
    method: 'POST',
    headers: { authorization: `Bearer ${w.token(user)}` },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? (JSON.parse(text) as unknown) : undefined };
}

async function facilityRow(id: string) {
  const [row] = await server.db.select().from(t.facilities).where(eq(t.facilities.id, id));
  if (!row) throw new Error('no facility');
  return row;
}

describe('GET /user/facility/{id}', () => {
  it('shows a facility to who works in it, 404 to everyone else', async () => {
    const expected: [TWorldUser, number][] = [
      ['admin', 200],
      ['facilityAdmin', 200],
      ['radiologist', 200],
      ['transcriptionist', 200],
      ['otherFacilityTranscriptionist', 404],
      ['referrer', 404],
      ['outsider', 404],
    ];
    for (const [user, status] of expected) {
      const response = await w.call(user, 'GET', `/user/facility/${w.facility.id}`);
      expect(response.status, `${user} ${response.text}`).toBe(status);
    }
    const response = await w.call('admin', 'GET', `/user/facility/${w.facility.id}`);
    expect(response.json).toMatchObject({
      id: w.facility.id,
      organisation_fk: w.organisationId,
      letterhead_enabled: false,
      header_file_url: null,
      footer_file_url: null,
    });
  });
});

describe('POST and PUT /user/facility', () => {
  it('lets an admin create and change facilities; codes are unique per organisation (409)', async () => {
    const created = await w.call('admin', 'POST', '/user/facility', {
      name: 'Hill Imaging',
      code: 'HILL-1',
      time_zone: 'Asia/Kolkata',
      parent_facility_fk: w.facility.id,
    });
    expect(created.status, created.text).toBe(201);
    const facility = created.json as TFacilityDetails;
    expect(facility).toMatchObject({
      name: 'Hill Imaging',
      code: 'HILL-1',
      time_zone: 'Asia/Kolkata',
      parent_facility_fk: w.facility.id,
      status: 'ACTIVE',
      letterhead_enabled: false,
    });
    const duplicate = await w.call('admin', 'POST', '/user/facility', { name: 'Again', code: 'HILL-1' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.text).toContain('code');
    // Another organisation may use the same code.
    const elsewhere = await w.call('outsider', 'POST', '/user/facility', { name: 'Hill', code: 'HILL-1' });
    expect(elsewhere.status, elsewhere.text).toBe(201);

    const renamed = await w.call('admin', 'PUT', `/user/facility/${facility.id}`, {
      name: 'Hill Imaging Centre',
      status: 'INACTIVE',
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json).toMatchObject({ name: 'Hill Imaging Centre', status: 'INACTIVE', code: 'HILL-1' });
    const taken = await w.call('admin', 'PUT', `/user/facility/${facility.id}`, { code: w.facility.code });
    expect(taken.status).toBe(409);
    const cycle = await w.call('admin', 'PUT', `/user/facility/${w.facility.id}`, {
      parent_facility_fk: facility.id,
    });
    expect(cycle.status).toBe(400);
    expect(cycle.text).toContain('parent_facility_fk');
    const foreignParent = await w.call('admin', 'POST', '/user/facility', {
      name: 'X',
      code: 'X-1',
      parent_facility_fk: (await buildFacility(server.db)).id,
    });
    expect(foreignParent.status).toBe(400);
    expect(foreignParent.text).toContain('parent_facility_fk');
  });

  it('keeps the facility’s own image node (its OHIF root on the facility network) and clears it', async () => {
    const set = await w.call('admin', 'PUT', `/user/facility/${w.facility.id}`, {
      local_node_url: 'https://10.0.0.5:8443/ohif/',
    });
    expect(set.status, set.text).toBe(200);
    expect(set.json).toMatchObject({ local_node_url: 'https://10.0.0.5:8443/ohif' });
    const cleared = await w.call('admin', 'PUT', `/user/facility/${w.facility.id}`, { local_node_url: null });
    expect(cleared.json).toMatchObject({ local_node_url: null });
  });

  it('refuses bad bodies naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ code: 'A' }, 'name'],
      [{ name: 'A', code: 'has space' }, 'code'],
      [{ name: 'A', code: 'A2', time_zone: 'Mars/Base' }, 'time_zone'],
      [{ name: 'A', code: 'A3', email: 'nope' }, 'email'],
      [{ name: 'A', code: 'A4', local_node_url: 'https://ris:pw@10.0.0.5:8443/ohif' }, 'local_node_url'],
      [{ name: 'A', code: 'A5', local_node_url: 'file:///etc/passwd' }, 'local_node_url'],
    ];
    for (const [body, field] of cases) {
      const response = await w.call('admin', 'POST', '/user/facility', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.text).toContain(field);
    }
  });

  it('lets a facility admin edit their own facility but not its status; others are refused', async () => {
    const before = await facilityRow(w.facility.id);
    const own = await w.call('facilityAdmin', 'PUT', `/user/facility/${w.facility.id}`, {
      phone: '+91 22 1234',
    });
    expect(own.status, own.text).toBe(200);
    expect(own.json).toMatchObject({ phone: '+91 22 1234' });
    const status = await w.call('facilityAdmin', 'PUT', `/user/facility/${w.facility.id}`, {
      status: 'INACTIVE',
    });
    expect(status.status).toBe(403);
    for (const user of ['radiologist', 'transcriptionist'] as const) {
      expect((await w.call(user, 'PUT', `/user/facility/${w.facility.id}`, { phone: '1' })).status).toBe(403);
    }
    const create = await w.call('facilityAdmin', 'POST', '/user/facility', { name: 'Mine', code: 'MINE' });
    expect(create.status).toBe(403);
    const other = await buildFacility(server.db, { organisationId: w.organisationId });
    expect((await w.call('facilityAdmin', 'PUT', `/user/facility/${other.id}`, { phone: '1' })).status).toBe(
      404,
    );
    expect((await w.call('outsider', 'PUT', `/user/facility/${w.facility.id}`, { phone: '1' })).status).toBe(
      404,
    );
    const after = await facilityRow(w.facility.id);
    expect(after.status).toBe(before.status);
    expect(after.phone).toBe('+91 22 1234');
    await server.db
      .update(t.facilities)
      .set({ phone: before.phone })
      .where(eq(t.facilities.id, w.facility.id));
  });
});

describe('letterhead', () => {
  it('uploads header and footer, serves them back, and deletes them by flag', async () => {
    const facility = await buildFacility(server.db, { organisationId: w.organisationId });
    const response = await upload('admin', facility.id, [
      { field: 'enable_letterhead', value: 'true' },
      { field: 'header_file', data: PNG, name: 'header.png' },
      { field: 'footer_file', data: JPEG, name: 'footer.jpg' },
    ]);
    expect(response.status, response.text).toBe(200);
    const details = response.json as TFacilityDetails;
    expect(details).toMatchObject({
      letterhead_enabled: true,
      header_file_url: `/api/v1/user/facility/${facility.id}/letterhead/header`,
      footer_file_url: `/api/v1/user/facility/${facility.id}/letterhead/footer`,
    });
    const header = await fetch(`${server.url}${details.header_file_url ?? ''}`, {
      headers: { authorization: `Bearer ${w.token('admin')}` },
    });
    expect(header.status).toBe(200);
    expect(header.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await header.arrayBuffer()).equals(PNG)).toBe(true);
    const footer = await fetch(`${server.url}${details.footer_file_url ?? ''}`, {
      headers: { authorization: `Bearer ${w.token('admin')}` },
    });
    expect(footer.headers.get('content-type')).toBe('image/jpeg');
    expect((await fetch(`${server.url}${details.footer_file_url ?? ''}`)).status).toBe(401);

    const header1 = (await facilityRow(facility.id)).letterheadHeaderFileId;
    // Query-string flag.
    const noHeader = await w.call(
      'admin',
      'DELETE',
      `/user/facility/${facility.id}/letterhead?delete_header=true`,
    );
    expect(noHeader.status, noHeader.text).toBe(200);
    expect(noHeader.json).toMatchObject({ header_file_url: null, letterhead_enabled: true });
    expect((noHeader.json as TFacilityDetails).footer_file_url).not.toBeNull();
    expect(header1).not.toBeNull();
    const gone = await w.call('admin', 'GET', `/user/facility/${facility.id}/letterhead/header`);
    expect(gone.status).toBe(404);
    // JSON body flag.
    const noFooter = await w.call('admin', 'DELETE', `/user/facility/${facility.id}/letterhead`, {
      delete_footer: true,
    });
    expect(noFooter.status, noFooter.text).toBe(200);
    expect(noFooter.json).toMatchObject({ header_file_url: null, footer_file_url: null });
    const nothing = await w.call('admin', 'DELETE', `/user/facility/${facility.id}/letterhead`, {});
    expect(nothing.status).toBe(400);
    expect(nothing.text).toContain('delete_header');
    const badFlag = await w.call(
      'admin',
      'DELETE',
      `/user/facility/${facility.id}/letterhead?delete_header=maybe`,
    );
    expect(badFlag.status).toBe(400);
    expect(badFlag.text).toContain('delete_header');
  });

  it('enables a letterhead without images (blank space) and switches it off again', async () => {
    const facility = await buildFacility(server.db, { organisationId: w.organisationId });
    const on = await upload('admin', facility.id, [{ field: 'enable_letterhead', value: 'true' }]);
    expect(on.status, on.text).toBe(200);
    expect(on.json).toMatchObject({ letterhead_enabled: true, header_file_url: null });
    const off = await w.call('admin', 'POST', `/user/facility/${facility.id}/letterhead`, {
      enable_letterhead: false,
    });
    expect(off.status, off.text).toBe(200);
    expect(off.json).toMatchObject({ letterhead_enabled: false });
    const bad = await upload('admin', facility.id, [{ field: 'enable_letterhead', value: 'sure' }]);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('enable_letterhead');
  });

  it('checks images by content and size, stores nothing refused', async () => {
    const facility = await buildFacility(server.db, { organisationId: w.organisationId });
    const files = async () => (await server.db.select().from(t.storedFiles)).length;
    const before = await files();
    const text = await upload('admin', facility.id, [
      { field: 'header_file', data: PNG, name: 'fine.png' },
      { field: 'footer_file', data: Buffer.from('not an image at all, only text'), name: 'footer.png' },
    ]);
    expect(text.status).toBe(415);
    expect(text.text).toContain('footer_file');
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_LETTERHEAD_BYTES)]);
    const large = await upload('admin', facility.id, [{ field: 'header_file', data: big, name: 'big.png' }]);
    expect(large.status).toBe(413);
    expect(large.text).toContain('header_file');
    // 35 KB of PNG that is 36 megapixels: refused before anything decodes it.
    const bomb = await upload('admin', facility.id, [
      { field: 'header_file', data: PNG, name: 'fine.png' },
      { field: 'footer_file', data: hugePng(6000, 6000).data, name: 'bomb.png' },
    ]);
    expect(bomb.status).toBe(413);
    expect(bomb.json).toMatchObject({
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message:
          'footer_file (bomb.png): the image is 6000 × 6000 pixels; at most 25 megapixels are accepted',
      },
    });
    const empty = await upload('admin', facility.id, [{ field: 'header_file', data: Buffer.alloc(0) }]);
    expect(empty.status).toBe(400);
    const wrongField = await upload('admin', facility.id, [{ field: 'files', data: PNG }]);
    expect(wrongField.status).toBe(400);
    expect(wrongField.text).toContain('header_file');
    expect(await files()).toBe(before);
    expect(await facilityRow(facility.id)).toMatchObject({
      letterheadHeaderFileId: null,
      letterheadFooterFileId: null,
    });
  });

  it("lets the facility's admin change its letterhead; 404 outside scope, 403 without the right", async () => {
    const other = await buildFacility(server.db, { organisationId: w.organisationId });
    const parts = [{ field: 'header_file', data: PNG }];
    expect((await upload('facilityAdmin', w.facility.id, parts)).status).toBe(200);
    expect((await upload('facilityAdmin', other.id, parts)).status).toBe(404);
    expect((await upload('outsider', w.facility.id, parts)).status).toBe(404);
    expect((await upload('radiologist', w.facility.id, parts)).status).toBe(403);
    expect((await upload('transcriptionist', w.facility.id, parts)).status).toBe(403);
    const outsiderDelete = await w.call('outsider', 'DELETE', `/user/facility/${w.facility.id}/letterhead`, {
      delete_header: true,
    });
    expect(outsiderDelete.status).toBe(404);
    const radiologistDelete = await w.call(
      'radiologist',
      'DELETE',
      `/user/facility/${w.facility.id}/letterhead`,
      {
        delete_header: true,
      },
    );
    expect(radiologistDelete.status).toBe(403);
    expect((await facilityRow(w.facility.id)).letterheadHeaderFileId).not.toBeNull();
    expect(
      (await w.call('outsider', 'GET', `/user/facility/${w.facility.id}/letterhead/header`)).status,
    ).toBe(404);
    expect(
      (await w.call('radiologist', 'GET', `/user/facility/${w.facility.id}/letterhead/header`)).status,
    ).toBe(200);
    await server.db
      .update(t.facilities)
      .set({ letterheadHeaderFileId: null })
      .where(eq(t.facilities.id, w.facility.id));
  });
});
