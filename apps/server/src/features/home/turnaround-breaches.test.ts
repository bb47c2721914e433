import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/rows.ts';
import * as t from '../../db/schema/index.ts';
import { buildFacility, buildStudy, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import {
  ensureBreachChain,
  notifyTurnaroundBreaches,
  turnaroundBreachHandler,
  TURNAROUND_BREACH_QUEUE,
} from './turnaround-breaches.ts';

const NOW = new Date('2026-11-26T12:00:00.000Z');
let server: TTestServer;
const announced: { userId: string; type: string }[] = [];

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  server.app.events.on('notification.created', ({ userId, notification }) =>
    announced.push({ userId, type: notification.type }),
  );
});
afterAll(async () => {
  await server.close();
});

async function world() {
  const f1 = await buildFacility(server.db);
  const f2 = await buildFacility(server.db, { organisationId: f1.organisationId });
  const organisationId = f1.organisationId;
  const users = {
    admin: await buildUser(server.db, { role: 'ADMIN', organisationId }),
    inactiveAdmin: await buildUser(server.db, { role: 'ADMIN', organisationId, status: 'INACTIVE' }),
    facilityAdmin: await buildUser(server.db, { role: 'FACILITY_ADMIN', facilities: [f1] }),
    otherFacilityAdmin: await buildUser(server.db, { role: 'FACILITY_ADMIN', facilities: [f2] }),
    radiologist: await buildUser(server.db, { facilities: [f1] }),
    otherRadiologist: await buildUser(server.db, { facilities: [f1] }),
  };
  const study = (status: 'ASSIGNED' | 'FINAL' | 'DELETED', createdAt: string) =>
    buildStudy(server.db, {
      facility: f1,
      status,
      priorityTag: 'EMERGENCY',
      lastAssignedUserId: users.radiologist.id,
      createdAt: new Date(createdAt),
    });
  return {
    users,
    facility: f1,
    overdue: await study('ASSIGNED', '2026-11-26T10:00:00Z'), // due 11:00
    notYet: await study('ASSIGNED', '2026-11-26T11:30:00Z'), // due 12:30
    final: await study('FINAL', '2026-11-20T10:00:00Z'),
    deleted: await study('DELETED', '2026-11-20T10:00:00Z'),
  };
}

async function notificationsOf(studyId: string) {
  const rows = await queryRows<{ user_id: string; type: string }>(
    server.db,
    sql`select user_id, type from notifications where data->>'worklist_id' = ${studyId}`,
  );
  return rows.map((row) => row.user_id).sort();
}

