import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../../db/schema/index.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { VIEWER_COOKIE } from '../viewer-passes.ts';

// The proxy streams: an archive that sends the first part of an instance and holds the rest until
// the browser has received those first bytes. A proxy that buffered the answer would never pass
// them on (and the test would time out). When the browser goes away, the archive call is aborted.
// The archive here is a small HTTP server of the test, so it can hold its answer and see the abort.

const SECRET = 'gate-archive-token';
const BOUNDARY = 'gate-boundary';
const FIRST = Buffer.alloc(256 * 1024, 1);
const REST = Buffer.alloc(512 * 1024, 2);

type TGateRequest = {
  url: string;
  headers: http.IncomingHttpHeaders;
  release: () => void;
  closed: boolean;
};

let server: TTestServer;
let gate: http.Server;
let gateRoot: string;
const requests: TGateRequest[] = [];
let cookie = '';
let studyUid = '';

beforeAll(async () => {
  gate = http.createServer((request, response) => {
    const entry: TGateRequest = {
      url: request.url ?? '',
      headers: request.headers,
      closed: false,
      release: () => {
        response.end(Buffer.concat([REST, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]));
      },
    };
    requests.push(entry);
    response.on('close', () => {
      entry.closed = true;
    });
    response.writeHead(200, {
      'content-type': `multipart/related; type="application/dicom"; boundary=${BOUNDARY}`,
      etag: '"gate-etag"',
    });
    response.write(
      Buffer.concat([
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Type: application/dicom\r\nContent-Location: ${gateRoot}${entry.url.slice('/dicom-web'.length)}\r\n\r\n`,
        ),
        FIRST,
      ]),
    );
  });
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
  gateRoot = `http://127.0.0.1:${(gate.address() as AddressInfo).port}/dicom-web`;
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  const facility = await buildFacility(db, { organisationId: organisation.id });
  const rad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [facility] });
  const [archive] = await db
    .insert(t.pacsArchives)
    .values({
      organisationId: organisation.id,
      name: 'Gate',
      kind: 'dicomweb',
      dicomwebUrl: gateRoot,
      authKind: 'bearer',
      secretSealed: server.app.secretBox.seal(SECRET),
    })
    .returning();
  studyUid =
    (await buildStudy(db, { facility, status: 'TO_READ', pacsArchiveId: archive?.id })).studyUid ?? '';
  const link = await server.request('GET', `/api/v1/dicom/viewer?study_iuid=${studyUid}`, {
    token: await tokenFor(server, rad),
  });
  const ticketUrl = new URL((link.json as { url: string }).url);
  const open = await fetch(`${server.url}${ticketUrl.pathname}${ticketUrl.search}`, { redirect: 'manual' });
  cookie = /ris_viewer=([^;]+)/.exec(open.headers.get('set-cookie') ?? '')?.[1] ?? '';
  expect(cookie).not.toBe('');
});

afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => gate?.close(() => resolve()));
});

/** Polls until `check` is true (deadline 5 s). */
async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 5 s`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function instancePath(): string {
  return `/dicom-web/studies/${studyUid}/series/1.2.3/instances/1.2.3.4`;
}

describe('DICOMweb proxy streaming', () => {
  it('passes the first bytes on before the archive has sent the rest, with its credentials and not the browser’s', async () => {
    const url = new URL(server.url);
    const body = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let released = false;
      http
        .get(
          {
            host: url.hostname,
            port: url.port,
            path: instancePath(),
            headers: {
              cookie: `${VIEWER_COOKIE}=${cookie}`,
              accept: 'multipart/related; type="application/dicom"',
            },
          },
          (response) => {
            expect(response.statusCode).toBe(200);
            expect(response.headers['content-type']).toContain(`boundary=${BOUNDARY}`);
            expect(response.headers.etag).toBe('"gate-etag"');
            response.on('data', (chunk: Buffer) => {
              chunks.push(chunk);
              // The archive is still holding the rest: only now may it finish.
              if (!released) {
                released = true;
                requests.at(-1)?.release();
              }
            });
            response.on('end', () => resolve(Buffer.concat(chunks)));
            response.on('error', reject);
          },
        )
        .on('error', reject);
    });
    const text = body.toString('latin1');
    expect(text).toContain(`Content-Location: ${server.app.deps.config.publicUrl}${instancePath()}`);
    expect(text).not.toContain(gateRoot);
    expect(body.includes(FIRST)).toBe(true);
    expect(body.includes(REST)).toBe(true);
    const seen = requests.at(-1);
    // The gate's DICOMweb root is also at /dicom-web: the same path below it.
    expect(seen?.url).toBe(instancePath());
    expect(seen?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(seen?.headers.cookie).toBeUndefined();
    expect(seen?.headers.accept).toBe('multipart/related; type="application/dicom"');
  });

  it('aborts the archive call when the browser goes away mid-answer', async () => {
    const url = new URL(server.url);
    const before = requests.length;
    await new Promise<void>((resolve, reject) => {
      const request = http.get(
        {
          host: url.hostname,
          port: url.port,
          path: instancePath(),
          headers: { cookie: `${VIEWER_COOKIE}=${cookie}` },
        },
        (response) => {
          response.once('data', () => {
            request.destroy();
            resolve();
          });
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ECONNRESET') reject(error);
      });
    });
    await until(
      'the archive request is closed',
      () => requests.length > before && requests.at(-1)?.closed === true,
    );
  });
  it('answers HEAD with the archive’s headers and never reads its body', async () => {
    const before = requests.length;
    const response = await fetch(`${server.url}${instancePath()}`, {
      method: 'HEAD',
      headers: { cookie: `${VIEWER_COOKIE}=${cookie}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain(`boundary=${BOUNDARY}`);
    expect(await response.text()).toBe('');
    await until(
      'the archive request is closed',
      () => requests.length > before && requests.at(-1)?.closed === true,
    );
  });
});
