// Walks the OpenAPI document, so every route that exists is covered without being listed by hand:
// - a secured route (security: bearerAuth) answers 401 without a token;
// - every /api/v1 route outside /api/v1/auth is secured (but the signed report PDF download, whose
//   signature is its authorisation: report-pdf.routes.test.ts);
// - a secured route addressing a record answers 404 to callers of every role from another
//   organisation, and the record is unchanged afterwards.
// A new route with path parameters must add a fixture below, or this test fails and says so.
// Routes that address a record in their body or query (report output, sharing, deliveries) are
// listed by hand in BODY_ADDRESSED with a request naming organisation A's study.
import { ROLES, type TRole } from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema/index.ts';
import {
  buildFacility,
  buildOrganisation,
  buildPatient,
  buildStudy,
  buildUser,
  TEST_PASSWORD,
} from '../test/factories.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';

type TOperation = { security?: unknown[] };
type TDocument = { paths: Record<string, Record<string, TOperation>> };
type TRoute = { method: string; path: string; secured: boolean };

/** Public by design: the signed, short-lived pdf_url (features/report-output/report-download.routes.ts). */
const SIGNED_URL_ROUTES = new Set([
  'GET /api/v1/worklist/report/{id}/pdf',
  // A study zip's signed, short-lived URL (features/dicom/dicom-zip.routes.ts).
  'GET /api/v1/dicom/zip/{id}',
]);

let server: TTestServer;
let routes: TRoute[];
let fixtures: Record<string, Record<string, string>>;
let bodies: Record<string, unknown> = {};
/** Each role's outsider (a user of organisation B): their token and id. */
const outsiders = new Map<TRole, { token: string; userId: string }>();

async function signIn(email: string): Promise<string> {
  const response = await server.request('POST', '/api/v1/auth/sign-in', {
    body: { email, password: TEST_PASSWORD },
  });
  expect(response.status, response.text).toBe(200);
  return (response.json as { id_token: string }).id_token;
}

/**
 * A body naming the caller as who acts (by_user_id), so the answer comes from the scope: naming
 * anyone else is refused (403) before any record is loaded (access/acting-as.ts).
 */
function asCaller(body: unknown, userId: string): unknown {
  return body && typeof body === 'object' && 'by_user_id' in body ? { ...body, by_user_id: userId } : body;
}

function fill(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(values[name] ?? `missing-${name}`),
  );
}

async function snapshot(): Promise<string> {
  const [outboundMessages, jobs, storedFiles, userPreferences] = await Promise.all([
    server.db.select().from(t.outboundMessages),
    server.db.select().from(t.jobs),
    server.db.select().from(t.storedFiles),
    server.db.select().from(t.userPreferences),
  ]);
  const [users, organisations, facilities, templates, macros, pacsArchives] = await Promise.all([
    server.db.select().from(t.users),
    server.db.select().from(t.organisations),
    server.db.select().from(t.facilities),
    server.db.select().from(t.templates),
    server.db.select().from(t.macros),
    server.db.select().from(t.pacsArchives),
  ]);
  const [reports, reportVersions, reportImages, patientDocuments, studies] = await Promise.all([
    server.db.select().from(t.reports),
    server.db.select().from(t.reportVersions),
    server.db.select().from(t.reportImages),
    server.db.select().from(t.patientDocuments),
    server.db.select().from(t.studies),
  ]);
  const dictationRecordings = await server.db.select().from(t.dictationRecordings);
  return JSON.stringify({
    dictationRecordings,
    users,
    organisations,
    facilities,
    templates,
    macros,
    reports,
    reportVersions,
    reportImages,
    patientDocuments,
    studies,
    outboundMessages,
    jobs,
    storedFiles,
    userPreferences,
    pacsArchives,
  });
}

