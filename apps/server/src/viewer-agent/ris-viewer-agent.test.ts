import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewerAgent, type TViewerAgent } from './ris-viewer-agent.ts';

// A real agent on 127.0.0.1 and a real HTTP server standing for the RIS that signs zip links.
const ZIP = Buffer.from('PK\u0003\u0004 a study zip');
const STUDY_ID = randomUUID();
let ris: Server;
let risOrigin: string;
let agent: TViewerAgent;
let dir: string;
const opened: { file: string; viewer: string }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ris-agent-'));
  ris = createServer((request, response) => {
    if (request.url?.startsWith(`/api/v1/dicom/zip/${STUDY_ID}?`)) {
      response.writeHead(200, { 'content-type': 'application/zip' });
      response.end(ZIP);
      return;
    }
    response.writeHead(403).end();
  });
  await new Promise<void>((resolve) => ris.listen(0, '127.0.0.1', resolve));
  const address = ris.address();
  risOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  agent = await startViewerAgent({
    risOrigin,
    port: 0,
    downloadsDir: dir,
    open: async (file, viewer) => void opened.push({ file, viewer }),
  });
});

afterAll(async () => {
  await agent.close();
  await new Promise((resolve) => ris.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const call = (route: string, init: RequestInit & { origin?: string } = {}) =>
  fetch(`${agent.url}${route}`, { ...init, headers: { origin: init.origin ?? risOrigin, ...init.headers } });

const openBody = (zipUrl: string) =>
  JSON.stringify({ zip_url: zipUrl, viewer: 'radiant', study_uid: '1.2.840.113619.2.1' });

describe('ris-viewer-agent', () => {
  it('answers its token to pages of its RIS only, with CORS and the private-network preflight', async () => {
    const ok = await call('/');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(risOrigin);
    expect(await ok.json()).toMatchObject({ name: 'ris-viewer-agent', token: agent.token });
    const preflight = await call('/open', {
      method: 'OPTIONS',
      headers: { 'access-control-request-private-network': 'true', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-private-network')).toBe('true');
    const stranger = await call('/', { origin: 'https://evil.example' });
    expect(stranger.status).toBe(403);
    expect(await stranger.text()).not.toContain(agent.token);
    expect((await fetch(`${agent.url}/`)).status).toBe(403);
  });

  it('downloads a study link of its RIS and hands the zip to the viewer', async () => {
    const response = await call('/open', {
      method: 'POST',
      headers: { authorization: `Bearer ${agent.token}`, 'content-type': 'application/json' },
      body: openBody(`${risOrigin}/api/v1/dicom/zip/${STUDY_ID}?expires=1&signature=abc`),
    });
    expect(response.status).toBe(202);
    const { file } = (await response.json()) as { file: string };
    expect(await readFile(file)).toEqual(ZIP);
    expect(opened).toEqual([{ file, viewer: 'radiant' }]);
  });

  it('tells whether this workstation reaches a host’s port within 1 s, to its RIS with its token only', async () => {
    const address = ris.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const ask = (query: string, authorization = `Bearer ${agent.token}`) =>
      call(`/reach?${query}`, { headers: { authorization } });
    expect(await (await ask(`host=127.0.0.1&port=${port}`)).json()).toMatchObject({ reachable: true });
    await new Promise<void>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const free = probe.address();
        probe.close(() => {
          void ask(`host=127.0.0.1&port=${typeof free === 'object' && free ? free.port : 1}`)
            .then((response) => response.json())
            .then((body) => {
              expect(body).toMatchObject({ reachable: false });
              resolve();
            });
        });
      });
    });
    expect((await ask(`host=127.0.0.1&port=${port}`, 'Bearer wrong')).status).toBe(401);
    expect((await ask('host=bad%20host&port=80')).status).toBe(400);
    expect((await ask('host=127.0.0.1&port=70000')).status).toBe(400);
  });

  it('refuses a missing token, another site or path, bad UIDs and a refused download', async () => {
    const authorization = `Bearer ${agent.token}`;
    const open = (body: string, headers: Record<string, string> = { authorization }) =>
      call('/open', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
    const good = `${risOrigin}/api/v1/dicom/zip/${STUDY_ID}?expires=1&signature=abc`;
    expect((await open(openBody(good), {})).status).toBe(401);
    expect((await open(openBody(good), { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await open(openBody(`https://evil.example/api/v1/dicom/zip/${STUDY_ID}`))).status).toBe(400);
    expect((await open(openBody(`${risOrigin}/api/v1/users/all`))).status).toBe(400);
    expect(
      (await open(JSON.stringify({ zip_url: good, viewer: 'radiant', study_uid: '../../etc' }))).status,
    ).toBe(400);
    expect((await open(JSON.stringify({ zip_url: good, viewer: 'osirix', study_uid: '1.2' }))).status).toBe(
      400,
    );
    expect((await open('not json')).status).toBe(400);
    const refused = await open(openBody(`${risOrigin}/api/v1/dicom/zip/${randomUUID()}?expires=1`));
    expect(refused.status).toBe(502);
    expect(opened).toHaveLength(1);
  });
});
