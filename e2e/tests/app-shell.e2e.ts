import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { startE2eServer, type TE2eServer } from '../support/server.ts';

let server: TE2eServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startE2eServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('app shell', () => {
  it('sends a signed-out visitor of / to the sign-in page, in the dark theme', async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForURL('**/login');
    // waitFor() retries until the element is visible (or the test times out): no fixed sleeps.
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ state: 'visible' });
    await page.getByLabel('Email').waitFor({ state: 'visible' });
    await page.getByLabel('Password').waitFor({ state: 'visible' });
    expect(await page.getByRole('button', { name: 'Sign in' }).isEnabled()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.close();
  });

  it('serves deep links from the server and shows the not-found page for unknown paths', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${server.url}/this/does/not/exist`);
    expect(response?.status()).toBe(200);
    await page
      .getByText(/not found/i)
      .first()
      .waitFor();
    await page.close();
  });
});
