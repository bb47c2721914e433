import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiSignIn } from '../support/api.ts';
import { demoSession } from '../support/demo-session.ts';

// The worklist on the screens people have: every column of the default set fits 1366 px and wider
// with the sidebar open, long text is cut with the whole of it on hover, and at 1280 px the table
// scrolls sideways with the checkbox and the patient kept in view.
const ADMIN = 'admin@demo.test';
const LONG_NAME = 'Dr Alexandrina Bartholomew-Vanderberg-Montgomery of the Royal Victoria Infirmary';

const session = demoSession();

type TItem = { id: string; patient_name: string };

beforeAll(async () => {
  // The newest study (the first row) gets a referring physician whose name cannot fit.
  const admin = await apiSignIn(session.server.url, ADMIN);
  const newest = await api<{ items: TItem[] }>(
    session.server.url,
    admin,
    'GET',
    '/worklist?date_range_type=LAST_1_MONTH&limit=1',
  );
  const item = newest.items[0];
  if (!item) throw new Error('the demo seed has no study in the last month');
  await api(session.server.url, admin, 'PUT', `/worklist/${item.id}`, {
    referring_physician_name: LONG_NAME,
  });
});

const table = (page: Page): Locator => page.getByRole('table', { name: 'Worklist studies' });

async function openWorklist(width: number): Promise<Page> {
  const page = await session.signedIn(ADMIN);
  await page.setViewportSize({ width, height: 900 });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Worklist' }).click();
  await page.getByRole('heading', { name: 'Worklist', level: 1 }).waitFor();
  await page.getByLabel('Date range').selectOption('LAST_1_MONTH');
  const summary = page.getByRole('navigation', { name: 'Worklist pages' }).locator('p');
  await expect.poll(() => summary.textContent(), { timeout: 10_000 }).toMatch(/^1–10 of \d+$/);
  await table(page).locator(`[title="${LONG_NAME}"]`).waitFor();
  return page;
}

type THeader = { text: string; left: number; right: number; labelCut: boolean };

/** Each header cell's box and whether its label is cut, with the table's scroll box. */
function measure(page: Page) {
  return table(page).evaluate((element) => {
    const scroller = element.parentElement as HTMLElement;
    const box = scroller.getBoundingClientRect();
    const headers: THeader[] = Array.from(element.querySelectorAll('thead th')).map((th) => {
      const rect = th.getBoundingClientRect();
      const label = th.querySelector<HTMLElement>('[title]');
      const labelCut = label
        ? label.scrollWidth > label.clientWidth + 1 || label.scrollHeight > label.clientHeight + 1
        : false;
      return { text: th.textContent?.trim() ?? '', left: rect.left, right: rect.right, labelCut };
    });
    return {
      left: box.left,
      right: box.right,
      scrollWidth: scroller.scrollWidth,
      clientWidth: scroller.clientWidth,
      viewport: window.innerWidth,
      headers,
    };
  });
}

/** The cells of one column (by header text): rendered width and the text they show. */
function columnCells(page: Page, header: string) {
  return table(page).evaluate((element, name) => {
    const index = Array.from(element.querySelectorAll('thead th')).findIndex(
      (th) => th.textContent?.trim() === name,
    );
    return Array.from(element.querySelectorAll('tbody tr')).map((row) => {
      const cell = row.children[index] as HTMLElement;
      const content = cell.firstElementChild as HTMLElement | null;
      return {
        width: cell.getBoundingClientRect().width,
        textWidth: content?.getBoundingClientRect().width ?? 0,
        text: cell.innerText.trim(),
      };
    });
  }, header);
}

describe('worklist layout', () => {
  for (const width of [1366, 1440]) {
    it(`fits every column at ${width} px and cuts long text with the whole of it on hover`, async () => {
      const page = await openWorklist(width);
      await session.screenshot(page, `worklist-layout-${width}.png`);
      const layout = await measure(page);

      expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
      expect(layout.right).toBeLessThanOrEqual(layout.viewport);
      expect(layout.headers.map((header) => header.text)).toEqual([
        '',
        'Patient',
        'Patient ID',
        'Modality',
        'Study',
        'Date & time',
        'Series',
        'Status',
        'Radiologist',
        'Referring physician',
        'Facility',
        'Actions',
      ]);
      for (const header of layout.headers) {
        expect(header.left, header.text).toBeGreaterThanOrEqual(layout.left - 1);
        expect(header.right, header.text).toBeLessThanOrEqual(layout.right + 1);
        expect(header.labelCut, `${header.text} label cut`).toBe(false);
      }

      for (const column of ['Referring physician', 'Facility']) {
        const cells = await columnCells(page, column);
        expect(cells).toHaveLength(10);
        for (const cell of cells) {
          expect(cell.width, column).toBeGreaterThan(80);
          expect(cell.textWidth, column).toBeGreaterThan(40);
          expect(cell.text, column).not.toBe('');
        }
      }

      const long = table(page).locator(`[title="${LONG_NAME}"]`);
      const cut = await long.evaluate((element) => ({
        text: element.textContent,
        cut: element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1,
      }));
      expect(cut).toEqual({ text: LONG_NAME, cut: true });
      await long.hover();
      expect(await long.getAttribute('title')).toBe(LONG_NAME);
    });
  }

  it('scrolls sideways at 1280 px with the checkbox and patient columns kept in view', async () => {
    const page = await openWorklist(1280);
    const before = await measure(page);
    expect(before.scrollWidth).toBeGreaterThan(before.clientWidth);

    await table(page).evaluate((element) => {
      const scroller = element.parentElement as HTMLElement;
      scroller.scrollLeft = scroller.scrollWidth;
    });
    await expect
      .poll(async () => (await measure(page)).headers.find((header) => header.text === 'Facility')?.right)
      .toBeLessThanOrEqual(before.right);
    await session.screenshot(page, 'worklist-layout-1280-scrolled.png');
    const after = await measure(page);
    const [select, patient] = after.headers;
    expect(select?.left).toBeGreaterThanOrEqual(after.left - 1);
    expect(patient?.text).toBe('Patient');
    expect(patient?.left).toBeGreaterThanOrEqual(after.left - 1);
    expect(patient?.right).toBeLessThanOrEqual(after.left + 260);
    await expect
      .poll(() => table(page).getByRole('checkbox', { name: 'Select all on this page' }).isVisible())
      .toBe(true);
  });
});
