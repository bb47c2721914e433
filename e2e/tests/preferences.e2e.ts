import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoSession } from '../support/demo-session.ts';

// Preferences follow the person (issue 13): what one browser context sets, a fresh context of the
// same user has after sign-in. The demo seed's studies span the last 30 days.

const session = demoSession();
const USER = 'transcriptionist@demo.test';

/** Resolves with the next PUT of the user's preferences (the debounced write-back). */
function preferenceWrite(page: Page): Promise<Response> {
  return page.waitForResponse(
    (response) =>
      response.request().method() === 'PUT' &&
      /\/api\/v1\/user\/preference\/[0-9a-f-]{36}$/.test(response.url()),
    { timeout: 10_000 },
  );
}

async function openWorklist(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Worklist' }).click();
  await page.getByRole('heading', { name: 'Worklist', level: 1 }).waitFor();
  await page.getByLabel('Date range').selectOption('LAST_1_MONTH');
  await page.getByRole('table', { name: 'Worklist studies' }).locator('tbody tr').first().waitFor();
}

async function headerTexts(page: Page): Promise<string[]> {
  const texts = await page
    .getByRole('table', { name: 'Worklist studies' })
    .locator('thead th')
    .allTextContents();
  return texts.map((text) => text.trim()).filter(Boolean);
}

async function isDark(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.classList.contains('dark'));
}

describe('preferences', () => {
  it('a column hidden in one browser context is hidden in a fresh context of the same user', async () => {
    const first = await session.signedIn(USER);
    await openWorklist(first);
    expect(await headerTexts(first)).toContain('Facility');

    await first.getByRole('button', { name: 'Columns' }).click();
    const dialog = first.getByRole('dialog', { name: 'Worklist settings' });
    await dialog.locator('[data-column]').first().waitFor();
    const written = preferenceWrite(first);
    await dialog.getByRole('checkbox', { name: 'Facility', exact: true }).uncheck();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => headerTexts(first)).not.toContain('Facility');
    const response = await written;
    expect(response.status()).toBe(200);
    const saved = (await response.json()) as {
      user: { worklist_columns?: { id: string; visible: boolean }[] };
      sources: Record<string, string>;
    };
    expect(saved.user.worklist_columns?.find((column) => column.id === 'facility')?.visible).toBe(false);
    expect(saved.sources.worklist_columns).toBe('USER');

    // The theme, chosen in the header, follows too.
    expect(await isDark(first)).toBe(true);
    const themeWritten = preferenceWrite(first);
    await first.getByRole('button', { name: 'Switch to light theme' }).click();
    expect((await themeWritten).status()).toBe(200);

    const second = await session.signedIn(USER);
    expect(await isDark(second)).toBe(false);
    await openWorklist(second);
    const headers = await headerTexts(second);
    expect(headers).not.toContain('Facility');
    expect(headers).toContain('Status');
    expect(headers[0]).toBe('Patient');
    await second.getByRole('button', { name: 'Columns' }).click();
    const settings = second.getByRole('dialog', { name: 'Worklist settings' });
    await settings.locator('[data-column]').first().waitFor();
    expect(await settings.getByRole('checkbox', { name: 'Facility', exact: true }).isChecked()).toBe(false);
    await session.screenshot(second, 'preferences-second-context.png');
  });
});
