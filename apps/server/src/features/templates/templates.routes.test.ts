import type { TTemplate, TTemplateListResponse } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let server: TTestServer;
type TUser = Awaited<ReturnType<typeof buildUser>>;
type TRow = typeof t.templates.$inferSelect;
const u = {} as Record<
  'admin' | 'facilityAdmin' | 'rad' | 'rad2' | 'many' | 'transcriptionist' | 'referrer' | 'outsider',
  TUser
>;
const tokens = new Map<string, string>();
const as = (user: TUser) => tokens.get(user.id) ?? '';
const tpl = {} as Record<
  'default' | 'organisation' | 'inactiveOrg' | 'rad' | 'radInactive' | 'rad2' | 'foreign',
  TRow
>;

const XSS = '<p onclick="steal()">Liver <img src="x" onerror="alert(1)">normal<script>alert(2)</script></p>';

async function insert(values: typeof t.templates.$inferInsert): Promise<TRow> {
  const [row] = await server.db.insert(t.templates).values(values).returning();
  if (!row) throw new Error('no template');
  return row;
}

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  const f1 = await buildFacility(db, { organisationId: organisation.id });
  u.admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  u.facilityAdmin = await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f1] });
  u.rad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] });
  u.rad2 = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] });
  u.many = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] });
  u.transcriptionist = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f1] });
  u.referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id });
  u.outsider = await buildUser(db, { role: 'ADMIN' });
  for (const user of Object.values(u)) tokens.set(user.id, await tokenFor(server, user));
  const orgId = organisation.id;
  tpl.default = await insert({
    scope: 'DEFAULT',
    name: 'Échographie abdomen',
    modalityGroup: 'USG',
    bodyPart: 'ABDOMEN',
  });
  tpl.organisation = await insert({
    scope: 'ORGANISATION',
    organisationId: orgId,
    name: 'CT brain shared',
    modalityGroup: 'CT',
    bodyPart: 'HEAD',
    createdBy: u.admin.id,
  });
  tpl.inactiveOrg = await insert({
    scope: 'ORGANISATION',
    organisationId: orgId,
    name: 'Old shared',
    status: 'INACTIVE',
  });
  const own = { scope: 'USER' as const, organisationId: orgId, ownerUserId: u.rad.id, createdBy: u.rad.id };
  tpl.rad = await insert({ ...own, name: 'MRI knee mine', modalityGroup: 'MRI', bodyPart: 'Knee' });
  tpl.radInactive = await insert({ ...own, name: 'Retired mine', status: 'INACTIVE' });
  tpl.rad2 = await insert({
    scope: 'USER',
    organisationId: orgId,
    ownerUserId: u.rad2.id,
    name: 'Chest rad2',
  });
  tpl.foreign = await insert({
    scope: 'ORGANISATION',
    organisationId: u.outsider.organisationId,
    name: 'Foreign shared',
  });
  for (let i = 0; i < 12; i += 1) {
    await insert({
      scope: 'USER',
      organisationId: orgId,
      ownerUserId: u.many.id,
      name: `Many ${String(i).padStart(2, '0')}`,
    });
  }
});

afterAll(async () => {
  await server.close();
});

const list = (user: TUser, query = '') =>
  server.request('GET', `/api/v1/radiologist/templates${query}`, { token: as(user) });
const names = async (user: TUser, query = '') => {
  const response = await list(user, query);
  expect(response.status, response.text).toBe(200);
  return (response.json as TTemplateListResponse).items.map((item) => item.name);
};
const getOne = (user: TUser, id: string) =>
  server.request('GET', `/api/v1/radiologist/template/${id}`, { token: as(user) });
const save = (user: TUser, body: object) =>
  server.request('POST', '/api/v1/radiologist/template', { token: as(user), body });
const remove = (user: TUser, id: string) =>
  server.request('DELETE', `/api/v1/radiologist/template/${id}`, { token: as(user) });
