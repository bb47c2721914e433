import type { TMarkNotificationsReadResponse, TNotificationList } from '@ris/domain';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let server: TTestServer;
type TUser = Awaited<ReturnType<typeof buildUser>>;
type TFacility = Awaited<ReturnType<typeof buildFacility>>;
const u = {} as Record<'admin' | 'rad' | 'rad2' | 'transcriptionist' | 'outsider', TUser>;
const tokens = new Map<string, string>();
const as = (user: TUser) => tokens.get(user.id) ?? '';
let f1: TFacility;
/** rad's notifications, oldest first: 25 of them, the first 5 already read. */
let radIds: string[] = [];
let rad2Id = '';

const list = (user: TUser, ownerId: string, query = '') =>
  server.request('GET', `/api/v1/notification/${ownerId}${query}`, { token: as(user) });
const markRead = (user: TUser, body: object) =>
  server.request('PUT', '/api/v1/notification/read', { token: as(user), body });
const readFlags = async (ids: string[]) => {
  const rows = await server.db
    .select({ id: t.notifications.id, isRead: t.notifications.isRead })
    .from(t.notifications)
    .where(inArray(t.notifications.id, ids));
  return Object.fromEntries(rows.map((row) => [row.id, row.isRead]));
};

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  f1 = await buildFacility(db, { organisationId: organisation.id });
  u.admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  u.rad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] });
  u.rad2 = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] });
  u.transcriptionist = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f1] });
  u.outsider = await buildUser(db, { role: 'ADMIN' });
  for (const user of Object.values(u)) tokens.set(user.id, await tokenFor(server, user));
  const start = Date.UTC(2025, 0, 1);
  const rows = await db
    .insert(t.notifications)
    .values(
      Array.from({ length: 25 }, (_, index) => ({
        organisationId: organisation.id,
        userId: u.rad.id,
        type: 'worklist-assigned',
        title: `Note ${index}`,
        body: index % 2 === 0 ? `Body ${index}` : null,
        data: { worklist_id: '00000000-0000-4000-8000-000000000000', n: index },
        isRead: index < 5,
        createdAt: new Date(start + index * 60_000),
      })),
    )
    .returning({ id: t.notifications.id, title: t.notifications.title });
  radIds = [...rows].sort((a, b) => Number(a.title.slice(5)) - Number(b.title.slice(5))).map((r) => r.id);
  const [other] = await db
    .insert(t.notifications)
    .values({ organisationId: organisation.id, userId: u.rad2.id, type: 'x', title: 'For rad2' })
    .returning({ id: t.notifications.id });
  rad2Id = other?.id ?? '';
});

afterAll(async () => {
  await server.close();
});

describe('GET /notification/{user_id}', () => {
  it('pages the caller’s own notifications newest first, with total and unread count', async () => {
    const first = await list(u.rad, u.rad.id);
    expect(first.status, first.text).toBe(200);
    const page = first.json as TNotificationList;
    expect(page).toMatchObject({ total: 25, unread_count: 20, limit: 20, offset: 0, next_offset: 20 });
    expect(page.previous_offset).toBeNull();
    expect(page.items).toHaveLength(20);
    expect(page.items.map((item) => item.title)).toEqual(
      Array.from({ length: 20 }, (_, index) => `Note ${24 - index}`),
    );
    expect(page.items[0]).toEqual({
      id: radIds[24],
      type: 'worklist-assigned',
      title: 'Note 24',
      body: 'Body 24',
      data: { worklist_id: '00000000-0000-4000-8000-000000000000', n: 24 },
      is_read: false,
      created_at: new Date(Date.UTC(2025, 0, 1) + 24 * 60_000).toISOString(),
    });

    const second = (await list(u.rad, u.rad.id, '?limit=20&offset=20')).json as TNotificationList;
    expect(second).toMatchObject({ total: 25, offset: 20, next_offset: null, previous_offset: 0 });
    expect(second.items.map((item) => [item.title, item.is_read])).toEqual([
      ['Note 4', true],
      ['Note 3', true],
      ['Note 2', true],
      ['Note 1', true],
      ['Note 0', true],
    ]);
    const past = (await list(u.rad, u.rad.id, '?offset=100')).json as TNotificationList;
    expect(past).toMatchObject({ items: [], total: 25, next_offset: null });
  });

  it('lists only unread ones with unread_only=true, and total counts those', async () => {
    const response = await list(u.rad, u.rad.id, '?unread_only=true&limit=5');
    expect(response.status, response.text).toBe(200);
    const page = response.json as TNotificationList;
    expect(page).toMatchObject({ total: 20, unread_count: 20, limit: 5, next_offset: 5 });
    expect(page.items.every((item) => !item.is_read)).toBe(true);
    const none = (await list(u.transcriptionist, u.transcriptionist.id)).json as TNotificationList;
    expect(none).toMatchObject({ items: [], total: 0, unread_count: 0, next_offset: null });
  });

  it('answers 404 for anyone else’s notifications: colleague, admin, another organisation', async () => {
    for (const caller of [u.rad2, u.admin, u.outsider]) {
      const response = await list(caller, u.rad.id);
      expect(response.status, `${caller.role} ${response.text}`).toBe(404);
      expect(response.text).not.toContain('Note');
    }
  });

  it('refuses bad query values naming the field', async () => {
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?offset=-1', 'offset'],
      ['?unread_only=maybe', 'unread_only'],
    ] as const) {
      const response = await list(u.rad, u.rad.id, query);
      expect(response.status, query).toBe(400);
      expect(response.text).toContain(field);
    }
    const badId = await list(u.rad, 'not-a-uuid');
    expect(badId.status).toBe(400);
    expect(badId.text).toContain('user_id');
  });
});

