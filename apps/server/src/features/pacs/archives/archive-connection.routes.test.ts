// POST /pacs/archives/{id}/test against a real Orthanc: the right password, a wrong one, a closed
// port and a host that never answers are all answers (200, ok true or false), never a 5xx.
import { ZArchiveTestResult, type TArchiveTestResult } from '@ris/domain';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../../db/schema/index.ts';
import { freePort } from '../../../integrations/pacs/local-orthanc.ts';
import { startTestOrthanc, type TTestOrthanc } from '../../../test/orthanc.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../../../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';

let server: TTestServer;
let w: TWorld;
let orthanc: TTestOrthanc;
/** A TCP server that accepts connections and never answers (a hung archive). */
let silent: Server;
const sockets = new Set<Socket>();

beforeAll(async () => {
  // Orthanc on its own first: afterAll stops it even when the server fails to start.
  orthanc = await startTestOrthanc();
  server = await startTestServer();
  w = await buildReportWorld(server);
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
}, 40_000);
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => (silent ? silent.close(resolve) : resolve(undefined)));
  await Promise.all([server?.close(), orthanc?.close()]);
});

async function archiveOf(input: { restUrl: string; password: string | null; kind?: 'orthanc' | 'dicomweb' }) {
  const response = await w.call('admin', 'POST', '/pacs/archives', {
    name: `Orthanc ${Math.random().toString(36).slice(2, 8)}`,
    kind: input.kind ?? 'orthanc',
    dicomweb_url: `${input.restUrl}/dicom-web`,
    orthanc_url: input.restUrl,
    auth_kind: input.password === null ? 'none' : 'basic',
    // Off: no sync jobs call these archives in the background; the test calls them all the same.
    enabled: false,
    username: orthanc.username,
    ...(input.password === null ? {} : { secret: input.password }),
  });
  expect(response.status, response.text).toBe(201);
  return (response.json as { id: string }).id;
}

async function test(id: string, user: TWorldUser = 'admin', query = ''): Promise<TArchiveTestResult> {
  const response = await w.call(user, 'POST', `/pacs/archives/${id}/test${query}`, {});
  expect(response.status, response.text).toBe(200);
  expect(response.text).not.toContain(orthanc.password);
  return ZArchiveTestResult.parse(response.json);
}

describe('POST /pacs/archives/{id}/test', () => {
  it('connects to Orthanc with the stored password: DICOMweb and REST both answer', async () => {
    const id = await archiveOf({ restUrl: orthanc.restUrl, password: orthanc.password });
    const result = await test(id);
    expect(result.ok, result.message).toBe(true);
    expect(result.message).toMatch(/^Connected/);
    expect(result.details.orthanc_version).toMatch(/^\d+\.\d+/);
    expect(result.details.checks.map((check) => [check.target, check.ok, check.status])).toEqual([
      ['dicomweb', true, 200],
      ['orthanc', true, 200],
    ]);
    expect(result.details.checks[0]?.url).toBe(`${orthanc.dicomwebUrl}/studies?limit=1`);
  });

  it('calls only DICOMweb for a DICOMweb archive', async () => {
    const id = await archiveOf({ restUrl: orthanc.restUrl, password: orthanc.password, kind: 'dicomweb' });
    const result = await test(id);
    expect(result.ok, result.message).toBe(true);
    expect(result.details.checks.map((check) => check.target)).toEqual(['dicomweb']);
  });

  it('says the credentials were refused for a wrong password, or none', async () => {
    for (const password of ['wrong-password', null]) {
      const id = await archiveOf({ restUrl: orthanc.restUrl, password });
      const result = await test(id);
      expect(result.ok).toBe(false);
      expect(result.message).toBe('DICOMweb: The archive refused the credentials (HTTP 401)');
      expect(result.details.checks.every((check) => check.status === 401)).toBe(true);
    }
  });

  it('says a closed port cannot be reached', async () => {
    const id = await archiveOf({ restUrl: `http://127.0.0.1:${await freePort()}`, password: 'x' });
    const result = await test(id);
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/^DICOMweb: Cannot be reached \(.*ECONNREFUSED.*\)$/);
    expect(result.details.checks.every((check) => !check.ok && check.status === null)).toBe(true);
  });

  it('gives up on an archive that never answers after the time-out', async () => {
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const id = await archiveOf({ restUrl: `http://127.0.0.1:${port}`, password: 'x', kind: 'dicomweb' });
    const started = Date.now();
    const result = await test(id, 'admin', '?timeout_seconds=1');
    expect(result.ok).toBe(false);
    expect(result.message).toBe('DICOMweb: No answer within 1 s');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('answers 403 to other roles and 404 to another organisation, and changes nothing', async () => {
    const id = await archiveOf({ restUrl: orthanc.restUrl, password: orthanc.password });
    const before = await server.db.select().from(t.pacsArchives);
    for (const user of ['facilityAdmin', 'radiologist', 'transcriptionist', 'referrer'] as TWorldUser[]) {
      const response = await w.call(user, 'POST', `/pacs/archives/${id}/test`, {});
      expect(response.status, `${user} ${response.text}`).toBe(403);
    }
    const outsider = await w.call('outsider', 'POST', `/pacs/archives/${id}/test`, {});
    expect(outsider.status, outsider.text).toBe(404);
    expect(await server.db.select().from(t.pacsArchives)).toEqual(before);
  });
});
