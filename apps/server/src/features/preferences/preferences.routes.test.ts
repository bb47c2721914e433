import { defaultPreferences, type TOrganisationPreferences, type TUserPreferences } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let server: TTestServer;
type TUser = Awaited<ReturnType<typeof buildUser>>;
type TRoleKey =
  'admin' | 'admin2' | 'facilityAdmin' | 'rad' | 'transcriptionist' | 'referrer' | 'outsider' | 'outsiderRad';
const u = {} as Record<TRoleKey, TUser>;
const tokens = new Map<string, string>();
const as = (user: TUser) => tokens.get(user.id) ?? '';
let organisationId = '';

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  organisationId = organisation.id;
  const f1 = await buildFacility(db, { organisationId });
  u.admin = await buildUser(db, { role: 'ADMIN', organisationId });
  u.admin2 = await buildUser(db, { role: 'ADMIN', organisationId });
  u.facilityAdmin = await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f1] });
  u.rad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] });
  u.transcriptionist = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f1] });
  u.referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId });
  u.outsider = await buildUser(db, { role: 'ADMIN' });
  u.outsiderRad = await buildUser(db, { role: 'RADIOLOGIST' });
  for (const user of Object.values(u)) tokens.set(user.id, await tokenFor(server, user));
});

afterAll(async () => {
  await server.close();
});

const getOf = (caller: TUser, owner: TUser | string) =>
  server.request('GET', `/api/v1/user/preference/${typeof owner === 'string' ? owner : owner.id}`, {
    token: as(caller),
  });
const putOf = (caller: TUser, owner: TUser, body: unknown) =>
  server.request('PUT', `/api/v1/user/preference/${owner.id}`, { token: as(caller), body });
const postOrg = (caller: TUser, body: unknown) =>
  server.request('POST', '/api/v1/user/preference', { token: as(caller), body });
const messageOf = (response: { json: unknown }) =>
  (response.json as { error?: { message?: string } }).error?.message ?? '';
const preferenceRows = () => server.db.select().from(t.userPreferences).orderBy(t.userPreferences.id);

async function resolved(caller: TUser, owner: TUser = caller): Promise<TUserPreferences> {
  const response = await getOf(caller, owner);
  expect(response.status, response.text).toBe(200);
  return response.json as TUserPreferences;
}

async function saved(user: TUser, preferences: object): Promise<TUserPreferences> {
  const response = await putOf(user, user, { preferences });
  expect(response.status, response.text).toBe(200);
  return response.json as TUserPreferences;
}

describe('GET /user/preference/default', () => {
  it('answers the complete default document to every signed-in role, and 401 to nobody', async () => {
    for (const user of Object.values(u)) {
      const response = await server.request('GET', '/api/v1/user/preference/default', { token: as(user) });
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ scope: 'DEFAULT', preferences: defaultPreferences() });
    }
    expect((await server.request('GET', '/api/v1/user/preference/default')).status).toBe(401);
  });
});