describe('PUT /notification/read', () => {
  it('marks the caller’s named notifications read and leaves another user’s untouched', async () => {
    const ids = [radIds[24] ?? '', radIds[23] ?? '', radIds[0] ?? '', rad2Id];
    const response = await markRead(u.rad, { notification_ids: ids });
    expect(response.status, response.text).toBe(200);
    const body = response.json as TMarkNotificationsReadResponse;
    // radIds[0] was read already; rad2's is not the caller's: neither is reported.
    expect(body.updated_ids.sort()).toEqual([radIds[24], radIds[23]].sort());
    expect(body.unread_count).toBe(18);
    expect(await readFlags([radIds[24] ?? '', radIds[23] ?? '', rad2Id])).toEqual({
      [radIds[24] ?? '']: true,
      [radIds[23] ?? '']: true,
      [rad2Id]: false,
    });
    const [stored] = await server.db
      .select()
      .from(t.notifications)
      .where(eq(t.notifications.id, radIds[24] ?? ''));
    expect(stored?.readAt).toBeInstanceOf(Date);
    const page = (await list(u.rad, u.rad.id, '?limit=1')).json as TNotificationList;
    expect(page).toMatchObject({ unread_count: 18, items: [{ id: radIds[24], is_read: true }] });

    const again = await markRead(u.rad, { notification_ids: [radIds[24]] });
    expect(again.json).toEqual({ updated_ids: [], unread_count: 18 });
  });

  it('changes nothing for callers of another user or organisation', async () => {
    const target = radIds[10] ?? '';
    for (const caller of [u.admin, u.rad2, u.outsider]) {
      const response = await markRead(caller, { notification_ids: [target] });
      expect(response.status, response.text).toBe(200);
      expect((response.json as TMarkNotificationsReadResponse).updated_ids).toEqual([]);
    }
    expect(await readFlags([target])).toEqual({ [target]: false });
  });

  it('refuses empty, oversized, malformed or missing ids naming notification_ids', async () => {
    const tooMany = Array.from({ length: 201 }, () => crypto.randomUUID());
    for (const body of [
      {},
      { notification_ids: [] },
      { notification_ids: tooMany },
      { notification_ids: ['x'] },
    ]) {
      const response = await markRead(u.rad, body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(response.text).toContain('notification_ids');
    }
    expect((await markRead(u.rad, { all: 'yes' })).status).toBe(400);
    expect(((await list(u.rad, u.rad.id)).json as TNotificationList).unread_count).toBe(18);
  });

  it('marks all of the caller’s notifications read with all: true, and only theirs', async () => {
    const response = await markRead(u.rad, { all: true });
    expect(response.status, response.text).toBe(200);
    const body = response.json as TMarkNotificationsReadResponse;
    expect(body.updated_ids).toHaveLength(18);
    expect(body.unread_count).toBe(0);
    expect(((await list(u.rad, u.rad.id, '?unread_only=true')).json as TNotificationList).total).toBe(0);
    expect(await readFlags([rad2Id])).toEqual({ [rad2Id]: false });
  });
});

describe('notifications from assignment', () => {
  it('lists the notification an assignment created, leading to the study', async () => {
    const study = await buildStudy(server.db, { facility: f1, status: 'TO_READ' });
    const assigned = await server.request('PUT', '/api/v1/worklist/assign/radiologist', {
      token: as(u.admin),
      body: { worklist_ids: [study.id], last_assigned_user_fk: u.rad2.id },
    });
    expect(assigned.status, assigned.text).toBe(200);
    const page = (await list(u.rad2, u.rad2.id, '?unread_only=true')).json as TNotificationList;
    expect(page.unread_count).toBe(2);
    expect(page.items[0]).toMatchObject({
      type: 'worklist-assigned',
      title: 'A study was assigned to you',
      is_read: false,
      data: { worklist_id: study.id, facility_fk: f1.id },
    });
  });
});