type TBodyAddressed = { method: string; path: string; body?: unknown };
/** Body- or query-addressed routes, each with a valid request naming organisation A's study. */
let bodyAddressed: TBodyAddressed[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const document = (await server.request('GET', '/api/v1/openapi.json')).json as TDocument;
  routes = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      secured: Array.isArray(operation.security) && operation.security.length > 0,
    })),
  );

  // Organisation A owns the records; organisation B has one caller of every role.
  const db = server.db;
  const organisationA = await buildOrganisation(db);
  const facilityA = await buildFacility(db, { organisationId: organisationA.id });
  const userA = await buildUser(db, { role: 'RADIOLOGIST', facilities: [facilityA] });
  const facilityB = await buildFacility(db);
  for (const role of ROLES) {
    const user = await buildUser(db, {
      role,
      organisationId: facilityB.organisationId,
      facilities: role === 'ADMIN' || role === 'REFERRING_PHYSICIAN' ? [] : [facilityB],
    });
    outsiders.set(role, { token: await signIn(user.email), userId: user.id });
  }
  // Worklist records of organisation A (issue 4): a study, its patient, a tag on it.
  const studyA = await buildStudy(db, { facility: facilityA, status: 'TO_READ' });
  const patientA = await buildPatient(db, { facility: facilityA });
  const [tagA] = await db
    .insert(t.tags)
    .values({ scope: 'USER', name: 'Matrix', createdBy: userA.id })
    .returning();
  const [worklistTagA] = await db
    .insert(t.worklistTags)
    .values({ studyId: studyA.id, tagId: tagA?.id ?? '', userId: userA.id })
    .returning();
  // Templates, macros and a transcriptionist of organisation A (issue 5).
  const transcriptionistA = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [facilityA] });
  const [templateA] = await db
    .insert(t.templates)
    .values({ scope: 'USER', organisationId: organisationA.id, ownerUserId: userA.id, name: 'Matrix' })
    .returning();
  const [macroA] = await db
    .insert(t.macros)
    .values({ userId: userA.id, shortKey: 'matrix', value: '<p>Matrix</p>' })
    .returning();
  // A report of studyA with a key image, and a patient document (issue 5).
  const [reportA] = await db
    .insert(t.reports)
    .values({ studyId: studyA.id, organisationId: organisationA.id, content: '<p>Matrix</p>' })
    .returning();
  const [fileA] = await db
    .insert(t.storedFiles)
    .values({
      organisationId: organisationA.id,
      storageKey: '2024/01/00000000-0000-4000-8000-000000000001',
      sha256: '0'.repeat(64),
      sizeBytes: 1,
      mediaType: 'image/png',
    })
    .returning();
  const [imageA] = await db
    .insert(t.reportImages)
    .values({ reportId: reportA?.id ?? '', fileId: fileA?.id ?? '' })
    .returning();
  const [documentA] = await db
    .insert(t.patientDocuments)
    .values({ studyId: studyA.id, fileId: fileA?.id ?? '', filename: 'matrix.png' })
    .returning();
  // A referring physician of organisation A (issue 13).
  const [physicianA] = await db
    .insert(t.referringPhysicians)
    .values({ organisationId: organisationA.id, name: 'Dr Matrix', email: 'matrix-referrer@clinic.test' })
    .returning();
  // An image archive of organisation A (issue 14).
  const [archiveA] = await db
    .insert(t.pacsArchives)
    .values({
      organisationId: organisationA.id,
      name: 'Matrix PACS',
      kind: 'dicomweb',
      dicomwebUrl: 'http://127.0.0.1:9/dicom-web',
    })
    .returning();
  // A recorded dictation of reportA (issue 17).
  const [recordingA] = await db
    .insert(t.dictationRecordings)
    .values({
      organisationId: organisationA.id,
      reportId: reportA?.id ?? '',
      byUserId: userA.id,
      fileId: fileA?.id ?? '',
      durationSeconds: 1,
      contentType: 'audio/wav',
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    .returning();
  const recordingFixture = { id: recordingA?.id ?? '' };
  const reportFixture = { id: reportA?.id ?? '', report_id: reportA?.id ?? '', image_id: imageA?.id ?? '' };
  const byStudy = { worklist_id: studyA.id };
  bodyAddressed = [
    {
      method: 'POST',
      path: '/api/v1/worklist/report/preview/pdf',
      body: { ...byStudy, html_content: '<p>x</p>' },
    },
    { method: 'POST', path: '/api/v1/worklist/report/preview/docx', body: byStudy },
    { method: 'POST', path: '/api/v1/worklist/report/primary-rad/pdf', body: byStudy },
    {
      method: 'POST',
      path: '/api/v1/worklist/report/by-rad/pdf',
      body: { ...byStudy, rad_user_ids: [userA.id] },
    },
    {
      method: 'POST',
      path: '/api/v1/worklist/report/by-rad/docx',
      body: { ...byStudy, rad_user_ids: [userA.id] },
    },
    {
      method: 'POST',
      path: '/api/v1/comm/email/send-report-pdf',
      body: { ...byStudy, emails: ['matrix@clinic.test'], by_user_id: userA.id },
    },
    {
      method: 'POST',
      path: '/api/v1/comm/whatsapp/send-report-pdf',
      body: { ...byStudy, mobile_numbers: ['+919876543210'], by_user_id: userA.id },
    },
    { method: 'GET', path: `/api/v1/comm/messages?worklist_id=${studyA.id}` },
    // Recorded dictations (features/dictation).
    { method: 'GET', path: `/api/v1/worklist/augnito/voice-data?report_id=${reportA?.id ?? ''}` },
    {
      method: 'POST',
      path: '/api/v1/worklist/augnito/voice-data',
      body: { report_id: reportA?.id ?? '', by_user_id: userA.id },
    },
    // Study images by Study Instance UID (features/dicom).
    { method: 'GET', path: `/api/v1/dicom/get-dicom-zip-url?study_uid=${studyA.studyUid ?? ''}` },
    { method: 'GET', path: `/api/v1/dicom/series?study_uid=${studyA.studyUid ?? ''}` },
    {
      method: 'GET',
      path: `/api/v1/dicom/series-thumbnail?study_uid=${studyA.studyUid ?? ''}&series_uid=1.2.3`,
    },
    { method: 'DELETE', path: `/api/v1/dicom/delete-study?study_uid=${studyA.studyUid ?? ''}` },
    {
      method: 'POST',
      path: '/api/v1/user/referring-physician',
      body: { id: physicianA?.id ?? '', name: 'Outsider', by_user_id: userA.id },
    },
  ];
  // Valid bodies for routes whose schema requires fields, so the 404 comes from the scope, not validation.
  bodies = {
    'PUT /api/v1/worklist/report/{id}': { content: '<p>Outsider</p>', version: 1, by_user_id: userA.id },
    'POST /api/v1/worklist/report/{id}/addendum': { content: '<p>Outsider</p>', by_user_id: userA.id },
    'PUT /api/v1/user/preference/{user}': { preferences: { theme: 'light' } },
    'POST /api/v1/user/patient/{id}/merge': { duplicate_id: studyA.patientId, by_user_id: userA.id },
    'POST /api/v1/user/referring-physician/{id}/invitation': { by_user_id: userA.id },
  };
  fixtures = {
    '/api/v1/worklist/{id}/report': { id: studyA.id },
    '/api/v1/worklist/report/{id}': reportFixture,
    '/api/v1/worklist/report/{id}/addendum': reportFixture,
    '/api/v1/worklist/report/{id}/upload-images': reportFixture,
    '/api/v1/worklist/report/{report_id}/images/{image_id}': reportFixture,
    '/api/v1/worklist/{id}/document': { id: studyA.id },
    '/api/v1/worklist/{id}/document/{document_id}': { id: studyA.id, document_id: documentA?.id ?? '' },
    '/api/v1/worklist/{id}': { id: studyA.id },
    '/api/v1/worklist/statuses/{worklist_id}': { worklist_id: studyA.id },
    '/api/v1/worklist/worklist-tags/{user_id}': { user_id: userA.id },
    '/api/v1/worklist/worklist-tag/{id}': { id: worklistTagA?.id ?? '' },
    '/api/v1/user/patient/{id}': { id: patientA.id },
    '/api/v1/user/patient/{id}/studies': { id: patientA.id },
    '/api/v1/user/patient/{id}/merge': { id: patientA.id },
    '/api/v1/user/referring-physician/{id}/invitation': { id: physicianA?.id ?? '' },
    '/api/v1/user/{id}': { id: userA.id },
    '/api/v1/user/email/{email}': { email: userA.email },
    '/api/v1/user/details/{id}': { id: userA.id },
    // User administration (issue 13).
    '/api/v1/user/all/{organisationId}': { organisationId: organisationA.id },
    '/api/v1/user/{id}/signature': { id: userA.id },
    '/api/v1/user/{id}/invitation': { id: userA.id },
    '/api/v1/user/organisation/details/{id}': { id: organisationA.id },
    '/api/v1/radiologist/{user_fk}': { user_fk: userA.id },
    '/api/v1/radiologist/transcriptionist/{user_fk}': { user_fk: transcriptionistA.id },
    '/api/v1/radiologist/template/{id}': { id: templateA?.id ?? '' },
    '/api/v1/radiologist/macros/{user_id}': { user_id: userA.id },
    '/api/v1/radiologist/macro/{id}': { id: macroA?.id ?? '' },
    '/api/v1/notification/{user_id}': { user_id: userA.id },
    // Facilities and the organisation (issue 6).
    '/api/v1/user/facility/{id}': { id: facilityA.id },
    '/api/v1/user/facility/{id}/letterhead': { id: facilityA.id },
    '/api/v1/user/facility/{id}/letterhead/header': { id: facilityA.id },
    '/api/v1/user/facility/{id}/letterhead/footer': { id: facilityA.id },
    '/api/v1/user/organisation/{id}': { id: organisationA.id },
    // Preferences (issue 13).
    '/api/v1/user/preference/{user}': { user: userA.id },
    // Image archives (issue 14).
    '/api/v1/pacs/archives/{id}': { id: archiveA?.id ?? '' },
    '/api/v1/pacs/archives/{id}/test': { id: archiveA?.id ?? '' },
    // Recorded dictations (issue 17).
    '/api/v1/worklist/augnito/voice-data/{id}': recordingFixture,
    '/api/v1/worklist/augnito/voice-data/{id}/audio': recordingFixture,
    '/api/v1/worklist/augnito/voice-data/{id}/inserted': recordingFixture,
  };
});
afterAll(async () => {
  await server.close();
});

