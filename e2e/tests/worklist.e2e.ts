import type { Browser, BrowserContext, Locator, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, apiSignIn } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';
import { startE2eServer, type TE2eServer } from '../support/server.ts';
import { signInAs } from '../support/sign-in.ts';

// The demo seed (README.md): 240 studies over the last 30 days in three facilities.

let server: TE2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startE2eServer({ env: { RIS_SEED_DEMO: 'true' } }),
    launchBrowser(),
  ]);
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
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

function table(page: Page): Locator {
  return page.getByRole('table', { name: 'Worklist studies' });
}

function dataRows(page: Page): Locator {
  return table(page).locator('tbody tr');
}

function pageSummary(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Worklist pages' }).locator('p');
}

/** Opens the worklist over the last month (the demo studies span 30 days) and waits for rows. */
async function openWorklist(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Worklist' }).click();
  await page.getByRole('heading', { name: 'Worklist', level: 1 }).waitFor();
  await page.getByLabel('Date range').selectOption('LAST_1_MONTH');
  await expectSummary(page, /^1–10 of \d+$/);
}

async function expectSummary(page: Page, pattern: RegExp): Promise<string> {
  await expect.poll(() => pageSummary(page).textContent(), { timeout: 10_000 }).toMatch(pattern);
  return (await pageSummary(page).textContent()) ?? '';
}

/** The text of one column's cells on the current page, by header name. */
async function columnTexts(page: Page, header: string): Promise<string[]> {
  const headers = await table(page).locator('thead th').allTextContents();
  const index = headers.findIndex((text) => text.trim() === header);
  expect(index).toBeGreaterThanOrEqual(0);
  return dataRows(page)
    .locator(`td:nth-child(${index + 1})`)
    .allTextContents();
}

async function headerTexts(page: Page): Promise<string[]> {
  const texts = await table(page).locator('thead th').allTextContents();
  return texts.map((text) => text.trim()).filter(Boolean);
}

async function waitLive(page: Page): Promise<void> {
  await page.locator('[data-connection="connected"]').waitFor({ timeout: 15_000 });
}

