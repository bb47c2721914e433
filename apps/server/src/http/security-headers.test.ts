import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from '../test/auth-helpers.ts';
import { buildOrganisation, buildUser } from '../test/factories.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';

let server: TTestServer;
let token: string;
let adminId: string;

beforeAll(async () => {
  server = await startTestServer();
  const organisation = await buildOrganisation(server.db);
  const admin = await buildUser(server.db, { role: 'ADMIN', organisationId: organisation.id });
  token = await tokenFor(server, admin);
  adminId = admin.id;
});
afterAll(async () => {
  await server.close();
});

const POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self' ws: wss: http://127.0.0.1:8843",
  "font-src 'self' data:",
  "object-src 'none'",
  "frame-src 'self' blob:",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join(';');

function expectSecurityHeaders(headers: Headers, label: string): void {
  expect(headers.get('content-security-policy'), label).toBe(POLICY);
  expect(headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(headers.get('referrer-policy'), label).toBe('no-referrer');
  expect(headers.get('x-frame-options'), label).toBe('DENY');
}

describe('security headers', () => {
  it('are on the single-page app, its deep links and assets', async () => {
    for (const path of ['/', '/worklist/123', '/assets/app-abc123.js']) {
      const response = await server.request('GET', path, { headers: { accept: 'text/html' } });
      expect(response.status, path).toBe(200);
      expectSecurityHeaders(response.headers, path);
    }
  });

  it('are on API answers, successful or not', async () => {
    const me = await server.request('GET', `/api/v1/user/${adminId}`, { token });
    expect(me.status).toBe(200);
    expectSecurityHeaders(me.headers, 'GET /user/{id}');
    const unauthenticated = await server.request('GET', `/api/v1/user/${adminId}`);
    expect(unauthenticated.status).toBe(401);
    expectSecurityHeaders(unauthenticated.headers, '401');
    const missing = await server.request('GET', '/api/v1/no-such-route', { token });
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing.headers, '404');
    const health = await server.request('GET', '/healthz');
    expectSecurityHeaders(health.headers, '/healthz');
  });

  it('leave Swagger UI working: its scripts and styles are files of its own origin', async () => {
    const page = await server.request('GET', '/api/docs/');
    expect(page.status).toBe(200);
    expectSecurityHeaders(page.headers, '/api/docs/');
    // Only external scripts (script-src 'self' refuses inline ones), each served from /api/docs.
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const sources = [...page.text.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      const script = await server.request('GET', new URL(source ?? '', `${server.url}/api/docs/`).pathname);
      expect(script.status, source).toBe(200);
    }
    const initializer = await server.request('GET', '/api/docs/static/swagger-initializer.js');
    expect(initializer.text).toContain('"validatorUrl":null');
  });
});
