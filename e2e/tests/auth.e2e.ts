import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';
import { startE2eServer, type TE2eServer } from '../support/server.ts';

// The demo accounts of README.md, all with the demo password.
const DEMO_ACCOUNTS = [
  { email: 'admin@demo.test', role: 'Admin' },
  { email: 'facility-admin@demo.test', role: 'Facility Admin' },
  { email: 'radiologist@demo.test', role: 'Radiologist' },
  { email: 'reporter@demo.test', role: 'Radiologist' },
  { email: 'transcriptionist@demo.test', role: 'Transcriptionist' },
  { email: 'referrer@demo.test', role: 'Referring Physician' },
] as const;

let server: TE2eServer;
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startE2eServer({ env: { RIS_SEED_DEMO: 'true' } }),
    launchBrowser(),
  ]);
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A page in a fresh browser context: its own cookies and storage, like a new browser profile. */
async function freshPage(): Promise<Page> {
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  return context.newPage();
}

async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function signIn(page: Page, email: string): Promise<void> {
  await submitLogin(page, email, DEMO_PASSWORD);
  await page.waitForURL(`${server.url}/`);
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
}

/** Every storage value of the page, to prove no token was written anywhere. */
function storedText(page: Page): Promise<string> {
  return page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }));
}

describe('sign-in', () => {
  it.each(DEMO_ACCOUNTS)('$email signs in and lands on home', async ({ email, role }) => {
    const page = await freshPage();
    await submitLogin(page, email, DEMO_PASSWORD);
    // The toast lasts Sonner's 4 s: looked for while the home screen loads, not once it has (on a
    // loaded machine the home took longer than the toast, and the test failed).
    await Promise.all([
      page.getByText('Signed in successfully').waitFor(),
      page.getByRole('heading', { name: 'Home', level: 1 }).waitFor(),
    ]);
    expect(new URL(page.url()).pathname).toBe('/');
    const header = page.getByRole('banner');
    await header.getByText(role, { exact: true }).waitFor();
    // The ID token lives in memory only: no JWT in sessionStorage or localStorage.
    expect(await storedText(page)).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
  });

  it('shows "Invalid username or password" for a wrong password and stays on /login', async () => {
    const page = await freshPage();
    await submitLogin(page, 'radiologist@demo.test', 'not-the-password');
    await page.getByText('Invalid username or password').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.getByRole('button', { name: 'Sign in', exact: true }).isEnabled()).toBe(true);
  });

  it('checks the fields inline before asking the server', async () => {
    const page = await freshPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Invalid email address').waitFor();
    await page.getByText('Enter your password').waitFor();
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('route guard and session', () => {
  it('sends a radiologist who opens the admin-only /organisation to /, and lets an admin in', async () => {
    const page = await freshPage();
    await signIn(page, 'radiologist@demo.test');
    expect(await page.getByRole('navigation', { name: 'Main' }).getByText('Organisation').count()).toBe(0);
    await page.goto(`${server.url}/organisation`);
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await context?.close();

    const adminPage = await freshPage();
    await signIn(adminPage, 'admin@demo.test');
    await adminPage
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Organisation' })
      .click();
    await adminPage.waitForURL(`${server.url}/organisation`);
    await adminPage.getByRole('heading', { name: 'Organisation', level: 1 }).waitFor();
  });

  it('keeps the session across a reload (refresh cookie), with the ID token still only in memory', async () => {
    const page = await freshPage();
    await signIn(page, 'transcriptionist@demo.test');
    await page.goto(`${server.url}/worklist`);
    await page.getByRole('heading', { name: 'Worklist', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Worklist', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/worklist');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await storedText(page)).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
  });

  it('shares one session between tabs: rotations do not clash, and sign-out reaches every tab', async () => {
    const first = await freshPage();
    await signIn(first, 'radiologist@demo.test');
    const second = await first.context().newPage();
    // The second tab restores the session (rotating the refresh cookie); the first then reloads
    // with the rotated cookie: had the old one been reused, the server would have revoked both.
    await second.goto(`${server.url}/`);
    await second.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await first.reload();
    await first.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

    await second.getByRole('button', { name: 'Sign out' }).click();
    await second.waitForURL(`${server.url}/login`);
    await first.waitForURL(`${server.url}/login`);
  });

  it('signs out: clears sessionStorage, returns to /login, and a reload stays signed out', async () => {
    const page = await freshPage();
    await signIn(page, 'reporter@demo.test');
    await page.evaluate(() => sessionStorage.setItem('ris-probe', 'left behind?'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.goto(`${server.url}/`);
    await page.waitForURL(`${server.url}/login`);
  });
});
