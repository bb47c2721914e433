import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organisations, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { signIn } from '../../test/auth-helpers.ts';
import { buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { createOrganisationWithAdmin, slugOf } from './create-organisation.ts';

const PUBLIC_URL = 'https://ris.example.test';
let server: TTestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { PUBLIC_URL } });
});
afterAll(async () => {
  await server.close();
});

const create = (input: Partial<Parameters<typeof createOrganisationWithAdmin>[1]> = {}) =>
  createOrganisationWithAdmin(
    server.db,
    {
      organisation: 'Sunrise Imaging Ltd.',
      email: 'Lead@Sunrise.example',
      firstName: 'Asha',
      lastName: 'Rao',
      timeZone: 'Asia/Kolkata',
      ...input,
    },
    { publicUrl: PUBLIC_URL },
  );

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('npm run organisation:create (the first organisation and administrator)', () => {
  it('creates the organisation and an administrator who chooses a password with the link, signs in and manages it', async () => {
    const created = await create();
    expect(created.slug).toBe('sunrise-imaging-ltd');
    const [organisation] = await server.db
      .select()
      .from(organisations)
      .where(eq(organisations.id, created.organisationId));
    expect(organisation).toMatchObject({ name: 'Sunrise Imaging Ltd.', timeZone: 'Asia/Kolkata' });
    const [admin] = await server.db.select().from(users).where(eq(users.id, created.adminUserId));
    expect(admin).toMatchObject({ email: 'lead@sunrise.example', role: 'ADMIN', passwordHash: null });

    const token = new URL(created.link.link).searchParams.get('token') ?? '';
    expect(created.link.link.startsWith(`${PUBLIC_URL}/`)).toBe(true);
    const confirm = await server.request('POST', '/api/v1/auth/password-reset/confirm', {
      body: { token, password: 'a-long-first-password' },
    });
    expect(confirm.status).toBe(200);
    const session = await signIn(server, 'lead@sunrise.example', 'a-long-first-password');
    const facility = await server.request('POST', '/api/v1/user/facility', {
      token: session.id_token,
      body: { name: 'Sunrise Main', code: 'SUN1' },
    });
    expect(facility.status, facility.text).toBe(201);
    const again = await server.request('POST', '/api/v1/auth/password-reset/confirm', {
      body: { token, password: 'another-long-password' },
    });
    expect(again.status).toBe(400);
  });

  it('refuses an e-mail address or a short name in use, and bad options by name, writing nothing', async () => {
    const other = await buildUser(server.db, { email: 'taken@example.test' });
    const before = await server.db.$count(organisations);
    const taken = await failure(create({ organisation: 'Another Group', email: 'TAKEN@example.test' }));
    expect(taken.code).toBe('CONFLICT');
    const slug = await failure(create({ email: 'second@sunrise.example' }));
    expect(slug.message).toMatch(/^--slug: .*sunrise-imaging-ltd/);
    expect((await failure(create({ organisation: ' ' }))).message).toMatch(/^--organisation: /);
    expect((await failure(create({ email: 'not-an-address', slug: 'x1' }))).message).toMatch(/^--email: /);
    expect((await failure(create({ timeZone: 'Mars/Olympus', slug: 'x2' }))).message).toMatch(
      /^--time-zone: /,
    );
    expect((await failure(create({ slug: '../etc' }))).message).toMatch(/^--slug: /);
    expect(await server.db.$count(organisations)).toBe(before);
    expect(await server.db.$count(users, eq(users.email, 'second@sunrise.example'))).toBe(0);
    expect(other.role).toBe('RADIOLOGIST');
  });

  it('makes a short name from any organisation name', () => {
    expect(slugOf('Clínica São José / Radiology')).toBe('clinica-sao-jose-radiology');
    expect(slugOf('अस्पताल')).toBe('organisation');
  });
});
