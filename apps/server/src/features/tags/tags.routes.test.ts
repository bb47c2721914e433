import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let server: TTestServer;
type TUser = Awaited<ReturnType<typeof buildUser>>;
type TStudy = Awaited<ReturnType<typeof buildStudy>>;
const u = {} as Record<'admin' | 'rad' | 'rad2' | 'referrer' | 'outsider', TUser>;
const tokens = new Map<string, string>();
const as = (user: TUser) => tokens.get(user.id) ?? '';
let study: TStudy;
let otherFacilityStudy: TStudy;
let defaultTagId: string;

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  const f1 = await buildFacility(db, { organisationId: organisation.id });
  const f2 = await buildFacility(db, { organisationId: organisation.id });
  u.admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  u.rad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] });
  u.rad2 = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] });
  u.referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id });
  u.outsider = await buildUser(db, { role: 'ADMIN' });
  for (const user of Object.values(u)) tokens.set(user.id, await tokenFor(server, user));
  study = await buildStudy(db, { facility: f1, status: 'TO_READ' });
  otherFacilityStudy = await buildStudy(db, { facility: f2, status: 'TO_READ' });
  const [tag] = await db
    .insert(t.tags)
    .values({ scope: 'DEFAULT', name: `Teaching ${Date.now()}` })
    .returning();
  defaultTagId = tag?.id ?? '';
});

afterAll(async () => {
  await server.close();
});

const createTag = (user: TUser, body: object) =>
  server.request('POST', '/api/v1/worklist/tag', { token: as(user), body });

describe('tags', () => {
  it('creates USER tags for staff, ORGANISATION tags for admins, refuses duplicates and spoofing', async () => {
    const own = await createTag(u.rad, { name: 'Follow me', by_user_fk: u.rad.id });
    expect(own.status, own.text).toBe(201);
    expect(own.json).toMatchObject({ type: 'USER', by_user_fk: u.rad.id });
    expect((await createTag(u.rad, { name: 'follow ME' })).status).toBe(409);
    expect((await createTag(u.rad, { name: 'Shared', type: 'ORGANISATION' })).status).toBe(403);
    expect((await createTag(u.admin, { name: 'Shared', type: 'ORGANISATION' })).status).toBe(201);
    expect((await createTag(u.referrer, { name: 'Mine' })).status).toBe(403);
    const spoof = await createTag(u.rad, { name: 'Spoof', by_user_fk: u.rad2.id });
    expect(spoof.status).toBe(403);
    expect(spoof.text).toContain('by_user_fk');
    const empty = await createTag(u.rad, { name: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('name');
  });

  it('lists the organisation’s and the user’s tags apart from the default ones', async () => {
    const list = await server.request('GET', '/api/v1/worklist/tag/all?search=fOLLow', { token: as(u.rad) });
    expect(list.status, list.text).toBe(200);
    expect(list.json).toMatchObject({ tags: [{ name: 'Follow me' }], default_tags: [] });
    const all = await server.request('GET', '/api/v1/worklist/tag/all', { token: as(u.rad2) });
    const body = all.json as { tags: { name: string }[]; default_tags: { id: string }[] };
    expect(body.tags.map((tag) => tag.name)).toEqual(['Shared']);
    expect(body.default_tags.map((tag) => tag.id)).toEqual([defaultTagId]);
    const typed = await server.request('GET', '/api/v1/worklist/tag/all?types=DEFAULT', { token: as(u.rad) });
    expect((typed.json as { tags: unknown[] }).tags).toEqual([]);
    const otherUser = await server.request('GET', `/api/v1/worklist/tag/all?user_id=${u.rad.id}`, {
      token: as(u.rad2),
    });
    expect(otherUser.status).toBe(403);
    const otherOrg = await server.request(
      'GET',
      `/api/v1/worklist/tag/all?organization_id=${u.outsider.organisationId}`,
      { token: as(u.rad) },
    );
    expect(otherOrg.status).toBe(404);
  });

  it('tags visible studies, lists and removes worklist tags within scope', async () => {
    const many = (user: TUser, body: object) =>
      server.request('POST', '/api/v1/worklist/worklist-tag/many', { token: as(user), body });
    const hidden = await many(u.rad, {
      worklist_ids: [study.id, otherFacilityStudy.id],
      tag_ids: [defaultTagId],
    });
    expect(hidden.status).toBe(404);
    expect(hidden.text).toContain(otherFacilityStudy.id);
    const empty = await many(u.rad, { worklist_ids: [], tag_ids: [defaultTagId] });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('worklist_ids');
    const created = await many(u.rad, { worklist_ids: [study.id], tag_ids: [defaultTagId] });
    expect(created.status, created.text).toBe(201);
    const [item] = (created.json as { items: { id: string; worklist_id: string }[] }).items;
    expect(item?.worklist_id).toBe(study.id);
    expect((await many(u.rad, { worklist_ids: [study.id], tag_ids: [defaultTagId] })).status).toBe(201);
    const listed = await server.request('GET', `/api/v1/worklist/worklist-tags/${u.rad.id}`, {
      token: as(u.rad),
    });
    expect((listed.json as { items: unknown[] }).items).toHaveLength(1);
    expect(
      (await server.request('GET', `/api/v1/worklist/worklist-tags/${u.rad.id}`, { token: as(u.rad2) }))
        .status,
    ).toBe(403);
    expect(
      (await server.request('GET', `/api/v1/worklist/worklist-tags/${u.rad.id}`, { token: as(u.outsider) }))
        .status,
    ).toBe(404);
    const remove = (user: TUser) =>
      server.request('DELETE', `/api/v1/worklist/worklist-tag/${item?.id}`, { token: as(user) });
    expect((await remove(u.outsider)).status).toBe(404);
    expect((await remove(u.rad2)).status).toBe(403);
    expect((await remove(u.rad)).status).toBe(200);
    expect(await server.db.select().from(t.worklistTags).where(eq(t.worklistTags.studyId, study.id))).toEqual(
      [],
    );
  });
});