describe('GET /user/preference/{user}', () => {
  it('gives a user with no documents the defaults, each sourced DEFAULT', async () => {
    const body = await resolved(u.rad);
    expect(body).toMatchObject({
      user_fk: u.rad.id,
      organisation_fk: organisationId,
      preferences: defaultPreferences(),
      user: {},
      organisation: {},
      updated_at: null,
    });
    expect(new Set(Object.values(body.sources))).toEqual(new Set(['DEFAULT']));
  });

  it('lets every role read their own, an admin anyone of the organisation, nobody else (403/404)', async () => {
    for (const user of Object.values(u)) expect((await getOf(user, user)).status).toBe(200);
    for (const owner of [u.rad, u.facilityAdmin, u.referrer, u.admin2]) {
      expect((await getOf(u.admin, owner)).status).toBe(200);
    }
    for (const [caller, owner] of [
      [u.rad, u.transcriptionist],
      [u.facilityAdmin, u.rad],
      [u.transcriptionist, u.admin],
      [u.referrer, u.rad],
    ] as const) {
      const response = await getOf(caller, owner);
      expect(response.status).toBe(403);
      expect(response.json).toMatchObject({
        error: { code: 'FORBIDDEN', message: 'user: you may read only your own preferences' },
      });
    }
    for (const [caller, owner] of [
      [u.outsider, u.rad],
      [u.outsiderRad, u.rad],
      [u.admin, u.outsider],
    ] as const) {
      const response = await getOf(caller, owner);
      expect(response.status).toBe(404);
      expect(response.json).toMatchObject({ error: { code: 'NOT_FOUND', message: 'user: user not found' } });
    }
    expect((await getOf(u.admin, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const malformed = await getOf(u.admin, 'not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('user');
  });
});

describe('PUT /user/preference/{user}', () => {
  it('stores the user’s own document, resolves it, and shows it to an admin', async () => {
    const columns = defaultPreferences().worklist_columns.map((column) =>
      column.id === 'facility' ? { ...column, visible: false } : column,
    );
    const body = await saved(u.transcriptionist, {
      worklist_columns: columns,
      theme: 'light',
      page_sizes: { worklist: 25 },
      notifications: { status_toasts: false },
    });
    expect(body.user).toEqual({
      worklist_columns: columns,
      theme: 'light',
      page_sizes: { worklist: 25 },
      notifications: { status_toasts: false },
    });
    expect(body.preferences).toMatchObject({
      theme: 'light',
      page_sizes: { worklist: 25, reportFinder: 20 },
      notifications: { status_toasts: false },
    });
    expect(body.preferences.worklist_columns.find((column) => column.id === 'facility')?.visible).toBe(false);
    expect(body.sources).toMatchObject({ theme: 'USER', page_sizes: 'USER', quick_action: 'DEFAULT' });
    expect(body.updated_at).not.toBeNull();
    expect(await resolved(u.admin, u.transcriptionist)).toEqual(body);

    const [row] = await server.db
      .select()
      .from(t.userPreferences)
      .where(eq(t.userPreferences.userId, u.transcriptionist.id));
    expect(row).toMatchObject({ scope: 'USER', organisationId: null, settings: body.user });
  });

  it('replaces the document whole: a field left out is inherited again (last write wins)', async () => {
    await saved(u.referrer, { theme: 'light', quick_action: 'view' });
    const body = await saved(u.referrer, { quick_action: 'edit' });
    expect(body.user).toEqual({ quick_action: 'edit' });
    expect(body.preferences.theme).toBe('dark');
    expect(body.sources.theme).toBe('DEFAULT');
    const rows = await server.db
      .select()
      .from(t.userPreferences)
      .where(eq(t.userPreferences.userId, u.referrer.id));
    expect(rows).toHaveLength(1);
  });

  it('lets each role write only their own (admins included: 403), another organisation 404, nothing changed', async () => {
    for (const user of [u.facilityAdmin, u.rad, u.admin]) await saved(user, { default_viewer: 'weasis' });
    const before = await preferenceRows();
    for (const [caller, owner, status] of [
      [u.admin, u.rad, 403],
      [u.facilityAdmin, u.transcriptionist, 403],
      [u.rad, u.facilityAdmin, 403],
      [u.outsider, u.rad, 404],
      [u.outsiderRad, u.admin, 404],
    ] as const) {
      const response = await putOf(caller, owner, { preferences: { theme: 'light' } });
      expect(response.status, `${caller.email} → ${owner.email}`).toBe(status);
      if (status === 403) expect(response.text).toContain('user: you may change only your own preferences');
    }
    expect(await preferenceRows()).toEqual(before);
  });

  it('refuses unknown fields and bad values with 400 naming the field, and writes nothing', async () => {
    const before = await preferenceRows();
    const cases: [unknown, string][] = [
      [{ preferences: { colour: 'red' } }, '"colour" is not a known field'],
      [{ preferences: { theme: 'light' }, extra: true }, '"extra" is not a known field'],
      [{ preferences: { page_sizes: { orders: 10 } } }, 'page_sizes: "orders" is not a known field'],
      [{ preferences: { theme: 'blue' } }, 'preferences.theme'],
      [{ preferences: { default_viewer: 'osirix' } }, 'preferences.default_viewer'],
      [{ preferences: { page_sizes: { worklist: 0 } } }, 'preferences.page_sizes.worklist'],
      [{ preferences: { page_sizes: { worklist: 2.5 } } }, 'preferences.page_sizes.worklist'],
      [{ preferences: { default_date_range: 'CUSTOM' } }, 'preferences.default_date_range'],
      [{ preferences: { worklist_columns: [{ id: 'notes', visible: true }] } }, 'worklist_columns.0.id'],
      [
        {
          preferences: {
            worklist_columns: [
              { id: 'status', visible: true },
              { id: 'status', visible: false },
            ],
          },
        },
        'each column may be listed only once',
      ],
      [{ preferences: { default_worklist_filters: { facility_ids: ['x'] } } }, 'facility_ids.0'],
      [{ preferences: { notifications: { status_toasts: 'yes' } } }, 'notifications.status_toasts'],
      [{ preferences: null }, 'preferences'],
      [{}, 'preferences'],
    ];
    for (const [body, named] of cases) {
      const response = await putOf(u.rad, u.rad, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json, JSON.stringify(body)).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
      expect(messageOf(response), JSON.stringify(body)).toContain(named);
    }
    expect(await preferenceRows()).toEqual(before);
  });

  it('refuses a body over the size limit with 413', async () => {
    const response = await server.request('PUT', `/api/v1/user/preference/${u.rad.id}`, {
      token: as(u.rad),
      rawBody: JSON.stringify({ preferences: { theme: 'light', padding: 'x'.repeat(20_000) } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(response.json).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
  });
});

describe('POST /user/preference (ORGANISATION scope)', () => {
  it('lets an admin set the organisation’s document, which every member inherits below their own', async () => {
    const response = await postOrg(u.admin, {
      scope: 'ORGANISATION',
      preferences: { theme: 'light', page_sizes: { reportFinder: 50 }, default_date_range: 'LAST_1_WEEK' },
    });
    expect(response.status, response.text).toBe(200);
    const body = response.json as TOrganisationPreferences;
    expect(body).toMatchObject({
      scope: 'ORGANISATION',
      organisation_fk: organisationId,
      preferences: { theme: 'light', page_sizes: { reportFinder: 50 }, default_date_range: 'LAST_1_WEEK' },
    });

    // A member with no document of their own: the organisation's values.
    const plain = await resolved(u.admin2);
    expect(plain.preferences).toMatchObject({
      theme: 'light',
      default_date_range: 'LAST_1_WEEK',
      page_sizes: { worklist: 10, reportFinder: 50 },
    });
    expect(plain.sources).toMatchObject({
      theme: 'ORGANISATION',
      page_sizes: 'ORGANISATION',
      quick_action: 'DEFAULT',
    });
    expect(plain.organisation).toEqual(body.preferences);

    // The transcriptionist's own choices win; the rest comes from the organisation, then the default.
    const own = await resolved(u.transcriptionist);
    expect(own.preferences).toMatchObject({
      theme: 'light',
      page_sizes: { worklist: 25, reportFinder: 50 },
      default_date_range: 'LAST_1_WEEK',
      notifications: { status_toasts: false },
    });
    expect(own.sources).toMatchObject({
      theme: 'USER',
      page_sizes: 'USER',
      default_date_range: 'ORGANISATION',
    });
    const dark = await saved(u.transcriptionist, { ...own.user, theme: 'dark' });
    expect(dark.preferences.theme).toBe('dark');

    // Another organisation is untouched.
    expect((await resolved(u.outsider)).preferences.theme).toBe('dark');

    const [audit] = await server.db
      .select()
      .from(t.auditEvents)
      .where(
        and(
          eq(t.auditEvents.action, 'preferences.organisation_update'),
          eq(t.auditEvents.actorUserId, u.admin.id),
        ),
      );
    expect(audit).toMatchObject({
      organisationId,
      entityType: 'organisation',
      entityId: organisationId,
      data: { fields: ['page_sizes', 'theme', 'default_date_range'] },
    });
  });

  it('replaces the organisation’s document on a second write (one row per organisation)', async () => {
    const response = await postOrg(u.admin2, {
      scope: 'ORGANISATION',
      preferences: { quick_action: 'view' },
    });
    expect(response.status).toBe(200);
    const rows = await server.db
      .select()
      .from(t.userPreferences)
      .where(eq(t.userPreferences.organisationId, organisationId));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.settings).toEqual({ quick_action: 'view' });
    expect((await resolved(u.rad)).preferences.theme).toBe('dark');
    expect((await resolved(u.rad)).sources.quick_action).toBe('ORGANISATION');
  });

  it('refuses everyone but an admin (403), and an admin of another organisation writes only their own', async () => {
    const before = await preferenceRows();
    for (const user of [u.facilityAdmin, u.rad, u.transcriptionist, u.referrer, u.outsiderRad]) {
      const response = await postOrg(user, { scope: 'ORGANISATION', preferences: { theme: 'light' } });
      expect(response.status, user.email).toBe(403);
    }
    expect(await preferenceRows()).toEqual(before);
    const response = await postOrg(u.outsider, { scope: 'ORGANISATION', preferences: { theme: 'light' } });
    expect(response.status).toBe(200);
    expect((response.json as TOrganisationPreferences).organisation_fk).toBe(u.outsider.organisationId);
    expect((await resolved(u.rad)).organisation).toEqual({ quick_action: 'view' });
  });

  it('refuses a scope other than ORGANISATION and bad documents, naming the field', async () => {
    const before = await preferenceRows();
    for (const [body, named] of [
      [{ scope: 'USER', preferences: {} }, 'scope: must be ORGANISATION'],
      [{ scope: 'DEFAULT', preferences: {} }, 'scope: must be ORGANISATION'],
      [{ preferences: {} }, 'scope'],
      [{ scope: 'ORGANISATION' }, 'preferences'],
      [{ scope: 'ORGANISATION', preferences: { wallpaper: 'x' } }, '"wallpaper" is not a known field'],
      [{ scope: 'ORGANISATION', preferences: { quick_action: 'delete' } }, 'preferences.quick_action'],
    ] as const) {
      const response = await postOrg(u.admin, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(messageOf(response), JSON.stringify(body)).toContain(named);
    }
    expect(await preferenceRows()).toEqual(before);
  });
});

describe('stored documents a later release no longer fully knows', () => {
  it('are answered with what still validates instead of failing', async () => {
    await server.db
      .update(t.userPreferences)
      .set({
        settings: {
          theme: 'sepia',
          default_viewer: 'horos',
          page_sizes: { worklist: 25, legacy: 3 },
          worklist_columns: [{ id: 'retired_column', visible: false }],
          removed_field: true,
        },
      })
      .where(eq(t.userPreferences.userId, u.rad.id));
    const body = await resolved(u.rad);
    expect(body.user).toEqual({ default_viewer: 'horos', page_sizes: { worklist: 25 } });
    expect(body.preferences).toMatchObject({ theme: 'dark', default_viewer: 'horos' });
  });
});
