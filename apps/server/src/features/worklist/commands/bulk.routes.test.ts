import type { TWorklistItem } from '@ris/domain';
import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../../db/schema/index.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';

let server: TTestServer;
type TFacility = Awaited<ReturnType<typeof buildFacility>>;
type TUser = Awaited<ReturnType<typeof buildUser>>;
let f1: TFacility;
let f2: TFacility;
let f3: TFacility;
const u = {} as Record<
  | 'admin'
  | 'admin2'
  | 'facilityAdmin'
  | 'transcriptionist'
  | 'rad'
  | 'rad2'
  | 'inactive'
  | 'outsider'
  | 'otherRad',
  TUser
>;
const tokens = new Map<string, string>();
const as = (user: TUser) => tokens.get(user.id) ?? '';

type TBulk = { updated_worklists: TWorklistItem[]; skipped: { id: string; reason: string }[] };
const put = (path: string, user: TUser, body: object) =>
  server.request('PUT', `/api/v1/worklist/${path}`, { token: as(user), body });
const rows = (ids: string[]) =>
  server.db.select().from(t.studies).where(inArray(t.studies.id, ids)).orderBy(asc(t.studies.id));
const historyOf = (id: string) =>
  server.db.select().from(t.studyStatusHistory).where(eq(t.studyStatusHistory.studyId, id));

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const organisation = await buildOrganisation(db);
  f1 = await buildFacility(db, { organisationId: organisation.id });
  f2 = await buildFacility(db, { organisationId: organisation.id });
  f3 = await buildFacility(db, { organisationId: organisation.id });
  const elsewhere = await buildFacility(db);
  u.admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  u.admin2 = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  u.facilityAdmin = await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f1] });
  u.transcriptionist = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f1] });
  u.rad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1, f2] });
  u.rad2 = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1, f2, f3] });
  u.inactive = await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1], status: 'INACTIVE' });
  u.outsider = await buildUser(db, { role: 'ADMIN', organisationId: elsewhere.organisationId });
  u.otherRad = await buildUser(db, { role: 'RADIOLOGIST', facilities: [elsewhere] });
  for (const user of Object.values(u)) {
    if (user.status === 'ACTIVE') tokens.set(user.id, await tokenFor(server, user));
  }
});

afterAll(async () => {
  await server.close();
});

