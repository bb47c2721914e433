import type { Locator, Page, WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, apiSignIn } from '../support/api.ts';
import { demoSession } from '../support/demo-session.ts';

// The home screen (issue 16) on the demo organisation: a radiologist's queue, drafts and figures,
// kept live by worklist changes; an admin's waiting, turnaround and workload charts, each also a
// table of numbers. Screenshots: docs/home-radiologist.png and docs/home-admin.png (run with
// RIS_E2E_SCREENSHOTS=../docs).

const ADMIN = 'admin@demo.test';
const RADIOLOGIST = 'radiologist@demo.test';

const session = demoSession();

type TItem = { id: string; patient_name: string };

const list = (page: Page, name: string): Locator => page.getByRole('list', { name, exact: true });
const totalOf = (page: Page, heading: string): Promise<string | null> =>
  page.getByRole('heading', { level: 2, name: heading }).locator('span').textContent();

/** Closes the sign-in toast, so a screenshot shows the screen only. */
async function closeToasts(page: Page): Promise<void> {
  const close = page.getByRole('button', { name: 'Close toast' });
  for (const button of await close.all()) await button.click();
  await expect.poll(() => close.count()).toBe(0);
}

/** The cells of the table whose caption starts with `caption`, row by row (header row first). */
function tableCells(page: Page, caption: string): Promise<string[][]> {
  return page
    .locator('table')
    .filter({ has: page.locator('caption', { hasText: caption }) })
    .first()
    .evaluate((table) =>
      Array.from(table.querySelectorAll('tr')).map((row) =>
        Array.from(row.querySelectorAll('th, td')).map((cell) => cell.textContent?.trim() ?? ''),
      ),
    );
}

/** An admin assigns a study waiting to be read (the month's newest) to the demo radiologist, by the API. */
async function assignAStudyToTheRadiologist(): Promise<void> {
  const [admin, radiologist] = await Promise.all([
    apiSignIn(session.server.url, ADMIN),
    apiSignIn(session.server.url, RADIOLOGIST),
  ]);
  const waiting = await api<{ items: TItem[] }>(
    session.server.url,
    admin,
    'GET',
    '/worklist?statuses=TO_READ&date_range_type=LAST_1_MONTH&limit=1',
  );
  const study = waiting.items[0];
  if (!study) throw new Error('the demo seed has no TO_READ study');
  await api(session.server.url, admin, 'PUT', '/worklist/assign/radiologist', {
    worklist_ids: [study.id],
    last_assigned_user_fk: radiologist.id,
  });
}