describe('turnaround breach notifications', () => {
  it('notifies the assigned radiologist and the admins once, however often the pass runs', async () => {
    const w = await world();
    announced.length = 0;
    await notifyTurnaroundBreaches(server.db, server.app.events, NOW);
    const expected = [w.users.admin.id, w.users.facilityAdmin.id, w.users.radiologist.id].sort();
    expect(await notificationsOf(w.overdue.id)).toEqual(expected);
    expect(announced.filter((event) => expected.includes(event.userId)).map((event) => event.type)).toEqual([
      'turnaround-breach',
      'turnaround-breach',
      'turnaround-breach',
    ]);
    const [marked] = await server.db
      .select({ at: t.studies.turnaroundBreachNotifiedAt })
      .from(t.studies)
      .where(eq(t.studies.id, w.overdue.id));
    expect(marked?.at?.toISOString()).toBe(NOW.toISOString());
    // A second pass, and two at the same time (two replicas), notify nobody again.
    announced.length = 0;
    await notifyTurnaroundBreaches(server.db, server.app.events, NOW);
    await Promise.all([
      notifyTurnaroundBreaches(server.db, server.app.events, NOW),
      notifyTurnaroundBreaches(server.db, server.app.events, NOW),
    ]);
    expect(await notificationsOf(w.overdue.id)).toEqual(expected);
    expect(announced.filter((event) => expected.includes(event.userId))).toEqual([]);
  });

  it('never notifies a FINAL or DELETED study, nor one still within its target', async () => {
    const w = await world();
    await notifyTurnaroundBreaches(server.db, server.app.events, NOW);
    expect(await notificationsOf(w.final.id)).toEqual([]);
    expect(await notificationsOf(w.deleted.id)).toEqual([]);
    expect(await notificationsOf(w.notYet.id)).toEqual([]);
    // Once past its due time (12:30), the next pass notifies it, once.
    const later = new Date('2026-11-26T12:31:00.000Z');
    await notifyTurnaroundBreaches(server.db, server.app.events, later);
    await notifyTurnaroundBreaches(server.db, server.app.events, later);
    expect((await notificationsOf(w.notYet.id)).length).toBe(3);
    expect(await notificationsOf(w.final.id)).toEqual([]);
  });

  it('marks a breach older than an hour without notifying (the history a first pass finds)', async () => {
    const w = await world();
    // Past its target since 20 November (EMERGENCY: 1 h): old news, marked, told to nobody.
    const old = await buildStudy(server.db, {
      facility: w.facility,
      status: 'ASSIGNED',
      priorityTag: 'EMERGENCY',
      lastAssignedUserId: w.users.radiologist.id,
      createdAt: new Date('2026-11-20T10:00:00Z'),
    });
    announced.length = 0;
    await notifyTurnaroundBreaches(server.db, server.app.events, NOW);
    expect(await notificationsOf(old.id)).toEqual([]);
    const [marked] = await server.db
      .select({ at: t.studies.turnaroundBreachNotifiedAt })
      .from(t.studies)
      .where(eq(t.studies.id, old.id));
    expect(marked?.at?.toISOString()).toBe(NOW.toISOString());
    // The one that passed its target at 11:00 (an hour ago) is still news.
    expect((await notificationsOf(w.overdue.id)).length).toBe(3);
  });

  it('two concurrent first passes notify each overdue study exactly once', async () => {
    const w = await world();
    await Promise.all([
      notifyTurnaroundBreaches(server.db, server.app.events, NOW),
      notifyTurnaroundBreaches(server.db, server.app.events, NOW),
    ]);
    expect((await notificationsOf(w.overdue.id)).length).toBe(3);
  });
});

describe('the chain of passes', () => {
  let quiet: TTestServer;
  beforeAll(async () => {
    // No worker here: the jobs stay as enqueued.
    quiet = await startTestServer({ clock: () => NOW, env: { JOBS_ENABLED: 'false' } });
  });
  afterAll(async () => {
    await quiet.close();
  });

  const pending = () =>
    quiet.db
      .select({ id: t.jobs.id, runAt: t.jobs.runAt })
      .from(t.jobs)
      .where(and(eq(t.jobs.queue, TURNAROUND_BREACH_QUEUE), eq(t.jobs.status, 'pending')));

  it('starts once, and each settled pass enqueues exactly one successor', async () => {
    await ensureBreachChain(quiet.db);
    await ensureBreachChain(quiet.db);
    const [first, ...more] = await pending();
    expect(more).toEqual([]);
    if (!first) throw new Error('no chain');
    const handler = turnaroundBreachHandler({
      db: quiet.db,
      events: quiet.app.events,
      now: () => NOW,
      intervalSeconds: 60,
    });
    const job = {
      id: first.id,
      queue: TURNAROUND_BREACH_QUEUE,
      payload: {},
      attempt: 1,
      maxAttempts: 3,
      progress: {},
    };
    await quiet.db.update(t.jobs).set({ status: 'succeeded' }).where(eq(t.jobs.id, first.id));
    const outcome = { kind: 'succeeded', result: {} } as const;
    await quiet.db.transaction((tx) => handler.settle?.(tx, job, outcome) ?? Promise.resolve());
    await quiet.db.transaction((tx) => handler.settle?.(tx, job, outcome) ?? Promise.resolve());
    const next = await pending();
    expect(next.length).toBe(1);
    expect(next[0]?.id).not.toBe(first.id);
  });
});
