import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpCapture, type TSmtpCapture } from '../../apps/server/src/test/smtp-capture.ts';
import { api, apiSignIn, type TApiUser } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';
import { startE2eServer, type TE2eServer } from '../support/server.ts';
import { signInAs } from '../support/sign-in.ts';

// Onboarding and offboarding a radiologist, end to end: the demo seed (README.md) with its three
// facilities, and a real SMTP server on 127.0.0.1 receiving the invitation (account mail carries a
// sign-in link, so it is never listed in the admins' outbox screen).

const ADMIN = 'admin@demo.test';
const NEW_EMAIL = 'meera.iyer@e2e.test';
const NEW_PASSWORD = 'reading-room-2026';
const DISPLAY_NAME = 'Dr Meera Iyer';
const FACILITIES = ['City General Hospital', 'Lakeside Imaging Centre'];
const SCREENSHOTS = process.env.RIS_E2E_SCREENSHOTS;

let server: TE2eServer;
let browser: Browser;
let smtp: TSmtpCapture;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  smtp = await startSmtpCapture();
  [server, browser] = await Promise.all([
    startE2eServer({ env: { RIS_SEED_DEMO: 'true', SMTP_URL: smtp.url } }),
    launchBrowser(),
  ]);
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.close();
});

async function freshPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  contexts.push(context);
  return context.newPage();
}

