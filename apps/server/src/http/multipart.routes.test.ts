// Every multipart route over real HTTP with raw bodies a careless or hostile client sends: no
// boundary, a body cut off mid-part, a form with no parts, a content type the route does not take,
// and images whose header declares more pixels than any stored image may have. Each answers 4xx in
// the one error shape, naming the problem, and leaves the database as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema/index.ts';
import { pngDeclaring } from '../test/png.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';

let server: TTestServer;
let w: TWorld;
type TRoute = {
  name: string;
  method: string;
  path: string;
  user: TWorldUser;
  fields: Record<string, string>;
  /** The field that carries its files (none: the route takes no files). */
  fileField?: string;
};
let routes: TRoute[];
const BOUNDARY = 'ris-malformed-test';

beforeAll(async () => {
  server = await startTestServer();
  w = await buildReportWorld(server);
  const ordered = await w.study({ status: 'ORDERED', assignee: null });
  const assigned = await w.study();
  const { report } = await w.studyWithReport();
  const byAdmin = { by_user_id: w.users.admin.id };
  routes = [
    {
      name: 'create order',
      method: 'POST',
      path: '/worklist/create/order',
      user: 'admin',
      fields: { patient_name: 'Malformed Form', modality: 'CT', facility_fk: w.facility.id, ...byAdmin },
      fileField: 'files',
    },
    {
      name: 'activate',
      method: 'POST',
      path: '/worklist/activate',
      user: 'admin',
      fields: { worklist_id: ordered.id, ...byAdmin },
      fileField: 'files',
    },
    {
      name: 'duplicate',
      method: 'POST',
      path: '/worklist/duplicate',
      user: 'admin',
      fields: { worklist_id: assigned.id, ...byAdmin },
    },
    {
      name: 'add documents',
      method: 'POST',
      path: `/worklist/${assigned.id}/document`,
      user: 'admin',
      fields: {},
      fileField: 'files',
    },
    {
      name: 'replace documents',
      method: 'PATCH',
      path: `/worklist/${assigned.id}/document`,
      user: 'admin',
      fields: {},
      fileField: 'files',
    },
    {
      name: 'key images',
      method: 'POST',
      path: `/worklist/report/${report.id}/upload-images`,
      user: 'radiologist',
      fields: {},
      fileField: 'files',
    },
    {
      name: 'support',
      method: 'POST',
      path: '/comm/email/send-support',
      user: 'radiologist',
      fields: {
        user_id: w.users.radiologist.id,
        user_name: 'Dr Rao',
        email: 'rao@example.test',
        message: 'Help',
      },
      fileField: 'upload_files',
    },
    {
      name: 'letterhead',
      method: 'POST',
      path: `/user/facility/${w.facility.id}/letterhead`,
      user: 'admin',
      fields: { enable_letterhead: 'true' },
      fileField: 'header_file',
    },
  ];
});
afterAll(async () => {
  await server.close();
});

/** Everything a multipart route may write. */
async function snapshot(): Promise<string> {
  const [studies, files, documents, images, messages, facilities] = await Promise.all([
    server.db.select().from(t.studies),
    server.db.select().from(t.storedFiles),
    server.db.select().from(t.patientDocuments),
    server.db.select().from(t.reportImages),
    server.db.select().from(t.outboundMessages),
    server.db.select().from(t.facilities),
  ]);
  return JSON.stringify({ studies, files, documents, images, messages, facilities });
}

