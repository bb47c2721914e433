import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { startE2eServer, type TE2eServer } from '../support/server.ts';
import { signInAs } from '../support/sign-in.ts';

// The demo seed (README.md): Dr Asha Rao is radiologist@demo.test, working in all three facilities.
const RADIOLOGIST_NAME = 'Dr Asha Rao';

let server: TE2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startE2eServer({ env: { RIS_SEED_DEMO: 'true' } }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.close();
});

async function freshPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  contexts.push(context);
  return context.newPage();
}

async function signIn(page: Page, email: string): Promise<void> {
  await signInAs(page, server.url, email);
}

async function openWorklist(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Worklist' }).click();
  await page.getByRole('heading', { name: 'Worklist', level: 1 }).waitFor();
  await page.getByLabel('Date range').selectOption('LAST_1_MONTH');
}

function bell(page: Page): Locator {
  return page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
}

describe('notifications', () => {
  it('a study assigned in one browser raises the radiologist’s bell live in another; choosing it marks it read', async () => {
    const admin = await freshPage();
    const radiologist = await freshPage();
    await Promise.all([signIn(admin, 'admin@demo.test'), signIn(radiologist, 'radiologist@demo.test')]);
    await Promise.all([openWorklist(admin), openWorklist(radiologist)]);
    // The radiologist's screen is live and has nothing unread yet.
    await radiologist.locator('[data-connection="connected"]').waitFor({ timeout: 15_000 });
    await expect.poll(() => bell(radiologist).getAttribute('aria-label')).toBe('Notifications');

    // The admin assigns a To Read study to the radiologist from the table.
    await admin.getByRole('button', { name: /^Status:/ }).click();
    await admin.getByRole('checkbox', { name: 'To Read', exact: true }).check();
    await admin.keyboard.press('Escape');
    const rows = admin.getByRole('table', { name: 'Worklist studies' }).locator('tbody tr');
    await expect.poll(() => rows.first().textContent(), { timeout: 10_000 }).toContain('To Read');
    const row = rows.first();
    const patient = ((await row.getByRole('button').first().textContent()) ?? '').trim();
    expect(patient).not.toBe('');
    await row.getByRole('checkbox').check();
    await admin
      .getByRole('toolbar', { name: 'Actions on selected studies' })
      .getByRole('button', { name: 'Assign', exact: true })
      .click();
    const picker = admin.getByRole('dialog', { name: 'Assign radiologist' });
    await picker.getByRole('radio', { name: RADIOLOGIST_NAME }).check();
    await picker.getByRole('button', { name: 'Assign', exact: true }).click();
    await admin.getByText('Assigned 1 study').waitFor();

    // Arrives over the socket: the badge counts it without a reload.
    await expect
      .poll(() => bell(radiologist).getAttribute('aria-label'), { timeout: 10_000 })
      .toBe('Notifications, 1 unread');
    expect(await radiologist.getByTestId('notification-count').textContent()).toBe('1');

    await bell(radiologist).click();
    const popover = radiologist.getByRole('dialog', { name: 'Notifications' });
    const entry = popover.locator('[data-notification-id]').first();
    await expect.poll(() => entry.textContent()).toContain('A study was assigned to you');
    expect(await entry.textContent()).toContain(patient);
    expect(await entry.getAttribute('data-read')).toBe('false');
    await entry.click();

    // Read at once, and the study it is about is open.
    await radiologist.waitForURL(/\/worklist\/[0-9a-f-]{36}$/);
    await expect.poll(() => bell(radiologist).getAttribute('aria-label')).toBe('Notifications');
    expect(await radiologist.getByTestId('notification-count').count()).toBe(0);
    // The server kept it read: after a reload nothing is unread and the entry shows as read.
    await radiologist.reload();
    await bell(radiologist).click();
    const reloaded = radiologist
      .getByRole('dialog', { name: 'Notifications' })
      .locator('[data-notification-id]');
    await expect.poll(() => reloaded.first().getAttribute('data-read')).toBe('true');
    expect(await bell(radiologist).getAttribute('aria-label')).toBe('Notifications');
  });
});
