// The admin's breaches read per priority tag and merged by due time (home-breaches.ts): more than a
// page of overdue studies in two tags whose due times interleave, a tie between tags, and the total
// as the open studies less those not due yet, for an admin and a facility admin.
import type { THomeSummary, TPriorityTag, TStudyStatus } from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

const NOW = new Date('2026-11-26T12:00:00.000Z');
const MINUTE = 60_000;

let server: TTestServer;
let admin: Awaited<ReturnType<typeof buildUser>>;
let facilityAdmin: Awaited<ReturnType<typeof buildUser>>;
/** Every overdue study of the organisation with its due time, and its facility (a or b). */
const overdue: { id: string; due: number; facility: 'a' | 'b' }[] = [];

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const db = server.db;
  const organisation = await buildOrganisation(db);
  const a = await buildFacility(db, { organisationId: organisation.id, name: 'A' });
  const b = await buildFacility(db, { organisationId: organisation.id, name: 'B' });
  admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  facilityAdmin = await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [a] });
  const study = async (
    facility: 'a' | 'b',
    minutesAgo: number,
    priorityTag: TPriorityTag | null,
    status: TStudyStatus = 'TO_READ',
  ) =>
    buildStudy(db, {
      facility: facility === 'a' ? a : b,
      status,
      priorityTag,
      createdAt: new Date(NOW.getTime() - minutesAgo * MINUTE),
    });
  const late = async (facility: 'a' | 'b', minutesAgo: number, tag: TPriorityTag | null, target: number) => {
    const row = await study(facility, minutesAgo, tag);
    overdue.push({ id: row.id, due: NOW.getTime() + (target - minutesAgo) * MINUTE, facility });
  };
  for (let i = 0; i < 12; i += 1) {
    // Untagged (24 h) in A, due 60, 70 … 170 minutes ago; EMERGENCY (1 h) in B, due 5, 15 … 115.
    await late('a', 24 * 60 + 60 + i * 10, null, 24 * 60);
    await late('b', 60 + 5 + i * 10, 'EMERGENCY', 60);
  }
  // URGENT (4 h) in A due 60 minutes ago: the same due time as the first untagged (then by id).
  await late('a', 5 * 60, 'URGENT', 4 * 60);
  // Not due yet, settled, or another organisation's: never listed nor counted.
  await study('a', 23 * 60, null);
  await study('b', 30, 'EMERGENCY');
  await study('a', 3 * 60, 'URGENT');
  await study('a', 30 * 60, null, 'FINAL');
  await study('b', 30 * 60, 'EMERGENCY', 'DELETED');
  await buildStudy(db, { status: 'TO_READ', createdAt: new Date(NOW.getTime() - 48 * 60 * MINUTE) });
});
afterAll(async () => {
  await server.close();
});

async function breachesOf(user: typeof admin): Promise<NonNullable<THomeSummary['breaches']>> {
  const response = await server.request('GET', '/api/v1/home/summary', {
    token: await tokenFor(server, user),
  });
  expect(response.status, response.text).toBe(200);
  const { breaches } = response.json as THomeSummary;
  if (!breaches) throw new Error('no breaches section');
  return breaches;
}

/** The overdue studies most overdue first (earliest due, then id), as the page must list them. */
const expected = (facility?: 'a' | 'b') =>
  overdue
    .filter((row) => !facility || row.facility === facility)
    .sort((x, y) => x.due - y.due || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
    .map((row) => row.id);

describe('GET /home/summary — breaches across priority tags', () => {
  it("an admin's page holds the 20 earliest due of both tags, interleaved; the total counts all 25", async () => {
    const breaches = await breachesOf(admin);
    expect(breaches.total).toBe(25);
    expect(breaches.items.map((item) => item.id)).toEqual(expected().slice(0, 20));
    // Untagged due 170 … 120 minutes ago, then EMERGENCY due 115 minutes ago.
    expect(breaches.items.slice(5, 7).map((item) => item.priority_tag)).toEqual([null, 'EMERGENCY']);
    expect(breaches.items[6]?.due_at).toBe(new Date(NOW.getTime() - 115 * MINUTE).toISOString());
    expect(breaches.items.every((item) => item.overdue)).toBe(true);
  });

  it("a facility admin's page and total are their facility's only", async () => {
    const breaches = await breachesOf(facilityAdmin);
    expect(breaches.total).toBe(13);
    expect(breaches.items.map((item) => item.id)).toEqual(expected('a'));
    expect(breaches.items.every((item) => item.facility_name === 'A')).toBe(true);
  });
});