describe('route × role matrix', () => {
  it('finds the routes in the OpenAPI document', () => {
    expect(routes.length).toBeGreaterThan(5);
    expect(routes.filter((route) => route.secured).length).toBeGreaterThanOrEqual(4);
  });

  it('secures every /api/v1 route outside /api/v1/auth', () => {
    const open = routes.filter(
      (route) =>
        route.path.startsWith('/api/v1/') &&
        !route.path.startsWith('/api/v1/auth/') &&
        !route.secured &&
        !SIGNED_URL_ROUTES.has(`${route.method} ${route.path}`),
    );
    expect(open.map((route) => `${route.method} ${route.path}`)).toEqual([]);
  });

  // Every route × every role, one request after the other: bounded in count, not in time.
  it('answers 401 without a token on every secured route', { timeout: 180_000 }, async () => {
    for (const route of routes.filter((r) => r.secured)) {
      const path = fill(route.path, fixtures[route.path] ?? {});
      const response = await server.request(route.method, path, route.method === 'GET' ? {} : { body: {} });
      expect(response.status, `${route.method} ${route.path}`).toBe(401);
      expect(response.json, `${route.method} ${route.path}`).toMatchObject({
        error: { code: expect.any(String) },
      });
    }
  });

  it('has a fixture for every secured route with path parameters', () => {
    const missing = routes
      .filter((route) => route.secured && route.path.includes('{') && !fixtures[route.path])
      .map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);
  });

  // Every route × every role, one request after the other: bounded in count, not in time.
  it(
    'answers 404 to every role of another organisation and changes nothing',
    { timeout: 180_000 },
    async () => {
      const before = await snapshot();
      for (const route of routes.filter((r) => r.secured && r.path.includes('{'))) {
        for (const [role, { token, userId }] of outsiders) {
          const body = asCaller(bodies[`${route.method} ${route.path}`] ?? {}, userId);
          const response = await server.request(route.method, fill(route.path, fixtures[route.path] ?? {}), {
            token,
            ...(route.method === 'GET' ? {} : { body }),
          });
          expect(response.status, `${role} ${route.method} ${route.path}`).toBe(404);
        }
      }
      expect(await snapshot()).toBe(before);
    },
  );

  // Every route × every role, one request after the other: bounded in count, not in time.
  it(
    'answers 404 on body-addressed routes to every role of another organisation and changes nothing',
    { timeout: 180_000 },
    async () => {
      const known = new Set(routes.map((route) => `${route.method} ${route.path}`));
      for (const route of bodyAddressed) {
        expect(known, 'a BODY_ADDRESSED route is not in the OpenAPI document').toContain(
          `${route.method} ${route.path.split('?')[0] ?? ''}`,
        );
      }
      const before = await snapshot();
      for (const route of bodyAddressed) {
        for (const [role, { token, userId }] of outsiders) {
          const response = await server.request(route.method, route.path, {
            token,
            ...(route.body === undefined ? {} : { body: asCaller(route.body, userId) }),
          });
          expect(response.status, `${role} ${route.method} ${route.path}: ${response.text}`).toBe(404);
        }
      }
      expect(await snapshot()).toBe(before);
    },
  );

  it('refuses a by_user_id naming someone else with 403 before loading anything', async () => {
    const naming = [
      ...Object.entries(bodies).map(([route, body]) => {
        const [method = '', path = ''] = route.split(' ');
        return { method, path: fill(path, fixtures[path] ?? {}), body };
      }),
      ...bodyAddressed,
    ].filter((route) => route.body && typeof route.body === 'object' && 'by_user_id' in route.body);
    expect(naming.length).toBeGreaterThan(0);
    const before = await snapshot();
    for (const route of naming) {
      for (const [role, { token }] of outsiders) {
        // by_user_id names organisation A's user: refused whatever the record, so never a 404.
        const response = await server.request(route.method, route.path, { token, body: route.body });
        expect(response.status, `${role} ${route.method} ${route.path}: ${response.text}`).toBe(403);
      }
    }
    expect(await snapshot()).toBe(before);
  });
});