/** A complete multipart body of text fields and files. */
function formBody(
  fields: Record<string, string>,
  files: { field: string; name: string; data: Buffer }[] = [],
) {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

function send(route: TRoute, body: Buffer | string, contentType: string) {
  return server.request(route.method, `/api/v1${route.path}`, {
    token: w.token(route.user),
    rawBody: body,
    headers: { 'content-type': contentType },
  });
}

const malformed = (problem: string) => ({
  error: {
    code: 'VALIDATION_FAILED',
    message: `The form is malformed: ${problem}`,
    details: { field: 'body' },
  },
});

describe('malformed multipart bodies answer 400 and write nothing', () => {
  it('a multipart request without a boundary', async () => {
    for (const route of routes) {
      const before = await snapshot();
      const response = await send(route, formBody(route.fields), 'multipart/form-data');
      expect(response.status, `${route.name}: ${response.text}`).toBe(400);
      expect(response.json, route.name).toEqual(
        malformed('no multipart boundary in the Content-Type header'),
      );
      expect(await snapshot(), route.name).toBe(before);
    }
  });

  it('a text field holding NUL, named', async () => {
    for (const route of routes) {
      const before = await snapshot();
      const fields = { ...route.fields, note: 'a\u0000b' };
      const response = await send(route, formBody(fields), `multipart/form-data; boundary=${BOUNDARY}`);
      expect(response.status, `${route.name}: ${response.text}`).toBe(400);
      expect(response.json, route.name).toMatchObject({
        error: {
          code: 'VALIDATION_FAILED',
          message: 'Invalid request. note: must not contain NUL (\\u0000) characters',
          details: { fields: [{ field: 'note', in: 'body' }] },
        },
      });
      expect(await snapshot(), route.name).toBe(before);
    }
  });

  it('a body cut off in the middle of a part', async () => {
    for (const route of routes) {
      const before = await snapshot();
      const files = [{ field: route.fileField ?? 'files', name: 'cut.png', data: pngDeclaring(10, 10) }];
      const whole = formBody(route.fields, route.fileField ? files : []);
      const cut = whole.subarray(0, whole.length - 40);
      const response = await send(route, cut, `multipart/form-data; boundary=${BOUNDARY}`);
      expect(response.status, `${route.name}: ${response.text}`).toBe(400);
      expect(response.json, route.name).toEqual(
        malformed('the body ends before the form does (no closing boundary, or a part cut off)'),
      );
      expect(await snapshot(), route.name).toBe(before);
    }
  });

  it('a content type the route does not take answers 415 in the error shape', async () => {
    for (const route of routes) {
      const before = await snapshot();
      for (const contentType of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
        const response = await send(route, 'patient_name=x', contentType);
        expect(response.status, `${route.name} ${contentType}: ${response.text}`).toBe(415);
        expect(response.json, route.name).toEqual({
          error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.any(String) },
        });
      }
      expect(await snapshot(), route.name).toBe(before);
    }
  });

  it('a letterhead upload with no parts (or an empty JSON object) answers 400 naming the problem', async () => {
    const letterhead = routes.find((route) => route.name === 'letterhead');
    if (!letterhead) throw new Error('no letterhead route');
    const before = await snapshot();
    const bodies: [string, string][] = [
      [`--${BOUNDARY}--\r\n`, `multipart/form-data; boundary=${BOUNDARY}`],
      ['', `multipart/form-data; boundary=${BOUNDARY}`],
      ['{}', 'application/json'],
    ];
    for (const [body, contentType] of bodies) {
      const response = await send(letterhead, body, contentType);
      expect(response.status, `${contentType} ${JSON.stringify(body)}: ${response.text}`).toBe(400);
      expect(response.json).toEqual({
        error: {
          code: 'VALIDATION_FAILED',
          message: 'The form is empty: send enable_letterhead, header_file or footer_file',
          details: { field: 'body' },
        },
      });
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('the pixel limit applies to every image stored at upload', () => {
  it('refuses a tiny PNG declaring 60000 × 60000 pixels as a patient document, order document, support attachment, key image or letterhead', async () => {
    const bomb = pngDeclaring(60_000, 60_000);
    expect(bomb.length).toBeLessThan(100);
    for (const route of routes) {
      const field = route.fileField;
      if (!field) continue;
      const before = await snapshot();
      const response = await send(
        route,
        formBody(route.fields, [{ field, name: 'bomb.png', data: bomb }]),
        `multipart/form-data; boundary=${BOUNDARY}`,
      );
      expect(response.status, `${route.name}: ${response.text}`).toBe(413);
      expect(response.json, route.name).toEqual({
        error: {
          code: 'PAYLOAD_TOO_LARGE',
          message: `${field} (bomb.png): the image is 60000 × 60000 pixels; at most 25 megapixels are accepted`,
          details: { field, width: 60_000, height: 60_000 },
        },
      });
      expect(await snapshot(), route.name).toBe(before);
    }
    // The same form with an image within the limit is stored (the refusal above is the pixel limit's).
    const documents = routes.find((r) => r.name === 'add documents');
    if (!documents) throw new Error('no documents route');
    const small = await send(
      documents,
      formBody({}, [{ field: 'files', name: 'small.png', data: pngDeclaring(100, 100) }]),
      `multipart/form-data; boundary=${BOUNDARY}`,
    );
    expect(small.status, small.text).toBe(201);
  });
});