describe('PUT /worklist/assign/radiologist', () => {
  it('assigns TO_READ items, skips the others with a reason, notifies and records history', async () => {
    const toRead = await buildStudy(server.db, { facility: f1, status: 'TO_READ' });
    const ordered = await buildStudy(server.db, { facility: f1, status: 'ORDERED' });
    const f3Study = await buildStudy(server.db, { facility: f3, status: 'TO_READ' });
    const events: string[] = [];
    const off = server.app.events.on('notification.created', (e) => events.push(e.userId));
    const response = await put('assign/radiologist', u.admin, {
      worklist_ids: [toRead.id, ordered.id, f3Study.id],
      last_assigned_user_fk: u.rad.id,
      by_user_id: u.admin.id,
    });
    off();
    expect(response.status, response.text).toBe(200);
    const body = response.json as TBulk;
    expect(body.updated_worklists).toMatchObject([
      {
        id: toRead.id,
        status: 'ASSIGNED',
        last_assigned_user_fk: u.rad.id,
        last_assigned_user_display_name: u.rad.displayName,
      },
    ]);
    expect(body.skipped.map((s) => s.id).sort()).toEqual([ordered.id, f3Study.id].sort());
    expect(body.skipped.find((s) => s.id === f3Study.id)?.reason).toMatch(/facility/);
    expect(body.skipped.find((s) => s.id === ordered.id)?.reason).toMatch(/ordered/);
    expect(events).toEqual([u.rad.id]);
    const notes = await server.db.select().from(t.notifications).where(eq(t.notifications.userId, u.rad.id));
    expect(notes).toHaveLength(1);
    expect(await historyOf(toRead.id)).toMatchObject([
      { fromStatus: 'TO_READ', toStatus: 'ASSIGNED', changedBy: u.admin.id },
    ]);
    expect((await rows([ordered.id]))[0]?.status).toBe('ORDERED');
  });

  it('gives one consistent result when two admins assign the same items at once', async () => {
    const a = await buildStudy(server.db, { facility: f1, status: 'TO_READ' });
    const b = await buildStudy(server.db, { facility: f2, status: 'TO_READ' });
    const [first, second] = await Promise.all([
      put('assign/radiologist', u.admin, { worklist_ids: [a.id, b.id], last_assigned_user_fk: u.rad.id }),
      put('assign/radiologist', u.admin2, { worklist_ids: [b.id, a.id], last_assigned_user_fk: u.rad2.id }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const after = await rows([a.id, b.id]);
    expect(after.every((row) => row.status === 'ASSIGNED')).toBe(true);
    // Both requests apply in some order; whichever ran last holds both items (never a mix).
    const assignees = new Set(after.map((row) => row.lastAssignedUserId));
    expect(assignees.size).toBe(1);
    for (const id of [a.id, b.id]) {
      const history = await historyOf(id);
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ fromStatus: 'TO_READ', toStatus: 'ASSIGNED' });
    }
  });

  it('refuses inactive, foreign and unknown radiologists, empty ids, foreign ids and spoofing; nothing changes', async () => {
    const study = await buildStudy(server.db, { facility: f1, status: 'TO_READ' });
    const foreign = await buildStudy(server.db, {
      facility: await buildFacility(server.db),
      status: 'TO_READ',
    });
    const inactive = await put('assign/radiologist', u.admin, {
      worklist_ids: [study.id],
      last_assigned_user_fk: u.inactive.id,
    });
    expect(inactive.status).toBe(422);
    expect(inactive.text).toContain('last_assigned_user_fk');
    const otherOrgRad = await put('assign/radiologist', u.admin, {
      worklist_ids: [study.id],
      last_assigned_user_fk: u.otherRad.id,
    });
    expect(otherOrgRad.status).toBe(404);
    const notRad = await put('assign/radiologist', u.admin, {
      worklist_ids: [study.id],
      last_assigned_user_fk: u.transcriptionist.id,
    });
    expect(notRad.status).toBe(404);
    const empty = await put('assign/radiologist', u.admin, {
      worklist_ids: [],
      last_assigned_user_fk: u.rad.id,
    });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('worklist_ids');
    const mixed = await put('assign/radiologist', u.admin, {
      worklist_ids: [study.id, foreign.id],
      last_assigned_user_fk: u.rad.id,
    });
    expect(mixed.status).toBe(404);
    expect(mixed.text).toContain(foreign.id);
    const byOutsider = await put('assign/radiologist', u.outsider, {
      worklist_ids: [study.id],
      last_assigned_user_fk: u.rad.id,
    });
    expect(byOutsider.status).toBe(404);
    const spoof = await put('assign/radiologist', u.facilityAdmin, {
      worklist_ids: [study.id],
      last_assigned_user_fk: u.rad.id,
      by_user_id: u.admin.id,
    });
    expect(spoof.status).toBe(403);
    expect(spoof.text).toContain('by_user_id');
    expect(await rows([study.id])).toMatchObject([{ status: 'TO_READ', lastAssignedUserId: null }]);
    expect(await historyOf(study.id)).toEqual([]);
  });

  it('keeps a facility admin to their facility and lets a radiologist claim only for themselves', async () => {
    const mine = await buildStudy(server.db, { facility: f1, status: 'TO_READ' });
    const theirs = await buildStudy(server.db, { facility: f2, status: 'TO_READ' });
    const fa = await put('assign/radiologist', u.facilityAdmin, {
      worklist_ids: [mine.id, theirs.id],
      last_assigned_user_fk: u.rad.id,
    });
    expect(fa.status).toBe(404);
    const other = await put('assign/radiologist', u.rad, {
      worklist_ids: [mine.id],
      last_assigned_user_fk: u.rad2.id,
    });
    expect((other.json as TBulk).skipped).toHaveLength(1);
    const claim = await put('assign/radiologist', u.rad, {
      worklist_ids: [mine.id],
      last_assigned_user_fk: u.rad.id,
    });
    expect((claim.json as TBulk).updated_worklists).toMatchObject([{ id: mine.id, status: 'ASSIGNED' }]);
    const transcriptionist = await put('assign/radiologist', u.transcriptionist, {
      worklist_ids: [theirs.id],
      last_assigned_user_fk: u.rad.id,
    });
    expect(transcriptionist.status).toBe(404);
  });
});

describe('PUT /worklist/unassign/radiologist', () => {
  it('returns ASSIGNED and empty DRAFTED items to TO_READ, refusing those with report content', async () => {
    const assigned = await buildStudy(server.db, {
      facility: f1,
      status: 'ASSIGNED',
      lastAssignedUserId: u.rad.id,
    });
    const written = await buildStudy(server.db, {
      facility: f1,
      status: 'DRAFTED',
      lastAssignedUserId: u.rad.id,
    });
    const final = await buildStudy(server.db, {
      facility: f1,
      status: 'FINAL',
      lastAssignedUserId: u.rad.id,
    });
    await server.db.insert(t.reports).values({
      studyId: written.id,
      organisationId: written.organisationId,
      content: '<p>Normal</p>',
      contentText: 'Normal',
    });
    const response = await put('unassign/radiologist', u.facilityAdmin, {
      worklist_ids: [assigned.id, written.id, final.id],
    });
    expect(response.status, response.text).toBe(200);
    const body = response.json as TBulk;
    expect(body.updated_worklists).toMatchObject([
      { id: assigned.id, status: 'TO_READ', last_assigned_user_fk: null },
    ]);
    expect(body.skipped.find((s) => s.id === written.id)?.reason).toMatch(/report content/);
    expect(body.skipped.find((s) => s.id === final.id)?.reason).toMatch(/final/);
    expect(await rows([written.id])).toMatchObject([{ status: 'DRAFTED', lastAssignedUserId: u.rad.id }]);
  });

  it('lets the assigned radiologist hand back their own item only', async () => {
    const own = await buildStudy(server.db, {
      facility: f1,
      status: 'ASSIGNED',
      lastAssignedUserId: u.rad.id,
    });
    const others = await buildStudy(server.db, {
      facility: f1,
      status: 'ASSIGNED',
      lastAssignedUserId: u.rad2.id,
    });
    const body = (await put('unassign/radiologist', u.rad, { worklist_ids: [own.id, others.id] }))
      .json as TBulk;
    expect(body.updated_worklists.map((i) => i.id)).toEqual([own.id]);
    expect(body.skipped.map((s) => s.id)).toEqual([others.id]);
  });
});

describe('PUT /worklist/assign|unassign/priority-tag', () => {
  it('sets and clears priority, skipping FINAL items and unknown tags', async () => {
    const open = await buildStudy(server.db, { facility: f1, status: 'TO_READ' });
    const final = await buildStudy(server.db, { facility: f1, status: 'FINAL' });
    const set = await put('assign/priority-tag', u.transcriptionist, {
      worklist_ids: [open.id, final.id],
      priority_tag: 'URGENT',
    });
    expect(set.status, set.text).toBe(200);
    expect((set.json as TBulk).updated_worklists).toMatchObject([{ id: open.id, priority_tag: 'URGENT' }]);
    expect((set.json as TBulk).skipped.map((s) => s.id)).toEqual([final.id]);
    const bad = await put('assign/priority-tag', u.admin, {
      worklist_ids: [open.id],
      priority_tag: 'SOMEDAY',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('priority_tag');
    const cleared = await put('unassign/priority-tag', u.admin, { worklist_ids: [open.id] });
    expect((cleared.json as TBulk).updated_worklists).toMatchObject([{ priority_tag: null }]);
    const radiologist = await put('assign/priority-tag', u.rad, {
      worklist_ids: [open.id],
      priority_tag: 'MLC',
    });
    expect((radiologist.json as TBulk).skipped).toHaveLength(1);
    expect(await rows([open.id])).toMatchObject([{ priorityTag: null }]);
  });
});
