// @vitest-environment happy-dom
import { NO_CAPABILITIES, type THomeSummary, type TRole } from '@ris/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '../../stores/auth-store.ts';
import { settingsStore } from '../../stores/settings-store.ts';
import { click, render, waitFor, type Rendered } from '../../test/dom.tsx';
import { liveConnection } from '../realtime/live-connection.fake.ts';
import { buildUser } from '../auth/test-support.ts';
import {
  FACILITY_B_ID,
  FACILITY_ID,
  homeReport,
  homeStudy,
  itemId,
  minutesAgo,
  summaryOf,
} from './home-fixtures.ts';
import { HomePage } from './home-page.tsx';

let view: Rendered | null = null;
let summary: THomeSummary;
let status = 200;
let requests: URL[] = [];

function json(code: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status: code,
    headers: { 'content-type': 'application/json' },
  });
}

async function fakeFetch(input: string, init: RequestInit): Promise<Response> {
  const url = new URL(input, 'http://app.test');
  if ((init.method ?? 'GET') === 'GET' && url.pathname === '/api/v1/home/summary') {
    requests.push(url);
    if (status !== 200) return json(status, { error: { code: 'INTERNAL', message: 'Database down' } });
    return json(200, summary);
  }
  return json(404, { error: { code: 'NOT_FOUND', message: `no ${init.method} ${url.pathname}` } });
}

let live: ReturnType<typeof liveConnection>;

function Where() {
  return <output data-testid="path">{useLocation().pathname}</output>;
}