const stored = async (id: string) =>
  (await server.db.select().from(t.templates).where(eq(t.templates.id, id)))[0];

describe('GET /radiologist/templates', () => {
  it('purpose=manage: a non-admin lists only their own templates, an admin the organisation’s and default ones', async () => {
    expect(await names(u.rad)).toEqual(['MRI knee mine', 'Retired mine']);
    expect(await names(u.rad2, '?purpose=manage')).toEqual(['Chest rad2']);
    expect(await names(u.transcriptionist)).toEqual([]);
    expect(await names(u.facilityAdmin)).toEqual([]);
    const admin = await list(u.admin, '?limit=100');
    const body = admin.json as TTemplateListResponse;
    expect(body.items.map((item) => item.name)).toEqual([
      'Chest rad2',
      'CT brain shared',
      'Échographie abdomen',
      ...Array.from({ length: 12 }, (_, i) => `Many ${String(i).padStart(2, '0')}`),
      'MRI knee mine',
      'Old shared',
      'Retired mine',
    ]);
    expect(body.total).toBe(18);
    expect(await names(u.outsider)).toEqual(['Échographie abdomen', 'Foreign shared']);
  });

  it('purpose=insert: own, organisation and default templates, active ones only', async () => {
    expect(await names(u.rad, '?purpose=insert')).toEqual([
      'CT brain shared',
      'Échographie abdomen',
      'MRI knee mine',
    ]);
    expect(await names(u.rad2, '?purpose=insert')).toEqual([
      'Chest rad2',
      'CT brain shared',
      'Échographie abdomen',
    ]);
    // An admin's picker offers the shared ones, not everyone's own.
    expect(await names(u.admin, '?purpose=insert')).toEqual(['CT brain shared', 'Échographie abdomen']);
    expect(await names(u.transcriptionist, '?purpose=insert')).toEqual([
      'CT brain shared',
      'Échographie abdomen',
    ]);
    expect(await names(u.outsider, '?purpose=insert')).toEqual(['Échographie abdomen', 'Foreign shared']);
  });

  it('pages by 10 by default, ordered by name', async () => {
    const first = (await list(u.many)).json as TTemplateListResponse;
    expect(first).toMatchObject({ total: 12, limit: 10, offset: 0, next_offset: 10, previous_offset: null });
    expect(first.items).toHaveLength(10);
    expect(first.items[0]).toMatchObject({ name: 'Many 00', scope: 'USER', owner_user_id: u.many.id });
    const second = (await list(u.many, '?offset=10')).json as TTemplateListResponse;
    expect(second.items.map((item) => item.name)).toEqual(['Many 10', 'Many 11']);
    expect(second).toMatchObject({ next_offset: null, previous_offset: 0 });
  });

  it('filters by search (case- and accent-insensitive), name, modality, body part, scopes and owners', async () => {
    expect(await names(u.rad, '?purpose=insert&search=ECHO')).toEqual(['Échographie abdomen']);
    expect(await names(u.rad, '?purpose=insert&search=knee')).toEqual(['MRI knee mine']);
    expect(await names(u.rad, '?purpose=insert&search=head')).toEqual(['CT brain shared']);
    expect(await names(u.rad, '?purpose=insert&name=%C3%A9chographie')).toEqual(['Échographie abdomen']);
    expect(await names(u.rad, '?purpose=insert&modality=CT')).toEqual(['CT brain shared']);
    expect(await names(u.rad, '?purpose=insert&body_part=KNEE')).toEqual(['MRI knee mine']);
    expect(await names(u.rad, '?purpose=insert&scopes=DEFAULT&scopes=ORGANISATION')).toEqual([
      'CT brain shared',
      'Échographie abdomen',
    ]);
    expect(await names(u.rad, '?purpose=insert&search=100%25')).toEqual([]);
    expect(await names(u.admin, `?by_user_ids=${u.rad.id}`)).toEqual(['MRI knee mine', 'Retired mine']);
    // by_user_ids filters within the caller's scope: another user's templates stay hidden.
    expect(await names(u.rad, `?by_user_ids=${u.rad2.id}`)).toEqual([]);
    expect(await names(u.outsider, `?by_user_ids=${u.rad.id}`)).toEqual([]);
    expect(await names(u.rad, `?organisation_id=${u.rad.organisationId}`)).toEqual([
      'MRI knee mine',
      'Retired mine',
    ]);
  });

  it('refuses another organisation’s id, bad parameters and referring physicians', async () => {
    const foreign = await list(u.admin, `?organisation_id=${u.outsider.organisationId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.text).toContain('organisation_id');
    const purpose = await list(u.rad, '?purpose=all');
    expect(purpose.status).toBe(400);
    expect(purpose.text).toContain('purpose');
    expect((await list(u.rad, '?modality=PET')).text).toContain('modality');
    expect((await list(u.rad, '?limit=0')).status).toBe(400);
    expect((await list(u.referrer)).status).toBe(403);
    expect((await list(u.referrer, '?purpose=insert')).status).toBe(403);
  });
});

describe('GET /radiologist/template/{id}', () => {
  it('opens default, own and organisation templates; an admin any of the organisation; else 404', async () => {
    for (const row of [tpl.default, tpl.organisation, tpl.rad]) {
      const response = await getOne(u.rad, row.id);
      expect(response.status, `${row.name}: ${response.text}`).toBe(200);
    }
    expect((await getOne(u.rad, tpl.organisation.id)).json).toMatchObject({
      id: tpl.organisation.id,
      scope: 'ORGANISATION',
      modality: 'CT',
      body_part: 'HEAD',
      created_by: u.admin.id,
      created_by_display_name: u.admin.displayName,
    });
    expect((await getOne(u.rad2, tpl.rad.id)).status).toBe(404);
    expect((await getOne(u.transcriptionist, tpl.rad.id)).status).toBe(404);
    expect((await getOne(u.admin, tpl.rad.id)).status).toBe(200);
    expect((await getOne(u.rad, tpl.foreign.id)).status).toBe(404);
    expect((await getOne(u.outsider, tpl.organisation.id)).status).toBe(404);
    expect((await getOne(u.outsider, tpl.rad.id)).status).toBe(404);
    expect((await getOne(u.outsider, tpl.default.id)).status).toBe(200);
    // No existence leak to a referring physician: 404 for a template that exists and for one that does not.
    expect((await getOne(u.referrer, tpl.organisation.id)).status).toBe(404);
    expect((await getOne(u.referrer, tpl.default.id)).status).toBe(404);
    expect((await getOne(u.referrer, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await getOne(u.rad, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await getOne(u.rad, 'nope')).status).toBe(400);
  });
});

describe('POST /radiologist/template', () => {
  it('creates USER templates for staff with sanitised content, ORGANISATION ones for admins only', async () => {
    const created = await save(u.rad, {
      name: '  US thyroid ',
      modality: 'USG',
      body_part: 'Neck',
      content: XSS,
    });
    expect(created.status, created.text).toBe(201);
    const template = created.json as TTemplate;
    expect(template).toMatchObject({
      name: 'US thyroid',
      scope: 'USER',
      status: 'ACTIVE',
      owner_user_id: u.rad.id,
      organisation_id: u.rad.organisationId,
      created_by: u.rad.id,
      created_by_display_name: u.rad.displayName,
    });
    expect(template.content).toContain('normal');
    expect(template.content).not.toMatch(/script|onerror|onclick|<img|alert/);
    expect((await stored(template.id))?.content).toBe(template.content);

    for (const user of [u.transcriptionist, u.facilityAdmin]) {
      expect((await save(user, { name: 'Mine', content: '<p>x</p>' })).status).toBe(201);
    }
    const shared = await save(u.rad, { name: 'Shared attempt', scope: 'ORGANISATION', content: '<p>x</p>' });
    expect(shared.status).toBe(403);
    expect(shared.text).toContain('scope');
    const byAdmin = await save(u.admin, {
      name: 'Shared by admin',
      scope: 'ORGANISATION',
      content: '<p>x</p>',
    });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.json).toMatchObject({
      scope: 'ORGANISATION',
      owner_user_id: null,
      organisation_id: u.admin.organisationId,
    });
    const defaultScope = await save(u.admin, { name: 'Product', scope: 'DEFAULT', content: '<p>x</p>' });
    expect(defaultScope.status).toBe(400);
    expect(defaultScope.text).toContain('scope');
    expect((await save(u.referrer, { name: 'Referrer', content: '<p>x</p>' })).status).toBe(403);
    const spoof = await save(u.rad, { name: 'Spoof', content: '', by_user_id: u.rad2.id });
    expect(spoof.status).toBe(403);
    expect(spoof.text).toContain('by_user_id');
    const blank = await save(u.rad, { name: '   ', content: '<p>x</p>' });
    expect(blank.status).toBe(400);
    expect(blank.text).toContain('name');
    expect((await save(u.rad, { name: 'No content' })).text).toContain('content');
    const names = (await server.db.select({ name: t.templates.name }).from(t.templates)).map(
      (row) => row.name,
    );
    expect(names).not.toContain('Shared attempt');
    expect(names).not.toContain('Referrer');
    expect(names).not.toContain('Spoof');
  });

  it('updates what the caller may change, keeping scope and status when left out', async () => {
    const updated = await save(u.rad, { id: tpl.radInactive.id, name: 'Retired, edited', content: XSS });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json).toMatchObject({
      id: tpl.radInactive.id,
      scope: 'USER',
      status: 'INACTIVE',
      owner_user_id: u.rad.id,
    });
    expect((updated.json as TTemplate).content).not.toMatch(/script|onerror|onclick/);
    const cleared = await save(u.rad, {
      id: tpl.rad.id,
      name: 'MRI knee mine',
      content: '<p>k</p>',
      modality: null,
    });
    expect(cleared.json).toMatchObject({ modality: null, body_part: 'Knee' });
    await save(u.rad, { id: tpl.rad.id, name: 'MRI knee mine', content: '<p>k</p>', modality: 'MRI' });

    // An admin edits someone's USER template (it stays theirs) and an ORGANISATION one (stays shared).
    const byAdmin = await save(u.admin, { id: tpl.rad2.id, name: 'Chest rad2', content: '<p>admin</p>' });
    expect(byAdmin.json).toMatchObject({ scope: 'USER', owner_user_id: u.rad2.id });
    const sharedByAdmin = await save(u.admin, {
      id: tpl.organisation.id,
      name: 'CT brain shared',
      content: '<p>v2</p>',
    });
    expect(sharedByAdmin.json).toMatchObject({
      scope: 'ORGANISATION',
      owner_user_id: null,
      content: '<p>v2</p>',
    });
  });

  it('refuses changes to templates the caller may not change, leaving them unchanged', async () => {
    const before = await server.db.select().from(t.templates);
    const attempt = (user: TUser, row: TRow, extra: object = {}) =>
      save(user, { id: row.id, name: 'Hijacked', content: '<p>hijacked</p>', ...extra });
    expect((await attempt(u.rad2, tpl.rad)).status).toBe(404);
    expect((await attempt(u.transcriptionist, tpl.rad)).status).toBe(404);
    expect((await attempt(u.outsider, tpl.rad)).status).toBe(404);
    expect((await attempt(u.outsider, tpl.organisation)).status).toBe(404);
    expect((await attempt(u.rad, tpl.foreign)).status).toBe(404);
    expect((await attempt(u.rad, tpl.organisation)).status).toBe(403);
    expect((await attempt(u.facilityAdmin, tpl.organisation)).status).toBe(403);
    const defaultByRad = await attempt(u.rad, tpl.default);
    expect(defaultByRad.status).toBe(403);
    expect(defaultByRad.text).toContain('Default templates are read-only');
    expect((await attempt(u.admin, tpl.default)).status).toBe(403);
    expect((await attempt(u.outsider, tpl.default)).status).toBe(403);
    const promote = await attempt(u.rad, tpl.rad, { scope: 'ORGANISATION' });
    expect(promote.status).toBe(403);
    expect(promote.text).toContain('scope');
    expect((await attempt(u.referrer, tpl.organisation)).status).toBe(403);
    expect(await server.db.select().from(t.templates)).toEqual(before);
  });
});

describe('DELETE /radiologist/template/{id}', () => {
  it('lets the owner or an admin delete USER templates, admins ORGANISATION ones, nobody DEFAULT ones', async () => {
    const before = await server.db.select().from(t.templates);
    expect((await remove(u.outsider, tpl.rad.id)).status).toBe(404);
    expect((await remove(u.outsider, tpl.organisation.id)).status).toBe(404);
    expect((await remove(u.rad2, tpl.rad.id)).status).toBe(404);
    expect((await remove(u.rad, tpl.organisation.id)).status).toBe(403);
    expect((await remove(u.referrer, tpl.organisation.id)).status).toBe(404);
    expect((await remove(u.referrer, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await remove(u.rad, tpl.default.id)).status).toBe(403);
    expect((await remove(u.admin, tpl.default.id)).status).toBe(403);
    expect(await server.db.select().from(t.templates)).toEqual(before);

    const own = await remove(u.rad, tpl.rad.id);
    expect(own.status, own.text).toBe(200);
    expect(own.json).toEqual({ id: tpl.rad.id, deleted: true });
    expect(await stored(tpl.rad.id)).toBeUndefined();
    expect((await remove(u.rad, tpl.rad.id)).status).toBe(404);
    expect((await remove(u.admin, tpl.rad2.id)).status).toBe(200);
    expect((await remove(u.admin, tpl.inactiveOrg.id)).status).toBe(200);
    expect(await stored(tpl.inactiveOrg.id)).toBeUndefined();
    expect(await stored(tpl.default.id)).toBeDefined();
  });
});

describe('ZTemplate.abilities', () => {
  it('says who may change each template: never a default one, organisation ones admins, own ones the owner', async () => {
    const orgId = u.admin.organisationId ?? '';
    const shared = await insert({ scope: 'ORGANISATION', organisationId: orgId, name: 'Abilities shared' });
    const own = await insert({
      scope: 'USER',
      organisationId: orgId,
      ownerUserId: u.rad.id,
      name: 'Abilities own',
    });
    const changeOf = async (user: TUser, id: string) => {
      const response = await getOne(user, id);
      expect(response.status, response.text).toBe(200);
      return (response.json as TTemplate).abilities.change;
    };
    expect(await changeOf(u.rad, tpl.default.id)).toBe(false);
    expect(await changeOf(u.admin, tpl.default.id)).toBe(false);
    expect(await changeOf(u.rad, shared.id)).toBe(false);
    expect(await changeOf(u.admin, shared.id)).toBe(true);
    expect(await changeOf(u.rad, own.id)).toBe(true);
    expect(await changeOf(u.admin, own.id)).toBe(true);
    const picker = (await list(u.transcriptionist, '?purpose=insert&limit=100'))
      .json as TTemplateListResponse;
    expect(picker.items.length).toBeGreaterThan(0);
    // The picker lists their own (theirs to change), and organisation and default ones (not theirs).
    for (const item of picker.items) expect(item.abilities.change).toBe(item.scope === 'USER');
    const saved = await save(u.rad, { name: 'Abilities saved', content: '<p>x</p>' });
    expect((saved.json as TTemplate).abilities).toEqual({ change: true });
  });
});
