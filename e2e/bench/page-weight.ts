// What the browser downloads before a screen shows: the gzipped bytes of every JavaScript response
// (each body gzipped here at the default level, so the figure does not depend on whether the
// server compresses), for /login and then for the worklist after signing in.
import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { DEMO_PASSWORD } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';
import { startE2eServer } from '../support/server.ts';

export type TPageWeight = { screen: string; scripts: number; gzipKb: number };

type TTaken = { scripts: number; gzipBytes: number };

/** The chunks loaded after a screen shows (apps/web/vite.config.ts names them): toasts, realtime. */
const AFTER_SHOWN_CHUNKS = /\/assets\/(sonner|socket-io)-[\w-]{8}\.js$/;

/**
 * The scripts a page downloads, once per URL (a script the browser has already is not counted).
 * `only` keeps the URLs it accepts (the scripts requested before a screen showed).
 */
function collectScripts(
  page: Page,
  seen = new Set<string>(),
): (only?: (url: string) => boolean) => Promise<TTaken> {
  // Bodies are read as they arrive: after a navigation the browser no longer has them.
  const bodies: Promise<{ url: string; body: Buffer } | null>[] = [];
  page.on('response', (response: Response) => {
    if (response.request().resourceType() !== 'script' || seen.has(response.url())) return;
    seen.add(response.url());
    const url = response.url();
    bodies.push(
      response
        .body()
        .then((body) => ({ url, body }))
        .catch(() => null),
    );
  });
  return async (only = () => true) => {
    const arrived = (await Promise.all(bodies.splice(0))).filter((got) => got !== null);
    const taken = arrived.filter((got) => only(got.url));
    // The others stay for the next call.
    for (const got of arrived) if (!only(got.url)) bodies.push(Promise.resolve(got));
    return {
      scripts: taken.length,
      gzipBytes: taken.reduce((sum, got) => sum + gzipSync(got.body).length, 0),
    };
  };
}

/**
 * Notes (in window.__risShownAt) the moment a screen first shows, so the bench can tell the scripts
 * the screen needed from those fetched afterwards (the schemas that read /auth/config, the toast
 * region). The sign-in screen shows with its button; the worklist with its first study row, or the
 * empty state (the Today preset is empty just after midnight).
 */
function noteWhenShown(screen: string): void {
  const shown = (): boolean =>
    screen === 'sign-in'
      ? Array.from(document.querySelectorAll('button')).some((button) => button.textContent === 'Sign in')
      : document.querySelector('tbody tr') !== null ||
        (document.body.textContent ?? '').includes('No studies match these filters.');
  const note = (): boolean => {
    if (!shown()) return false;
    Object.assign(window, { __risShownAt: performance.now() });
    return true;
  };
  const observer = new MutationObserver(() => {
    if (note()) observer.disconnect();
  });
  document.addEventListener('DOMContentLoaded', () => {
    if (!note()) observer.observe(document.body, { childList: true, subtree: true });
  });
}

/** The URLs of the scripts whose request started before the screen showed. */
async function scriptsBeforeShown(page: Page): Promise<Set<string>> {
  await page.waitForFunction(() => '__risShownAt' in window);
  const urls = await page.evaluate(() => {
    const shownAt = (window as unknown as { __risShownAt: number }).__risShownAt;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => entry.startTime < shownAt)
      .map((entry) => entry.name);
  });
  return new Set(urls);
}

/** The worklist has answered: a study row, or the empty state (the default preset is Today, which
 * holds no demo study just after midnight). */
function listShown(page: Page): Promise<void> {
  return page.getByRole('row').nth(1).or(page.getByText('No studies match these filters.')).first().waitFor();
}

export async function measurePageWeight(): Promise<TPageWeight[]> {
  const [server, browser] = await Promise.all([
    startE2eServer({ env: { RIS_SEED_DEMO: 'true' }, embedded: true }),
    launchBrowser(),
  ]);
  try {
    const page = await (await browser.newContext()).newPage();
    await page.addInitScript(noteWhenShown, 'sign-in');
    const take = collectScripts(page);
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    const before = await scriptsBeforeShown(page);
    // What the screen fetches once shown (the zod schemas that read /auth/config) also counts in total.
    await page.waitForLoadState('networkidle');
    const login = await take((url) => before.has(url));
    const afterShown = await take();
    await page.getByLabel('Email').fill('admin@demo.test');
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await page.goto(`${server.url}/worklist`);
    await page.getByRole('heading', { name: 'Worklist', level: 1 }).waitFor();
    await listShown(page);
    // A fresh page load of the worklist by a signed-in user: everything it needs, from nothing.
    const signedIn = await take();
    const fresh = await (
      await browser.newContext({ storageState: await page.context().storageState() })
    ).newPage();
    await fresh.addInitScript(noteWhenShown, 'worklist');
    const takeFresh = collectScripts(fresh);
    await fresh.goto(`${server.url}/worklist`);
    await fresh.getByRole('heading', { name: 'Worklist', level: 1 }).waitFor();
    await listShown(fresh);
    const listed = await scriptsBeforeShown(fresh);
    const worklist = await takeFresh((url) => listed.has(url));
    // What the worklist needs: the list still shows with the toast and realtime libraries refused.
    const storageState = await page.context().storageState();
    const needy = await (await browser.newContext({ storageState })).newPage();
    await needy.route(AFTER_SHOWN_CHUNKS, (route) => route.abort());
    const takeNeeded = collectScripts(needy);
    await needy.goto(`${server.url}/worklist`);
    await listShown(needy);
    const needed = await takeNeeded();
    const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;
    return [
      { screen: '/login (before it shows)', scripts: login.scripts, gzipKb: kb(login.gzipBytes) },
      {
        screen: '/login (once settled)',
        scripts: login.scripts + afterShown.scripts,
        gzipKb: kb(login.gzipBytes + afterShown.gzipBytes),
      },
      {
        screen: '/login → sign in → /worklist (in total)',
        scripts: login.scripts + afterShown.scripts + signedIn.scripts,
        gzipKb: kb(login.gzipBytes + afterShown.gzipBytes + signedIn.gzipBytes),
      },
      {
        screen: '/worklist opened directly, signed in (fetched before the list shows)',
        scripts: worklist.scripts,
        gzipKb: kb(worklist.gzipBytes),
      },
      {
        screen: '/worklist opened directly, signed in (what it needs to show)',
        scripts: needed.scripts,
        gzipKb: kb(needed.gzipBytes),
      },
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