async function screenshot(page: Page, name: string): Promise<void> {
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}` });
}

/** The total of GET /worklist over the last month for `user` with extra query parameters. */
async function worklistTotal(user: TApiUser, extra: [string, string][] = []): Promise<number> {
  const query = new URLSearchParams([['date_range_type', 'LAST_1_MONTH'], ['limit', '1'], ...extra]);
  const page = await api<{ total: number }>(server.url, user, 'GET', `/worklist?${query.toString()}`);
  return page.total;
}

async function openUsersTab(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organisation' }).click();
  await page.getByRole('tab', { name: 'Users' }).click();
  await page.getByRole('table', { name: 'Users' }).getByRole('row').nth(1).waitFor();
  expect(new URL(page.url()).searchParams.get('tab')).toBe('users');
}

describe('onboarding and offboarding a radiologist', () => {
  it('an admin invites a radiologist for two facilities, who sets a password, sees those studies and is signed out when disabled', async () => {
    // The admin adds the radiologist.
    const admin = await freshPage();
    await signInAs(admin, server.url, ADMIN);
    await openUsersTab(admin);
    await admin.getByRole('button', { name: 'Add user' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Add a user' });
    await dialog.getByLabel('Role').selectOption({ label: 'Radiologist' });
    await dialog.getByLabel('First name').fill('Meera');
    await dialog.getByLabel('Last name').fill('Iyer');
    await dialog.getByLabel('E-mail').fill(NEW_EMAIL);
    await dialog.getByLabel('Display name').fill(DISPLAY_NAME);
    await dialog.getByLabel('Description').fill('MD Radiology\nReg. KMC 55421');
    // Without a facility the form says so on the field, and sends nothing.
    await dialog.getByRole('button', { name: 'Add and invite' }).click();
    await dialog.getByText('Choose at least one facility').waitFor();
    for (const name of FACILITIES) await dialog.getByRole('checkbox', { name }).check();
    await screenshot(admin, 'users-create-radiologist.png');
    await dialog.getByRole('button', { name: 'Add and invite' }).click();
    await admin.getByText(`${DISPLAY_NAME} was added; an invitation was sent to ${NEW_EMAIL}`).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await admin.getByRole('searchbox', { name: 'Search users' }).fill('meera');
    const row = admin.getByRole('row').filter({ hasText: NEW_EMAIL });
    await row.getByText('Invited', { exact: true }).waitFor();
    expect(await row.textContent()).toContain(FACILITIES.join(', '));

    // The invitation arrives with a one-time link to choose a password.
    const mail = await smtp.nextMail();
    expect(mail.to).toEqual([NEW_EMAIL]);
    const link = /http:\/\/127\.0\.0\.1:\d+\/forgot-password\?token=[A-Za-z0-9_-]+/.exec(mail.decoded)?.[0];
    if (!link) throw new Error(`no link in the invitation:\n${mail.decoded}`);

    const radiologist = await freshPage();
    await radiologist.goto(link);
    await radiologist.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await radiologist.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await radiologist.getByRole('button', { name: 'Set new password' }).click();
    await radiologist.waitForURL((url) => url.pathname === '/login');
    // The link worked once.
    expect(smtp.received.filter((received) => received.to.includes(NEW_EMAIL))).toHaveLength(1);

    // Signed in, the radiologist works in exactly those two facilities.
    await signInAs(radiologist, server.url, NEW_EMAIL, NEW_PASSWORD);
    await radiologist
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Worklist' })
      .click();
    await radiologist.getByLabel('Date range').selectOption('LAST_1_MONTH');
    const summary = radiologist.getByRole('navigation', { name: 'Worklist pages' }).locator('p');
    await expect.poll(() => summary.textContent(), { timeout: 10_000 }).toMatch(/^1–10 of \d+$/);
    await radiologist.getByRole('button', { name: 'Facility: all' }).click();
    const options = radiologist.getByRole('group', { name: 'Facility' }).getByRole('checkbox');
    expect(
      (await options.evaluateAll((boxes) => boxes.map((box) => box.parentElement?.textContent))).sort(),
    ).toEqual(FACILITIES);
    await radiologist.keyboard.press('Escape');
    const headers = (await radiologist.locator('table thead th').allTextContents()).map((text) =>
      text.trim(),
    );
    const facilityCells = await radiologist
      .locator(`table tbody tr td:nth-child(${headers.indexOf('Facility') + 1})`)
      .allTextContents();
    expect(facilityCells.length).toBeGreaterThan(0);
    for (const cell of facilityCells) expect(FACILITIES).toContain(cell.trim());
    await screenshot(radiologist, 'new-radiologist-worklist.png');

    // The same studies as the admin sees in those two facilities (deleted ones are for admins only).
    const adminApi = await apiSignIn(server.url, ADMIN);
    const radiologistApi = await apiSignIn(server.url, NEW_EMAIL, NEW_PASSWORD);
    const me = await api<{ facilities: { id: string; name: string }[] }>(
      server.url,
      radiologistApi,
      'GET',
      `/user/details/${radiologistApi.id}`,
    );
    expect(me.facilities.map((facility) => facility.name).sort()).toEqual(FACILITIES);
    const listed = ['ORDERED', 'TO_READ', 'ASSIGNED', 'IN_REVIEW', 'DRAFTED', 'FINAL'].map(
      (status): [string, string] => ['statuses', status],
    );
    const mine = await worklistTotal(radiologistApi, listed);
    const theirs = await worklistTotal(adminApi, [
      ...listed,
      ...me.facilities.map((facility): [string, string] => ['facility_ids', facility.id]),
    ]);
    expect(mine).toBe(theirs);
    expect(mine).toBeLessThan(await worklistTotal(adminApi, listed));
    expect(await summary.textContent()).toBe(`1–10 of ${await worklistTotal(radiologistApi)}`);

    // The admin disables the radiologist; the open worklist tab is signed out without a click.
    await radiologist.locator('[data-connection="connected"]').waitFor({ timeout: 15_000 });
    await row.getByRole('button', { name: `Actions for ${DISPLAY_NAME}` }).click();
    await admin.getByRole('menuitem', { name: 'Disable…' }).click();
    const confirm = admin.getByRole('dialog', { name: `Disable ${DISPLAY_NAME}?` });
    await confirm.getByRole('button', { name: 'Disable', exact: true }).click();
    await admin.getByText(`${DISPLAY_NAME} was disabled`).waitFor();
    await row.getByText('Disabled', { exact: true }).waitFor();

    await radiologist.getByLabel('Email').waitFor({ timeout: 15_000 });
    expect(new URL(radiologist.url()).pathname).toBe('/login');
    // And the account no longer signs in.
    const refused = await fetch(`${server.url}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: NEW_EMAIL, password: NEW_PASSWORD }),
    });
    expect(refused.status).toBe(403);
  }, 180_000);
});
