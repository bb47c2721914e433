import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let server: TTestServer;
let adminToken: string;
let radiologistToken: string;

beforeAll(async () => {
  server = await startTestServer();
  const facility = await buildFacility(server.db);
  adminToken = await tokenFor(
    server,
    await buildUser(server.db, { role: 'ADMIN', organisationId: facility.organisationId }),
  );
  radiologistToken = await tokenFor(
    server,
    await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [facility] }),
  );
});

afterAll(async () => {
  await server.close();
});

describe('POST /user/referring-physician', () => {
  it('creates a referring physician of the caller’s organisation', async () => {
    const response = await server.request('POST', '/api/v1/user/referring-physician', {
      token: adminToken,
      body: { name: 'Dr Meera Iyer', email: 'meera@example.test', registration_number: 'KMC-1234' },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.json).toMatchObject({
      name: 'Dr Meera Iyer',
      registration_number: 'KMC-1234',
      user_fk: null,
    });
  });

  it('answers errors with a `detail` beside the standard body', async () => {
    const invalid = await server.request('POST', '/api/v1/user/referring-physician', {
      token: adminToken,
      body: { name: '', email: 'nope' },
    });
    expect(invalid.status).toBe(400);
    const body = invalid.json as { detail: string; error: { code: string; message: string } };
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.detail).toBe(body.error.message);
    expect(body.detail).toContain('name');
    expect(body.detail).toContain('email');
    const forbidden = await server.request('POST', '/api/v1/user/referring-physician', {
      token: radiologistToken,
      body: { name: 'Dr X' },
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json).toMatchObject({ detail: expect.stringContaining('may not') });
    const anonymous = await server.request('POST', '/api/v1/user/referring-physician', {
      body: { name: 'Dr X' },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toMatchObject({ detail: expect.any(String), error: { code: expect.any(String) } });
  });
});

describe('GET /user/referring-physicians', () => {
  it('lists the organisation’s referring physicians, searching without case or accents', async () => {
    for (const name of ['Dr Hélène Laurent', 'Dr Arjun Reddy', 'Dr 100% Sure']) {
      const created = await server.request('POST', '/api/v1/user/referring-physician', {
        token: adminToken,
        body: { name },
      });
      expect(created.status).toBe(201);
    }
    const other = await buildFacility(server.db);
    const outsider = await tokenFor(
      server,
      await buildUser(server.db, { role: 'ADMIN', organisationId: other.organisationId }),
    );

    const found = await server.request('GET', '/api/v1/user/referring-physicians?search=HELENE', {
      token: radiologistToken,
    });
    expect(found.status).toBe(200);
    expect((found.json as { items: { name: string }[] }).items.map((item) => item.name)).toEqual([
      'Dr Hélène Laurent',
    ]);
    // % is a literal character, not a wildcard that matches everyone.
    const literal = await server.request('GET', '/api/v1/user/referring-physicians?search=%25', {
      token: adminToken,
    });
    expect((literal.json as { items: { name: string }[] }).items.map((item) => item.name)).toEqual([
      'Dr 100% Sure',
    ]);
    const elsewhere = await server.request('GET', '/api/v1/user/referring-physicians', { token: outsider });
    expect((elsewhere.json as { items: unknown[] }).items).toEqual([]);
  });

  it('refuses referring physicians themselves and callers without a token', async () => {
    const facility = await buildFacility(server.db);
    const referrer = await tokenFor(
      server,
      await buildUser(server.db, { role: 'REFERRING_PHYSICIAN', organisationId: facility.organisationId }),
    );
    expect(
      (await server.request('GET', '/api/v1/user/referring-physicians', { token: referrer })).status,
    ).toBe(403);
    expect((await server.request('GET', '/api/v1/user/referring-physicians')).status).toBe(401);
  });
});
