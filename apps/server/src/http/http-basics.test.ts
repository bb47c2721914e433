import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { AppError } from './app-error.ts';
import { startTestServer, TEST_INDEX_HTML, type TTestServer } from '../test/test-server.ts';

let server: TTestServer;

// Probe routes standing in for features that do not exist yet, so the shared behaviour is tested.
const probes: FastifyPluginAsyncZod = async (api) => {
  api.post(
    '/probe/echo',
    { schema: { body: z.object({ email: z.email(), count: z.number().int().min(1) }) } },
    async (request) => request.body,
  );
  api.get('/probe/conflict', async () => {
    throw new AppError('CONFLICT', 'Report was changed by Dr Rao', { version: 3 });
  });
  api.get('/probe/nul', async () => {
    await api.deps.database.db.execute(sql`SELECT ${'a\u0000b'}::text`);
    return { ok: true };
  });
  api.get('/probe/crash', async () => {
    throw new Error('database password is hunter2');
  });
};

beforeAll(async () => {
  server = await startTestServer({
    env: { BODY_LIMIT_BYTES: '2048' },
    routes: async (api) => {
      await api.register(probes);
    },
  });
});
afterAll(async () => {
  await server.close();
});

describe('health', () => {
  it('answers /healthz while the process is alive', async () => {
    const response = await server.request('GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ status: 'ok' });
  });

  it('answers /readyz 200 when the database is reachable and fully migrated', async () => {
    const response = await server.request('GET', '/readyz');
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ status: 'ready', database: 'up', pending_migrations: 0, files: 'up' });
  });

  it('carries a request id, keeping a well-formed one from the caller', async () => {
    const own = await server.request('GET', '/healthz', { headers: { 'x-request-id': 'trace-42' } });
    expect(own.headers.get('x-request-id')).toBe('trace-42');
    const bad = await server.request('GET', '/healthz', { headers: { 'x-request-id': 'a b<script>' } });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('error shape', () => {
  it('answers unknown API routes with the JSON error shape and 404', async () => {
    for (const path of ['/api/v1/nope', '/api/v1/worklist/123/unknown', '/api']) {
      const response = await server.request('GET', path);
      expect(response.status, path).toBe(404);
      expect(response.json).toEqual({ error: { code: 'NOT_FOUND', message: expect.stringContaining(path) } });
    }
    const post = await server.request('POST', '/api/v1/nope', { body: {} });
    expect(post.status).toBe(404);
    expect(post.json).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('answers malformed JSON with 400 INVALID_JSON', async () => {
    const response = await server.request('POST', '/api/v1/probe/echo', {
      rawBody: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      error: { code: 'INVALID_JSON', message: 'The request body is not valid JSON.' },
    });
  });

  it('answers oversize bodies with 413 PAYLOAD_TOO_LARGE', async () => {
    const response = await server.request('POST', '/api/v1/probe/echo', {
      body: { email: 'a@b.test', count: 1, padding: 'x'.repeat(4096) },
    });
    expect(response.status).toBe(413);
    expect(response.json).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('answers invalid fields with 400 naming each field', async () => {
    const response = await server.request('POST', '/api/v1/probe/echo', {
      body: { email: 'nope', count: 0 },
    });
    expect(response.status).toBe(400);
    const body = response.json as {
      error: { code: string; message: string; details: { fields: unknown[] } };
    };
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.message).toContain('email');
    expect(body.error.message).toContain('count');
    expect(body.error.details.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'email' }),
        expect.objectContaining({ field: 'count' }),
      ]),
    );
    const valid = await server.request('POST', '/api/v1/probe/echo', {
      body: { email: 'a@b.test', count: 2 },
    });
    expect(valid.status).toBe(200);
    expect(valid.json).toEqual({ email: 'a@b.test', count: 2 });
  });

  it('maps an AppError to its status with code, message and details', async () => {
    const response = await server.request('GET', '/api/v1/probe/conflict');
    expect(response.status).toBe(409);
    expect(response.json).toEqual({
      error: { code: 'CONFLICT', message: 'Report was changed by Dr Rao', details: { version: 3 } },
    });
  });

  it('answers text with a NUL byte, refused by PostgreSQL, with 400 instead of 500', async () => {
    const response = await server.request('GET', '/api/v1/probe/nul');
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('NUL') },
    });
  });

  it('answers an unexpected error with a generic 500 that leaks nothing', async () => {
    const response = await server.request('GET', '/api/v1/probe/crash');
    expect(response.status).toBe(500);
    expect(response.json).toMatchObject({ error: { code: 'INTERNAL' } });
    expect(response.text).not.toContain('hunter2');
  });
});

describe('single-page app', () => {
  it('serves index.html at / and for deep links, never cached', async () => {
    for (const path of ['/', '/worklist/123', '/report-finder', '/login?next=%2Fworklist']) {
      const response = await server.request('GET', path, { headers: { accept: 'text/html' } });
      expect(response.status, path).toBe(200);
      expect(response.text).toBe(TEST_INDEX_HTML);
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('serves hashed assets as immutable and 404s a missing asset instead of returning the page', async () => {
    const asset = await server.request('GET', '/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const missing = await server.request('GET', '/assets/missing-123.js');
    expect(missing.status).toBe(404);
    expect(missing.text).not.toContain('RIS test shell');
  });

  it('sets defensive headers on every response', async () => {
    const response = await server.request('GET', '/');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('OpenAPI', () => {
  it('lists the routes that exist at /api/v1/openapi.json', async () => {
    const response = await server.request('GET', '/api/v1/openapi.json');
    expect(response.status).toBe(200);
    const document = response.json as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/healthz', '/readyz']));
  });

  it('serves the reference UI at /api/docs', async () => {
    const response = await server.request('GET', '/api/docs/');
    expect(response.status).toBe(200);
    expect(response.text).toContain('swagger');
  });
});
