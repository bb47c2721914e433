import type { THomeSummary, THomeTurnaroundRow } from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from '../../test/auth-helpers.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { buildHomeWorld, NOW, type THomeWorld } from '../../test/home-world.ts';

let server: TTestServer;
let w: THomeWorld;

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  w = await buildHomeWorld(server.db);
});
afterAll(async () => {
  await server.close();
});

async function summary(user: keyof THomeWorld['users'], query = ''): Promise<THomeSummary> {
  const response = await server.request('GET', `/api/v1/home/summary${query}`, {
    token: await tokenFor(server, w.users[user]),
  });
  expect(response.status, response.text).toBe(200);
  return response.json as THomeSummary;
}

const ids = (list: { items: { id: string }[] } | undefined) => list?.items.map((item) => item.id);
const byTag = (rows: THomeTurnaroundRow[] | undefined) =>
  Object.fromEntries((rows ?? []).map((row) => [row.priority_tag ?? 'untagged', row]));
const figures = (row: THomeTurnaroundRow | undefined) =>
  row && { count: row.count, median: row.median_minutes, p90: row.p90_minutes, target: row.target_minutes };

describe('GET /home/summary — radiologist', () => {
  it('lists my queue by priority then age, with elapsed time, due time and overdue', async () => {
    const home = await summary('rad');
    const { o1, o2, o3, o4, o8 } = w.open;
    // EMERGENCY, URGENT, MLC, then untagged oldest first.
    expect(ids(home.my_queue)).toEqual([o1.id, o3.id, o4.id, o2.id, o8.id]);
    expect(home.my_queue?.total).toBe(5);
    const [first] = home.my_queue?.items ?? [];
    expect(first).toMatchObject({
      elapsed_minutes: 120,
      due_at: '2026-11-26T11:00:00.000Z',
      overdue: true,
      priority_tag: 'EMERGENCY',
      facility_name: 'A First',
      assignee_display_name: 'Dr A Rao',
    });
    expect(home.my_queue?.items.map((item) => item.overdue)).toEqual([true, true, false, false, false]);
    expect(home.generated_at).toBe(NOW.toISOString());
    expect(home.turnaround_targets.per_priority.EMERGENCY).toBe(60);
  });

  it('lists my drafts and the reports returned to me with their comment', async () => {
    const home = await summary('rad');
    expect(ids(home.my_drafts)).toEqual([w.open.o3.id, w.open.o8.id]);
    expect(home.my_drafts?.items[0]?.report_id).toBe(w.reports.o3.id);
    expect(ids(home.returned_to_me)).toEqual([w.open.o8.id]);
    expect(home.returned_to_me?.items[0]?.comment).toBe('Fix the impression');
  });

  it('counts my finals today in my time zone and my median turnaround of the week', async () => {
    const utc = await summary('rad');
    // Mine within 7 days: 30, 60, 100, 60 (s1, s2, s5, s9) → median 60; today UTC: s1, s2.
    expect(utc.my_finals_today).toBe(2);
    expect(utc.my_median_turnaround_week_minutes).toBe(60);
    // Kolkata's today began at 18:30 UTC yesterday: s9 (20:00 UTC) counts too.
    expect((await summary('rad', '?time_zone=Asia/Kolkata')).my_finals_today).toBe(3);
    // rad2 signed 90, 120 and 200, but works only in the first facility (120 is the second's): 145.
    const other = await summary('rad2');
    expect(other.my_finals_today).toBe(0);
    expect(other.my_median_turnaround_week_minutes).toBe(145);
    expect(ids(other.my_queue)).toEqual([w.open.o12.id]);
    expect(other.returned_to_me).toEqual({ items: [], total: 0 });
  });

  it('has only the radiologist sections', async () => {
    const home = await summary('rad');
    expect(home.waiting).toBeUndefined();
    expect(home.typing_queue).toBeUndefined();
    expect(home.recent_finals).toBeUndefined();
  });
});

describe('GET /home/summary — transcriptionist', () => {
  it('lists the studies open for typing in my facilities and what I submitted for review', async () => {
    const home = await summary('transcriptionist');
    expect(ids(home.typing_queue)).toEqual([w.open.o3.id, w.open.o12.id, w.open.o8.id]);
    // O8, which I submitted, was returned: nothing of mine is in review.
    expect(home.submitted_for_review).toEqual({ items: [], total: 0 });
    expect(home.my_queue).toBeUndefined();
    const second = await summary('transcriptionist2');
    expect(ids(second.typing_queue)).toEqual([]);
    expect(ids(second.submitted_for_review)).toEqual([w.open.o4.id]);
    expect(second.submitted_for_review?.items[0]?.comment).toBe('Please check');
  });
});

