import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { bannerPng, png } from '../support/png.ts';
import { demoSession } from '../support/demo-session.ts';

// The demo seed (README.md): an administrator of every facility, a facility administrator of City
// General Hospital, no SMTP server (support mail waits in the outbox, which administrators read).
const ADMIN = 'admin@demo.test';
const FACILITY_ADMIN = 'facility-admin@demo.test';
const RADIOLOGIST = 'radiologist@demo.test';

const session = demoSession();
const signedIn = (email: string) => session.signedIn(email);
const screenshot = (page: Page, name: string) => session.screenshot(page, name, { fullPage: true });

async function openFromNavigation(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
}

describe('support form', () => {
  it('sends a message with an attachment; it reaches the administrators’ outbox', async () => {
    const page = await signedIn(RADIOLOGIST);
    await openFromNavigation(page, 'Support');
    const form = page.getByRole('form', { name: 'Support request' });
    // Name and e-mail come from the signed-in user.
    expect(await form.getByLabel('Your name').inputValue()).not.toBe('');
    expect(await form.getByLabel('E-mail').inputValue()).toBe(RADIOLOGIST);

    await form.getByRole('button', { name: 'Send', exact: true }).click();
    await form.getByText('Message is required').waitFor();
    await form.getByLabel('Message').fill('The worklist does not refresh after I finalize a report (e2e).');
    await form.locator('input[type=file]').setInputFiles([
      { name: 'screen.png', mimeType: 'image/png', buffer: png(64, 48, () => [40, 80, 160]) },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not accepted') },
    ]);
    await form.getByText('notes.txt: attach a PNG, JPEG, WebP or PDF file').waitFor();
    await form.getByRole('list', { name: 'Attached files' }).getByText('screen.png').waitFor();
    await screenshot(page, 'support-form.png');
    await form.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Support email sent').waitFor();
    await form.getByRole('status').filter({ hasText: 'Your message was sent to the support team' }).waitFor();
    expect(await form.getByLabel('Message').inputValue()).toBe('');

    const admin = await signedIn(ADMIN);
    await openFromNavigation(admin, 'Organisation');
    await admin.getByRole('button', { name: 'Outbox', exact: true }).click();
    const row = admin.getByRole('row').filter({ hasText: 'Support request from' });
    await row.first().waitFor();
    expect(await row.first().textContent()).toContain('in outbox');
    await row
      .first()
      .getByRole('button', { name: /^View message to / })
      .click();
    const message = admin.getByRole('dialog');
    await message.getByText('The worklist does not refresh after I finalize a report (e2e).').waitFor();
    expect(await message.textContent()).toContain('screen.png');
    await screenshot(admin, 'organisation-outbox-message.png');
  }, 120_000);
});

describe('organisation letterhead and report style', () => {
  it('shows a picked header in the page preview at once, uploads it, and keeps it after a reload', async () => {
    const page = await signedIn(ADMIN);
    await openFromNavigation(page, 'Organisation');
    const preview = page.getByRole('figure', { name: 'Letterhead preview' });
    await preview.waitFor();
    await page.getByLabel('Facility').selectOption({ label: 'City General Hospital' });
    const letterhead = page.getByRole('region', { name: 'Letterhead of City General Hospital' });
    await letterhead.waitFor();

    await letterhead.getByLabel('Choose header').setInputFiles({
      name: 'cgh-header.png',
      mimeType: 'image/png',
      buffer: bannerPng(),
    });
    const header = preview.getByRole('img', { name: 'Letterhead header' });
    await expect.poll(() => header.getAttribute('src')).toMatch(/^blob:/);
    await letterhead.getByText('cgh-header.png').waitFor();

    // The preview follows the style as it is typed: the header band grows with its height.
    const bandHeight = () => header.evaluate((img) => img.parentElement?.getBoundingClientRect().height ?? 0);
    const before = await bandHeight();
    await page.getByLabel('Header height').fill('60');
    await expect.poll(bandHeight).toBeGreaterThan(before * 1.5);
    await screenshot(page, 'organisation-letterhead-picked.png');

    await letterhead.getByRole('button', { name: 'Upload letterhead' }).click();
    await page.getByText('Letterhead uploaded').waitFor();
    await letterhead.getByText('Uploaded', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Save style' }).click();
    await page.getByText('Report style saved').waitFor();

    await page.reload();
    await page.getByLabel('Facility').selectOption({ label: 'City General Hospital' });
    await expect.poll(() => header.getAttribute('src'), { timeout: 10_000 }).toMatch(/^blob:/);
    await expect.poll(() => header.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
    expect(await page.getByLabel('Header height').inputValue()).toBe('60');
    await screenshot(page, 'organisation-letterhead.png');
  }, 120_000);

  it('lets a facility administrator manage only their facility’s letterhead', async () => {
    const page = await signedIn(FACILITY_ADMIN);
    await openFromNavigation(page, 'Organisation');
    await page.getByRole('figure', { name: 'Letterhead preview' }).waitFor();
    await page.getByRole('region', { name: 'Letterhead of City General Hospital' }).waitFor();
    expect(await page.getByLabel('Facility').count()).toBe(0);
    expect(await page.getByRole('form', { name: 'Report style' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Outbox', exact: true }).count()).toBe(0);
    await screenshot(page, 'organisation-facility-admin.png');
  }, 60_000);
});
