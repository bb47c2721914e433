// The zip download's streaming against a stand-in archive whose timing the test controls (the real
// Orthanc cannot be held mid-answer): the browser going away ends the archive's answer, Orthanc's
// Content-Length reaches the browser, and an archive error before the first byte is a clear 502.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TDicomZipUrl } from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

const ORTHANC_ID = '0a1b2c3d-0a1b2c3d-0a1b2c3d-0a1b2c3d-0a1b2c3d';
const ZIP_BYTES = Buffer.from('PK\u0003\u0004 a small zip that is not checked here');

/** What the stand-in archive saw: paths asked, and whether the held answer's connection closed. */
const archive = { paths: [] as string[], heldClosed: false };
let fake: Server;
let fakeUrl: string;
let server: TTestServer;
let token: string;
const studies = {} as Record<'held' | 'sized' | 'failing', string>;

function answer(request: IncomingMessage, response: ServerResponse): void {
  const path = request.url ?? '';
  archive.paths.push(path);
  if (path === '/tools/lookup') {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify([{ ID: ORTHANC_ID, Type: 'Study', Path: `/studies/${ORTHANC_ID}` }]));
  } else if (path === `/studies/${ORTHANC_ID}/archive`) {
    response.writeHead(200, { 'content-type': 'application/zip', 'content-length': ZIP_BYTES.length });
    response.end(ZIP_BYTES);
  } else if (path.startsWith(`/dicom-web/studies/${studies.held}`)) {
    // One instance, then nothing more until the RIS lets go.
    response.writeHead(200, { 'content-type': 'multipart/related; type="application/dicom"; boundary=xyz' });
    response.write(`--xyz\r\nContent-Type: application/dicom\r\n\r\n${'x'.repeat(200_000)}\r\n`);
    response.on('close', () => {
      archive.heldClosed = true;
    });
  } else {
    response.writeHead(500, { 'content-type': 'text/plain' });
    response.end('storage failure');
  }
}

async function pollUntil(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

beforeAll(async () => {
  fake = createServer(answer);
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  const plainFacility = await buildFacility(db, { organisationId: organisation.id });
  const orthancFacility = await buildFacility(db, { organisationId: organisation.id });
  const admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  token = await tokenFor(server, admin);
  const archiveFor = async (kind: 'orthanc' | 'dicomweb', facilityId: string) => {
    const [row] = await db
      .insert(t.pacsArchives)
      .values({
        organisationId: organisation.id,
        name: `Stand-in ${kind}`,
        kind,
        dicomwebUrl: `${fakeUrl}/dicom-web`,
        orthancUrl: kind === 'orthanc' ? fakeUrl : null,
      })
      .returning();
    await db.insert(t.pacsArchiveFacilities).values({ archiveId: row?.id ?? '', facilityId });
  };
  await archiveFor('dicomweb', plainFacility.id);
  await archiveFor('orthanc', orthancFacility.id);
  studies.held = (await buildStudy(db, { facility: plainFacility })).studyUid ?? '';
  studies.failing = (await buildStudy(db, { facility: plainFacility })).studyUid ?? '';
  studies.sized = (await buildStudy(db, { facility: orthancFacility })).studyUid ?? '';
});

afterAll(async () => {
  await server?.close();
  fake?.closeAllConnections();
  await new Promise((resolve) => fake?.close(resolve));
});

async function zipUrlOf(studyUid: string): Promise<string> {
  const response = await server.request('GET', `/api/v1/dicom/get-dicom-zip-url?study_uid=${studyUid}`, {
    token,
  });
  expect(response.status, response.text).toBe(200);
  return `${server.url}${(response.json as TDicomZipUrl).url}`;
}

describe('GET /dicom/zip/{id} as a stream', () => {
  it('stops the archive’s answer when the browser goes away mid-download', async () => {
    const browser = new AbortController();
    const response = await fetch(await zipUrlOf(studies.held), { signal: browser.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBeNull();
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(first?.value?.subarray(0, 4)).toEqual(new Uint8Array([0x50, 0x4b, 0x03, 0x04]));
    expect(archive.heldClosed).toBe(false);
    browser.abort();
    await pollUntil(() => archive.heldClosed, 'the archive’s answer to be closed');
  });

  it('passes Orthanc’s Content-Length on, so the browser shows real progress', async () => {
    const response = await fetch(await zipUrlOf(studies.sized));
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(ZIP_BYTES.length));
    expect(body).toEqual(ZIP_BYTES);
    expect(archive.paths).toContain('/tools/lookup');
  });

  it('answers a HEAD without asking the archive or logging a download', async () => {
    const asked = archive.paths.length;
    const response = await fetch(await zipUrlOf(studies.sized), { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(archive.paths).toHaveLength(asked);
  });

  it('answers 502 ARCHIVE_UNAVAILABLE when the archive fails before the first byte', async () => {
    const response = await fetch(await zipUrlOf(studies.failing));
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({
      error: { code: 'ARCHIVE_UNAVAILABLE', message: expect.stringContaining('Stand-in dicomweb') },
    });
  });
});