describe('GET /home/summary — admin and facility admin', () => {
  it('counts waiting studies per facility and status, and unassigned by priority', async () => {
    const home = await summary('admin');
    const waiting = Object.fromEntries(
      (home.waiting ?? []).map((row) => [`${row.facility_name}/${row.status}`, row.count]),
    );
    expect(waiting).toEqual({
      'A First/ASSIGNED': 3,
      'A First/DRAFTED': 2,
      'A First/TO_READ': 2,
      'A First/ORDERED': 1,
      'B Second/IN_REVIEW': 1,
      'B Second/TO_READ': 1,
    });
    expect(new Map(home.unassigned_by_priority?.map((row) => [row.priority_tag, row.count]))).toEqual(
      new Map([
        ['ROUTINE', 1],
        ['EMERGENCY', 1],
        [null, 1],
      ]),
    );
    const facility = await summary('facilityAdmin');
    expect(facility.waiting?.every((row) => row.facility_name === 'A First')).toBe(true);
    expect(facility.waiting?.length).toBe(4);
    expect(facility.unassigned_by_priority?.some((row) => row.priority_tag === null)).toBe(false);
  });

  it("shows each radiologist's workload", async () => {
    const home = await summary('admin');
    expect(home.workload).toEqual([
      { user_id: w.users.rad.id, display_name: 'Dr A Rao', assigned: 2, in_progress: 3, finals_today: 2 },
      { user_id: w.users.rad2.id, display_name: 'Dr B Sen', assigned: 1, in_progress: 0, finals_today: 0 },
    ]);
    // The facility admin does not see O4 (second facility).
    const facility = await summary('facilityAdmin');
    expect(facility.workload?.[0]).toMatchObject({ assigned: 2, in_progress: 2, finals_today: 2 });
  });

  it('computes turnaround median and 90th percentile per priority for today and the last 7 days', async () => {
    const home = await summary('admin');
    const week = byTag(home.turnaround?.last_7_days);
    // EMERGENCY 30, 60, 90, 120: median 75, p90 = 90 + 0.7 × 30 = 111.
    expect(figures(week.EMERGENCY)).toEqual({ count: 4, median: 75, p90: 111, target: 60 });
    // untagged 100, 200: median 150, p90 = 100 + 0.9 × 100 = 190.
    expect(figures(week.untagged)).toEqual({ count: 2, median: 150, p90: 190, target: 1440 });
    expect(figures(week.ROUTINE)).toEqual({ count: 1, median: 60, p90: 60, target: 1440 });
    expect(week.URGENT).toBeUndefined(); // finalised 8 days ago
    // Today (UTC): EMERGENCY 30, 60: median 45, p90 57.
    expect(home.turnaround?.today.map(figures)).toEqual([{ count: 2, median: 45, p90: 57, target: 60 }]);
    // Facility admin (first facility): EMERGENCY 30, 60, 90: median 60, p90 = 60 + 0.8 × 30 = 84.
    const facility = byTag((await summary('facilityAdmin')).turnaround?.last_7_days);
    expect(figures(facility.EMERGENCY)).toEqual({ count: 3, median: 60, p90: 84, target: 60 });
    // In Kolkata, today also holds the ROUTINE final of 20:00 UTC yesterday.
    const kolkata = await summary('admin', '?time_zone=Asia/Kolkata');
    expect(byTag(kolkata.turnaround?.today).ROUTINE?.count).toBe(1);
  });

  it('lists breaches most overdue first, never FINAL, DELETED or another organisation', async () => {
    const home = await summary('admin');
    expect(ids(home.breaches)).toEqual([w.open.o5.id, w.open.o3.id, w.open.o1.id]);
    expect(home.breaches?.total).toBe(3);
    expect(home.breaches?.items.every((item) => item.overdue)).toBe(true);
    expect(home.my_queue).toBeUndefined();
    expect(home.recent_finals).toBeUndefined();
  });
});

describe('GET /home/summary — referring physician, another organisation, bad input', () => {
  it("lists my patients' final reports, newest first", async () => {
    const home = await summary('referrer');
    expect(ids(home.recent_finals)).toEqual([w.finals.s1.id, w.finals.s5.id]);
    expect(home.recent_finals?.items[0]).toMatchObject({ elapsed_minutes: 30, overdue: false });
    expect(home.breaches).toBeUndefined();
  });

  it("counts nothing of another organisation's", async () => {
    const home = await summary('outsider');
    expect(home.waiting?.map((row) => row.facility_name)).toEqual(['Elsewhere']);
    expect(ids(home.breaches)).toEqual([w.open.outside.id]);
    expect(byTag(home.turnaround?.last_7_days).EMERGENCY?.count).toBe(1);
    expect(home.workload?.map((row) => row.user_id)).toEqual([w.users.outsiderRad.id]);
  });

  it('answers 400 naming time_zone for an unknown zone, 401 without a token', async () => {
    const response = await server.request('GET', '/api/v1/home/summary?time_zone=Mars/Base', {
      token: await tokenFor(server, w.users.admin),
    });
    expect(response.status).toBe(400);
    expect((response.json as { error: { message: string } }).error.message).toContain('time_zone');
    expect((await server.request('GET', '/api/v1/home/summary')).status).toBe(401);
  });
});