describe('home', () => {
  it('a radiologist sees their queue with elapsed times and clocks, follows an assignment live and opens a study', async () => {
    const page = await session.signedIn(RADIOLOGIST);
    const queue = list(page, 'My queue');
    await queue.getByRole('listitem').first().waitFor();
    expect(await queue.getByRole('listitem').count()).toBeGreaterThan(0);
    // Elapsed time since arrival on every row; the demo's month-old studies are past their targets.
    expect(await queue.getByRole('listitem').first().textContent()).toMatch(/Waiting \d+(m|h \d+m|d \d+h)/);
    expect(await queue.getByRole('img', { name: /^Past the .+ turnaround target$/ }).count()).toBeGreaterThan(
      0,
    );
    await list(page, 'My drafts').waitFor();
    const figures = page.getByRole('definition').filter({ hasText: /\d/ });
    expect(await figures.count()).toBeGreaterThanOrEqual(2);
    await closeToasts(page);
    await session.screenshot(page, 'home-radiologist.png');

    // An admin assigns a study to the radiologist: their home refetches and counts it.
    const before = Number(await totalOf(page, 'My queue'));
    await assignAStudyToTheRadiologist();
    await expect
      .poll(async () => Number(await totalOf(page, 'My queue')), { timeout: 10_000 })
      .toBe(before + 1);

    // A row opens its study in a tab.
    const first = queue.getByRole('button').first();
    const id = await first.getAttribute('data-home-item');
    await first.click();
    await page.waitForURL(`**/worklist/${id}`);
    await page.getByRole('navigation', { name: 'Open studies' }).waitFor();
  });

  it('a radiologist’s home catches up on an assignment made while its live connection was down', async () => {
    const page = await session.signedIn(RADIOLOGIST);
    const queue = list(page, 'My queue');
    await queue.getByRole('listitem').first().waitFor();
    // The next live connections are held before they reach the server, as a network drop would.
    const held: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/ws\//, (socket) => void held.push(socket));
    await page.reload();
    await queue.getByRole('listitem').first().waitFor();
    await expect.poll(() => held.length).toBeGreaterThan(0);
    const before = Number(await totalOf(page, 'My queue'));

    // Assigned meanwhile: the message goes to no one.
    await assignAStudyToTheRadiologist();
    expect(Number(await totalOf(page, 'My queue'))).toBe(before);

    // The connection gets through: once it has rejoined its topics the home is read again.
    await page.unrouteAll();
    for (const socket of held) socket.connectToServer();
    await expect
      .poll(async () => Number(await totalOf(page, 'My queue')), { timeout: 10_000 })
      .toBe(before + 1);
  });

  it('an admin reads waiting, unassigned, turnaround and workload as charts and as numbers', async () => {
    const page = await session.signedIn(ADMIN);
    await page.getByRole('figure', { name: 'Waiting per status' }).waitFor();
    const waiting = await tableCells(page, 'Waiting per status');
    expect(waiting[0]).toEqual(['Status', 'Studies']);
    expect(waiting.slice(1).map((row) => row[0])).toEqual([
      'Ordered',
      'To Read',
      'Assigned',
      'Drafted',
      'In Review',
    ]);
    expect(waiting.slice(1).reduce((sum, row) => sum + Number(row[1]), 0)).toBeGreaterThan(0);
    const facilities = await tableCells(page, 'Waiting per facility');
    expect(facilities.length).toBeGreaterThan(1);

    const chart = page.getByRole('img', { name: /^Waiting per status\. Ordered: Studies \d+/ });
    expect(await chart.count()).toBe(1);

    await page
      .getByRole('group', { name: 'Turnaround period' })
      .getByRole('button', { name: 'Last 7 days' })
      .click();
    // The drawings arrive lazily (recharts) and say their numbers in words too.
    await expect
      .poll(() => page.locator('.recharts-responsive-container').count(), { timeout: 10_000 })
      .toBe(3);
    const turnaround = await tableCells(page, 'Turnaround per priority, last 7 days');
    expect(turnaround[0]).toEqual(['Priority', 'Median', '90th percentile', 'Target', 'Finals']);
    expect(turnaround.length).toBeGreaterThan(1);
    const workload = await tableCells(page, 'Studies per radiologist');
    expect(workload.map((row) => row[0])).toContain('Dr Asha Rao');
    await list(page, 'Past the turnaround target').waitFor();
    await closeToasts(page);
    // The layout scrolls inside its main area: a taller window shows the whole screen.
    await page.setViewportSize({ width: 1440, height: 1900 });
    await session.screenshot(page, 'home-admin.png');
  });

  it("a transcriptionist sees what waits for typing in their facilities; a referrer their patients' finals; neither sees the admin charts", async () => {
    const typist = await session.signedIn('transcriptionist@demo.test');
    const typing = list(typist, 'Waiting for typing');
    await typing.getByRole('listitem').first().waitFor();
    // Open for typing: a radiologist is assigned and the report is not submitted yet.
    for (const row of await typing.getByRole('listitem').allTextContents()) {
      expect(row).toMatch(/Assigned|Drafted/);
    }
    expect(await typist.getByRole('heading', { level: 2, name: /^Submitted for review/ }).count()).toBe(1);
    expect(await typist.getByRole('figure', { name: 'Waiting per status' }).count()).toBe(0);
    expect(await typist.getByRole('list', { name: 'My queue', exact: true }).count()).toBe(0);

    const referrer = await session.signedIn('referrer@demo.test');
    const finals = list(referrer, 'Recent final reports');
    await finals.getByRole('listitem').first().waitFor();
    expect(Number(await totalOf(referrer, 'Recent final reports'))).toBeGreaterThan(0);
    expect(await referrer.getByRole('figure', { name: 'Waiting per status' }).count()).toBe(0);
    expect(await referrer.getByRole('list', { name: 'Waiting for typing', exact: true }).count()).toBe(0);
  });

  it('an admin sets a turnaround target with the server checking it; the worklist shows the clock against it', async () => {
    const page = await session.signedIn(ADMIN);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organisation' }).click();
    await page
      .getByRole('navigation', { name: 'Organisation sections' })
      .getByRole('button', { name: 'Turnaround targets' })
      .click();
    const form = page.getByRole('form', { name: 'Turnaround targets' });
    const emergency = form.getByLabel('Emergency', { exact: true });
    expect(await emergency.inputValue()).toBe('60');
    // Over 30 days: refused by the server, its message on the field.
    await emergency.fill('50000');
    await form.getByRole('button', { name: 'Save targets' }).click();
    await form.getByText('must be at most 43200 minutes (30 days)').waitFor();
    expect(await emergency.getAttribute('aria-invalid')).toBe('true');
    await emergency.fill('30');
    await form.getByText('= 30 min').waitFor();
    await form.getByRole('button', { name: 'Save targets' }).click();
    await page.getByText('Turnaround targets saved').waitFor();
    const saved = await api<{ targets: { per_priority: { EMERGENCY: number } }; is_default: boolean }>(
      session.server.url,
      await apiSignIn(session.server.url, ADMIN),
      'GET',
      '/organisation/turnaround-targets',
    );
    expect(saved.targets.per_priority.EMERGENCY).toBe(30);
    expect(saved.is_default).toBe(false);

    // The worklist marks the emergencies past 30 minutes with the clock and its words.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Worklist' }).click();
    await page.getByLabel('Date range').selectOption('LAST_1_MONTH');
    const table = page.getByRole('table', { name: 'Worklist studies' });
    await table
      .getByRole('img', { name: /^Past the .+ turnaround target$/ })
      .first()
      .waitFor();
    const labels = await table
      .getByRole('img', { name: /^Past the .+ turnaround target$/ })
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label')));
    expect(labels.length).toBeGreaterThan(0);
  });
});
