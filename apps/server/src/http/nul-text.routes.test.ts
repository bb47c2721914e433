// A NUL character (PostgreSQL text cannot hold one) in any string of a JSON body: 400 naming the
// field, before a route reads it; nothing written. (Queries only read: each search decides.)
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import * as t from '../db/schema/index.ts';
import { buildReportWorld, type TWorld } from '../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { cleanFileName } from './multipart.ts';
import { nulTextPath } from './nul-text.ts';

let server: TTestServer;
let w: TWorld;

beforeAll(async () => {
  server = await startTestServer();
  w = await buildReportWorld(server);
});
afterAll(async () => server.close());

const refusal = (field: string, where: 'body') => ({
  error: {
    code: 'VALIDATION_FAILED',
    message: `Invalid request. ${field}: must not contain NUL (\\u0000) characters`,
    details: { fields: [{ field, in: where }] },
  },
});

describe('text holding NUL', () => {
  it('is refused naming the field, in a JSON body, nested or not', async () => {
    const tags = async () => server.db.select().from(t.tags);
    const before = await tags();
    const tag = await w.call('admin', 'POST', '/worklist/tag', { name: 'a\u0000b' });
    expect(tag.status).toBe(400);
    expect(tag.json).toMatchObject(refusal('name', 'body'));
    expect(await tags()).toEqual(before);
    const nested = await w.call('admin', 'PUT', `/user/organisation/${w.organisationId}`, {
      name: 'Group',
      turnaround: { targets: [{ label: 'x\u0000' }] },
    });
    expect(nested.status).toBe(400);
    expect(nested.json).toMatchObject(refusal('turnaround.targets.0.label', 'body'));
  });

  it('is found however deep, without recursion', () => {
    let deep: unknown = 'x\u0000';
    for (let level = 0; level < 100_000; level += 1) deep = { a: deep };
    expect(nulTextPath(deep)?.split('.')).toHaveLength(100_000);
    expect(nulTextPath({ a: ['ok', { b: 'fine' }], c: Buffer.from([0]) })).toBeNull();
  });
});

describe('an uploaded file name', () => {
  it('loses control characters and the marks that reorder text', () => {
    expect(cleanFileName('\u202egpj.pdf')).toBe('gpj.pdf');
    expect(cleanFileName('scan\u0000.pdf\r\n')).toBe('scan.pdf');
    expect(cleanFileName('Ökografi rapor.pdf')).toBe('Ökografi rapor.pdf');
  });
});
