import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { VIEWER_COOKIE } from './viewer-passes.ts';

// GET /viewer/open: the built-in viewer's ticket becomes its cookie. No archive is called here (the
// proxy's own tests use a real Orthanc), so the default archive is an address nobody answers on.

type TUser = Awaited<ReturnType<typeof buildUser>>;

let server: TTestServer;
let rad: TUser;
let studyUid = '';

beforeAll(async () => {
  server = await startTestServer({
    env: { PUBLIC_URL: 'https://ris.example', PACS_DICOMWEB_URL: 'http://127.0.0.1:9/dicom-web' },
  });
  const organisation = await buildOrganisation(server.db);
  const facility = await buildFacility(server.db, { organisationId: organisation.id });
  rad = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [facility] });
  studyUid = (await buildStudy(server.db, { facility, status: 'TO_READ' })).studyUid ?? '';
});

afterAll(async () => {
  await server.close();
});

/** The /viewer/open path and query of a fresh ticket for `user`. */
async function ticketPath(user: TUser): Promise<string> {
  const link = await server.request('GET', `/api/v1/dicom/viewer?study_iuid=${studyUid}`, {
    token: await tokenFor(server, user),
  });
  expect(link.status, link.text).toBe(200);
  const url = new URL((link.json as { url: string }).url);
  expect(url.origin).toBe('https://ris.example');
  return `${url.pathname}${url.search}`;
}

const open = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { redirect: 'manual', headers });

describe('GET /viewer/open', () => {
  it('exchanges the ticket for a Secure, HttpOnly, SameSite=Strict cookie on /dicom-web and goes to the study', async () => {
    const response = await open(await ticketPath(rad), { 'sec-fetch-site': 'same-origin' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/viewer/viewer?StudyInstanceUIDs=${studyUid}`);
    expect(response.headers.get('set-cookie')).toMatch(
      new RegExp(
        `^${VIEWER_COOKIE}=[^;]+; Max-Age=28800; Path=/dicom-web; HttpOnly; Secure; SameSite=Strict$`,
      ),
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const value = /=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
    expect(server.app.viewerPasses.verify('cookie', value)).toMatchObject({ userId: rad.id, studyUid: null });
  });

  it('refuses a ticket another site sends the browser to (Sec-Fetch-Site), setting no cookie', async () => {
    const path = await ticketPath(rad);
    for (const site of ['cross-site', 'same-site']) {
      const response = await open(path, { 'sec-fetch-site': site });
      expect(response.status, site).toBe(403);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
    expect((await open(path, { 'sec-fetch-site': 'none' })).status).toBe(303);
  });

  it('refuses a missing, malformed, tampered or expired ticket, and a cookie in its place (401)', async () => {
    const passes = server.app.viewerPasses;
    const session = {
      userId: rad.id,
      sessionId: '00000000-0000-4000-8000-000000000000',
      organisationId: null,
      issuedAt: 0,
    };
    const expired = passes.issue('ticket', { ...session, studyUid }, -5);
    const cookie = passes.issue('cookie', { ...session, studyUid: null }, 60);
    const good = new URL(`https://x${await ticketPath(rad)}`).searchParams.get('ticket') ?? '';
    const tampered = `${good.slice(0, 10)}${good[10] === 'A' ? 'B' : 'A'}${good.slice(11)}`;
    for (const ticket of ['', 'x.y', expired, tampered, cookie, 'x'.repeat(2000)]) {
      const response = await open(`/viewer/open?ticket=${encodeURIComponent(ticket)}`);
      expect(response.status, ticket).toBe(401);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
    expect((await open('/viewer/open')).status).toBe(401);
  });

  it('refuses the ticket of a user disabled after it was made (401)', async () => {
    const user = await buildUser(server.db, { role: 'RADIOLOGIST', organisationId: rad.organisationId });
    await server.db.execute(
      sql`insert into user_facilities (user_id, facility_id) select ${user.id}, facility_id from user_facilities where user_id = ${rad.id}`,
    );
    const path = await ticketPath(user);
    await server.db.execute(sql`update users set status = 'INACTIVE' where id = ${user.id}`);
    const response = await open(path);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'auth/id-token-revoked' } });
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});