async function showHome(role: TRole, data: THomeSummary): Promise<HTMLElement> {
  summary = data;
  authStore.getState().setVerifiedUser({
    user: buildUser({ role }),
    roleDetails: { radiologist_details: null, transcriptionist_details: null, facility_details: null },
    facilities: [],
    capabilities: NO_CAPABILITIES,
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  view = await render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/']}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                <HomePage live={live.connection} />
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const container = view.container;
  await waitFor(() => {
    expect(requests.length).toBeGreaterThan(0);
    expect(container.textContent).not.toContain('Loading your home screen');
  });
  return container;
}

/** The rows of the home list headed `title`: patient, then each row's text. */
function listRows(root: ParentNode, title: string): string[] {
  const list = root.querySelector(`ul[aria-label="${title}"]`);
  if (!list) throw new Error(`no list "${title}"`);
  return [...list.querySelectorAll('li')].map((row) => row.textContent ?? '');
}

const sectionTitles = (root: ParentNode) =>
  [...root.querySelectorAll('h2')].map((h) => h.firstChild?.textContent);

/** The cells of the table with `caption`, row by row (header row first). */
function tableCells(root: ParentNode, caption: string): string[][] {
  const table = [...root.querySelectorAll('table')].find((element) =>
    element.querySelector('caption')?.textContent?.startsWith(caption),
  );
  if (!table) throw new Error(`no table "${caption}"`);
  return [...table.querySelectorAll('tr')].map((row) =>
    [...row.querySelectorAll('th, td')].map((cell) => cell.textContent?.trim() ?? ''),
  );
}

beforeEach(() => {
  status = 200;
  requests = [];
  vi.stubGlobal('fetch', fakeFetch);
  live = liveConnection();
  settingsStore.getState().clearTabs();
});

afterEach(async () => {
  await view?.unmount();
  view = null;
  live.connection.close();
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  authStore.getState().clear();
});

const radiologistSummary = () =>
  summaryOf({
    my_queue: {
      items: [
        // URGENT (4 h) arrived 5 h ago: past its target.
        homeStudy(1, { patient_name: 'Ravi Kumar', priority_tag: 'URGENT', created_at: minutesAgo(300) }),
        homeStudy(2, { patient_name: 'Meena Iyer', priority_tag: 'ROUTINE', created_at: minutesAgo(95) }),
      ],
      total: 23,
    },
    my_drafts: { items: [homeReport(3, { patient_name: 'Draft Patient' })], total: 1 },
    returned_to_me: {
      items: [homeReport(4, { patient_name: 'Returned Patient', comment: 'Please add the impression' })],
      total: 1,
    },
    my_finals_today: 7,
    my_median_turnaround_week_minutes: 200,
  });

describe('HomePage', () => {
  it('a radiologist sees their queue by priority with elapsed times and the overdue clock, drafts, returns and figures', async () => {
    const root = await showHome('RADIOLOGIST', radiologistSummary());
    expect(requests[0]?.searchParams.get('time_zone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(sectionTitles(root)).toEqual(['My queue', 'Returned to me', 'My drafts']);

    const queue = listRows(root, 'My queue');
    expect(queue).toHaveLength(2);
    expect(queue[0]).toContain('Ravi Kumar');
    expect(queue[0]).toContain('Waiting 5h 0m');
    expect(queue[1]).toContain('Meena Iyer');
    expect(queue[1]).toContain('Waiting 1h 35m');
    const clocks = [...root.querySelectorAll('ul[aria-label="My queue"] [role="img"]')];
    expect(clocks.map((clock) => clock.getAttribute('aria-label'))).toEqual([
      'Past the 4 h turnaround target',
    ]);
    expect(root.textContent).toContain('21 more on the worklist');

    expect(listRows(root, 'Returned to me')[0]).toContain('Please add the impression');
    expect(listRows(root, 'My drafts')[0]).toContain('Draft Patient');
    const figures = root.querySelector('dl[aria-label="My figures"]')?.textContent ?? '';
    expect(figures).toContain('My finals today7');
    expect(figures).toContain('My median turnaround, last 7 days3 h 20 min');
    // Nothing of another role's screen.
    expect(root.querySelector('figure')).toBeNull();
  });

  it('a row opens its study in a tab', async () => {
    const root = await showHome('RADIOLOGIST', radiologistSummary());
    const row = root.querySelector(`button[data-home-item="${itemId(2)}"]`);
    if (!row) throw new Error('no row of Meena Iyer');
    await click(row);
    await waitFor(() =>
      expect(root.querySelector('[data-testid="path"]')?.textContent).toBe(`/worklist/${itemId(2)}`),
    );
    expect(settingsStore.getState().tabs.map((tab) => [tab.id, tab.title])).toEqual([
      [itemId(2), 'Meena Iyer'],
    ]);
  });

  it('a transcriptionist sees the typing queue and what they submitted for review', async () => {
    const root = await showHome(
      'TRANSCRIPTIONIST',
      summaryOf({
        typing_queue: {
          items: [homeStudy(5, { patient_name: 'Typing Patient', status: 'DRAFTED' })],
          total: 1,
        },
        submitted_for_review: { items: [], total: 0 },
      }),
    );
    expect(sectionTitles(root)).toEqual(['Waiting for typing', 'Submitted for review']);
    expect(listRows(root, 'Waiting for typing')[0]).toContain('Typing Patient');
    expect(listRows(root, 'Waiting for typing')[0]).toContain('Drafted');
    expect(root.textContent).toContain('None of your reports is waiting for review.');
  });

  it('a referring physician sees their patients’ recent final reports', async () => {
    const root = await showHome(
      'REFERRING_PHYSICIAN',
      summaryOf({
        recent_finals: {
          items: [
            homeReport(6, {
              patient_name: 'Final Patient',
              status: 'FINAL',
              finalized_at: '2026-11-20T10:15:00.000Z',
              created_at: minutesAgo(5000),
            }),
          ],
          total: 1,
        },
      }),
    );
    expect(sectionTitles(root)).toEqual(['Recent final reports']);
    const row = listRows(root, 'Recent final reports')[0] ?? '';
    expect(row).toContain('Final Patient');
    // A FINAL study is never overdue, however long it took.
    expect(root.querySelector('ul [role="img"]')).toBeNull();
  });

  it('shows the server’s message when the summary cannot be read', async () => {
    status = 500;
    const root = await showHome('RADIOLOGIST', radiologistSummary());
    await waitFor(() => expect(root.textContent).toContain('Database down'));
  });

  it('refetches once, shortly after a burst of worklist changes', async () => {
    const root = await showHome('RADIOLOGIST', radiologistSummary());
    expect(requests).toHaveLength(1);
    const next = radiologistSummary();
    summary = { ...next, my_finals_today: 8 };
    for (let n = 0; n < 5; n += 1) {
      await live.deliver({ type: 'worklist-status-update', data: { action: 'delete', id: itemId(n) } });
    }
    await live.deliver({ type: 'user-notification', data: {} });
    await waitFor(() =>
      expect(root.querySelector('dl[aria-label="My figures"]')?.textContent).toContain('My finals today8'),
    );
    expect(requests).toHaveLength(2);
  });

  it('reads the summary again at once when a reconnection has rejoined its topics', async () => {
    const root = await showHome('RADIOLOGIST', radiologistSummary());
    expect(requests).toHaveLength(1);
    // Assigned while the connection was down: no message came, the reconnection reads it.
    summary = { ...radiologistSummary(), my_finals_today: 9 };
    await live.reconnect();
    await waitFor(() =>
      expect(root.querySelector('dl[aria-label="My figures"]')?.textContent).toContain('My finals today9'),
    );
    expect(requests).toHaveLength(2);
  });

  it('an admin reads every chart as numbers: waiting, unassigned, turnaround by period, workload, breaches', async () => {
    const root = await showHome(
      'ADMIN',
      summaryOf({
        waiting: [
          { facility_id: FACILITY_ID, facility_name: 'City General Hospital', status: 'TO_READ', count: 12 },
          { facility_id: FACILITY_ID, facility_name: 'City General Hospital', status: 'ASSIGNED', count: 3 },
          { facility_id: FACILITY_B_ID, facility_name: 'Lakeside Clinic', status: 'TO_READ', count: 20 },
        ],
        unassigned_by_priority: [
          { priority_tag: null, count: 4 },
          { priority_tag: 'EMERGENCY', count: 2 },
        ],
        workload: [
          { user_id: itemId(90), display_name: 'Dr Asha Rao', assigned: 5, in_progress: 2, finals_today: 9 },
        ],
        turnaround: {
          today: [
            {
              priority_tag: 'ROUTINE',
              count: 10,
              median_minutes: 150,
              p90_minutes: 600,
              target_minutes: 1440,
            },
            {
              priority_tag: 'EMERGENCY',
              count: 3,
              median_minutes: 42.4,
              p90_minutes: 65,
              target_minutes: 60,
            },
          ],
          last_7_days: [
            { priority_tag: null, count: 40, median_minutes: 1500, p90_minutes: 3000, target_minutes: 1440 },
          ],
        },
        breaches: {
          items: [
            homeStudy(7, {
              patient_name: 'Late Patient',
              status: 'TO_READ',
              priority_tag: 'EMERGENCY',
              created_at: minutesAgo(90),
              overdue: true,
            }),
          ],
          total: 1,
        },
      }),
    );
    expect(tableCells(root, 'Waiting per status')).toEqual([
      ['Status', 'Studies'],
      ['Ordered', '0'],
      ['To Read', '32'],
      ['Assigned', '3'],
      ['Drafted', '0'],
      ['In Review', '0'],
    ]);
    expect(tableCells(root, 'Waiting per facility')).toEqual([
      ['Facility', 'Ordered', 'To Read', 'Assigned', 'Drafted', 'In Review', 'Total'],
      ['Lakeside Clinic', '—', '20', '—', '—', '—', '20'],
      ['City General Hospital', '—', '12', '3', '—', '—', '15'],
    ]);
    const unassigned = root.querySelector('dl[aria-label="Unassigned by priority"]');
    expect([...(unassigned?.querySelectorAll('div') ?? [])].map((row) => row.textContent)).toEqual([
      'EmergencyEmergency2',
      'Untagged4',
    ]);
    // Most pressing priority first; the median rounds to the minute.
    expect(tableCells(root, 'Turnaround per priority, today')).toEqual([
      ['Priority', 'Median', '90th percentile', 'Target', 'Finals'],
      ['Emergency', '42 min', '1 h 5 min', '1 h', '3'],
      ['Routine', '2 h 30 min', '10 h', '1 d', '10'],
    ]);
    // The drawing says the same in words.
    const chart = [...root.querySelectorAll('[role="img"]')].find((element) =>
      element.getAttribute('aria-label')?.startsWith('Turnaround per priority'),
    );
    expect(chart?.getAttribute('aria-label')).toContain(
      'Emergency: Median 42 min, 90th percentile 1 h 5 min, Target 1 h, Finals 3',
    );
    await click(root.querySelector('button[aria-pressed="false"]') ?? root);
    expect(tableCells(root, 'Turnaround per priority, last 7 days')).toEqual([
      ['Priority', 'Median', '90th percentile', 'Target', 'Finals'],
      ['Untagged', '1 d 1 h', '2 d 2 h', '1 d', '40'],
    ]);
    expect(tableCells(root, 'Studies per radiologist')).toEqual([
      ['Radiologist', 'Assigned', 'In progress', 'Finals today'],
      ['Dr Asha Rao', '5', '2', '9'],
    ]);
    const breach = listRows(root, 'Past the turnaround target')[0] ?? '';
    expect(breach).toContain('Late Patient');
    expect(breach).toContain('Unassigned');
    expect(
      root
        .querySelector('ul[aria-label="Past the turnaround target"] [role="img"]')
        ?.getAttribute('aria-label'),
    ).toBe('Past the 1 h turnaround target');
    // recharts arrives lazily and draws every chart.
    await waitFor(() => expect(root.querySelectorAll('.recharts-responsive-container')).toHaveLength(3));
    // No radiologist's lists on an admin's screen.
    expect(root.querySelector('ul[aria-label="My queue"]')).toBeNull();
  });
});