async function chooseFilter(page: Page, filter: string, option: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${filter}:`) }).click();
  await page.getByRole('checkbox', { name: option, exact: true }).check();
  await page.keyboard.press('Escape');
}

describe('worklist', () => {
  it('filters by tab, status, modality and search, and pages through the results', async () => {
    const page = await freshPage();
    await signIn(page, 'admin@demo.test');
    await openWorklist(page);
    const total = Number((await expectSummary(page, /of \d+$/)).split(' of ')[1]);
    expect(total).toBeGreaterThan(20);
    expect(Number(await page.getByTestId('count-ALL').textContent())).toBe(total);
    expect(await dataRows(page).count()).toBe(10);

    await page.getByRole('button', { name: 'Next page' }).click();
    await expectSummary(page, new RegExp(`^11–20 of ${total}$`));
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expectSummary(page, new RegExp(`^1–10 of ${total}$`));

    // The Completed tab lists only final studies; its count is the total it pages through.
    const completed = Number(await page.getByTestId('count-COMPLETED').textContent());
    await page.getByRole('button', { name: /^Completed/ }).click();
    await expectSummary(page, new RegExp(`of ${completed}$`));
    expect(new Set(await columnTexts(page, 'Status'))).toEqual(new Set(['Final']));

    // Page size is remembered (a preference of the user: put back, so later tests start at 10).
    await page.getByRole('button', { name: /^All/ }).click();
    await page.getByLabel('Rows per page').selectOption('25');
    await expectSummary(page, new RegExp(`^1–25 of ${total}$`));
    await page.reload();
    await expectSummary(page, new RegExp(`^1–25 of ${total}$`));
    const putBack = page.waitForResponse(
      (response) => response.request().method() === 'PUT' && response.url().includes('/user/preference/'),
    );
    await page.getByLabel('Rows per page').selectOption('10');
    expect((await putBack).status()).toBe(200);

    await chooseFilter(page, 'Modality', 'CT');
    await expect
      .poll(async () => (await columnTexts(page, 'Modality')).every((text) => text.startsWith('CT')))
      .toBe(true);

    await chooseFilter(page, 'Status', 'To Read');
    await expect.poll(async () => new Set(await columnTexts(page, 'Status'))).toEqual(new Set(['To Read']));

    const [patientId] = await columnTexts(page, 'Patient ID');
    expect(patientId).toBeTruthy();
    await page.getByRole('searchbox', { name: /Search patient/ }).fill(patientId ?? '');
    await expectSummary(page, /^1–\d+ of \d+$/);
    await expect
      .poll(async () => (await columnTexts(page, 'Patient ID')).every((id) => id === patientId))
      .toBe(true);
  });

  it('assigns a radiologist from the table, and a second browser sees it live without a reload', async () => {
    const admin = await freshPage();
    const watcher = await freshPage();
    await Promise.all([signIn(admin, 'admin@demo.test'), signIn(watcher, 'radiologist@demo.test')]);
    await Promise.all([openWorklist(admin), openWorklist(watcher)]);
    await chooseFilter(admin, 'Status', 'To Read');
    await expect.poll(async () => new Set(await columnTexts(admin, 'Status'))).toEqual(new Set(['To Read']));
    const [patientId] = await columnTexts(admin, 'Patient ID');
    const row = (page: Page): Locator => dataRows(page).filter({ hasText: patientId ?? '' });

    // The watcher narrows its list to that study, then waits with a live connection.
    await watcher.getByRole('searchbox', { name: /Search patient/ }).fill(patientId ?? '');
    await expect.poll(() => row(watcher).count()).toBeGreaterThan(0);
    await waitLive(watcher);

    await row(admin).first().getByRole('checkbox').check();
    const toolbar = admin.getByRole('toolbar', { name: 'Actions on selected studies' });
    await toolbar.getByRole('button', { name: 'Assign', exact: true }).click();
    const dialog = admin.getByRole('dialog', { name: 'Assign radiologist' });
    const option = dialog.getByRole('radio').first();
    await option.waitFor();
    const radiologist = (
      (await dialog.locator('label:has(input[type=radio])').first().textContent()) ?? ''
    ).trim();
    await option.check();
    await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
    await admin.getByText('Assigned 1 study').waitFor();
    // Now Assigned, the study has left the admin's To Read list.
    await expect.poll(() => row(admin).count()).toBe(0);

    // Arrives over the socket: no reload, no refetch of the watcher's list.
    await expect.poll(() => row(watcher).first().textContent(), { timeout: 10_000 }).toContain(radiologist);
    await expect.poll(() => row(watcher).first().textContent()).toContain('Assigned');
  });

  it('reads its pages again when its live connection gets through after an assignment it missed', async () => {
    const watcher = await freshPage();
    await signIn(watcher, 'radiologist@demo.test');
    const [admin, radiologist] = await Promise.all([
      apiSignIn(server.url, 'admin@demo.test'),
      apiSignIn(server.url, 'radiologist@demo.test'),
    ]);
    const waiting = await api<{ items: { id: string; accession_number: string }[] }>(
      server.url,
      radiologist,
      'GET',
      '/worklist?statuses=TO_READ&date_range_type=LAST_1_MONTH&limit=1',
    );
    const study = waiting.items[0];
    if (!study) throw new Error('the demo seed has no TO_READ study');
    // The next live connections are held before they reach the server, as a network drop would.
    const held: WebSocketRoute[] = [];
    await watcher.routeWebSocket(/\/ws\//, (socket) => void held.push(socket));
    await openWorklist(watcher);
    await watcher.reload();
    await watcher.getByRole('heading', { name: 'Worklist', level: 1 }).waitFor();
    await watcher.getByLabel('Date range').selectOption('LAST_1_MONTH');
    // Its accession (SM and 8 random characters) is the study's alone: the list narrows to its row.
    await watcher.getByRole('searchbox', { name: /Search patient/ }).fill(study.accession_number);
    await expectSummary(watcher, /^1–1 of 1$/);
    const row = dataRows(watcher).first();
    expect(await row.textContent()).toContain('To Read');
    await expect.poll(() => held.length).toBeGreaterThan(0);

    // Assigned meanwhile: the message goes to no one.
    await api(server.url, admin, 'PUT', '/worklist/assign/radiologist', {
      worklist_ids: [study.id],
      last_assigned_user_fk: radiologist.id,
    });
    expect(await row.textContent()).toContain('To Read');

    // The connection gets through: once it has rejoined its topics the list is read again.
    await watcher.unrouteAll();
    for (const socket of held) socket.connectToServer();
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain('Assigned');
    expect(await row.textContent()).toContain(radiologist.displayName);
  });

  it('keeps column settings (visibility and order) for the user across a reload', async () => {
    const page = await freshPage();
    await signIn(page, 'radiologist@demo.test');
    await openWorklist(page);
    await page.getByRole('button', { name: 'Columns' }).click();
    const dialog = page.getByRole('dialog', { name: 'Worklist settings' });
    // The dialog's code loads on first use: wait for its rows before reading them.
    await dialog.locator('[data-column]').first().waitFor();
    const listed = await dialog
      .locator('[data-column]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-column')));
    expect(listed[0]).toBe('patient_name');
    expect(listed).not.toContain('series_count');
    expect(listed).not.toContain('actions');
    expect(await dialog.getByRole('checkbox', { name: 'Patient', exact: true }).isDisabled()).toBe(true);

    await dialog.getByRole('checkbox', { name: 'Facility', exact: true }).uncheck();
    // Drag Status by its handle onto Patient ID.
    const from = await dialog.getByRole('button', { name: 'Move Status' }).boundingBox();
    const to = await dialog.locator('[data-column="patient_id"]').boundingBox();
    if (!from || !to) throw new Error('settings rows not laid out');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + 12, to.y + to.height / 4, { steps: 12 });
    await page.mouse.up();
    await expect
      .poll(() =>
        dialog
          .locator('[data-column]')
          .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-column'))),
      )
      .toEqual([
        'patient_name',
        'status',
        'patient_id',
        'modality',
        'study',
        'datetime',
        'radiologist',
        'referring_physician',
        'facility',
      ]);
    await dialog.getByRole('button', { name: 'Done' }).click();

    const expected = async (): Promise<void> => {
      const headers = await headerTexts(page);
      expect(headers[0]).toBe('Patient');
      expect(headers[1]).toBe('Status');
      expect(headers).not.toContain('Facility');
      expect(headers.at(-1)).toBe('Actions');
    };
    await expect.poll(async () => (await headerTexts(page))[1]).toBe('Status');
    await expected();
    await page.reload();
    await expectSummary(page, /^1–10 of \d+$/);
    await expected();
  });

  it('opens studies in tabs: close activates the previous or first, clear all empties them', async () => {
    const page = await freshPage();
    await signIn(page, 'admin@demo.test');
    await openWorklist(page);
    const tabs = page.getByRole('navigation', { name: 'Open studies' });
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const open = dataRows(page).nth(index).getByRole('button').first();
      const name = ((await open.textContent()) ?? '').trim();
      await open.click();
      await page.waitForURL(/\/worklist\/[0-9a-f-]{36}$/);
      ids.push(new URL(page.url()).pathname.split('/').pop() ?? '');
      // The study header shows the real item.
      await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
      await page.goBack();
      await expectSummary(page, /of \d+$/);
    }
    const openTabs = tabs.locator('li');
    await expect.poll(() => openTabs.count()).toBe(3);
    await expect.poll(() => tabs.locator('li[data-active]').getAttribute('data-tab-id')).toBe(ids[2]);

    // Show the third tab, close it: the previous (second) becomes active and is shown.
    await tabs.locator(`li[data-tab-id="${ids[2]}"] a`).click();
    await page.waitForURL(`${server.url}/worklist/${ids[2]}`);
    await tabs.locator(`li[data-tab-id="${ids[2]}"]`).getByRole('button').click();
    await page.waitForURL(`${server.url}/worklist/${ids[1]}`);
    expect(await tabs.locator('li[data-active]').getAttribute('data-tab-id')).toBe(ids[1]);

    // Activate the first, close it: no previous, so the first remaining (the second) is active.
    await tabs.locator(`li[data-tab-id="${ids[0]}"] a`).click();
    await page.waitForURL(`${server.url}/worklist/${ids[0]}`);
    await tabs.locator(`li[data-tab-id="${ids[0]}"]`).getByRole('button').click();
    await page.waitForURL(`${server.url}/worklist/${ids[1]}`);
    expect(await tabs.locator('li[data-active]').getAttribute('data-tab-id')).toBe(ids[1]);

    // Tabs live in sessionStorage: a reload keeps them.
    await page.reload();
    // A reload restores the session first (refresh, user, details): wait as long as any other screen.
    await expect.poll(() => openTabs.count(), { timeout: 15_000 }).toBe(1);

    await tabs.getByRole('button', { name: 'Close all' }).click();
    await page.waitForURL(`${server.url}/worklist`);
    expect(await tabs.count()).toBe(0);
  });

  it('creates an order for a new patient with a document, then activates it', async () => {
    const page = await freshPage();
    await signIn(page, 'admin@demo.test');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New order' }).click();
    const dialog = page.getByRole('dialog', { name: 'New order' });
    await dialog.getByRole('button', { name: 'New patient' }).click();
    await dialog.getByLabel('Patient name', { exact: true }).fill('Asha Menon E2E');
    await dialog.getByLabel('Sex').selectOption('F');
    await dialog.getByLabel('Study', { exact: true }).fill('CT Head');
    await dialog.getByLabel('Referring physician').fill('Dr E2E Referrer');
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'referral.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
    });
    await dialog.getByText('referral.pdf').waitFor();
    await dialog.getByRole('button', { name: 'Create order' }).click();
    await page.getByText(/^Order SM[A-Z0-9]{8} created for Asha Menon E2E$/).waitFor();

    const row = page.locator('tbody tr').filter({ hasText: 'Asha Menon E2E' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('Dr E2E Referrer');
    await row.getByRole('button', { name: 'Activate the order of Asha Menon E2E' }).click();
    const activate = page.getByRole('dialog', { name: 'Activate order' });
    await activate.getByRole('button', { name: 'Activate', exact: true }).click();
    await page.getByText('Activated the order of Asha Menon E2E').waitFor();
    await expect.poll(() => row.count()).toBe(0);
  });
});
