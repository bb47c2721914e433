// What the browser downloads before a screen shows: the gzipped bytes of every JavaScript response
// (each body gzipped here at the default level, so the figure does not depend on whether the
// server compresses), for /login and then for the worklist after signing in.
import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { DEMO_PASSWORD } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';
import { startE2eServer } from '../support/server.ts';

export type TPageWeight = { screen: string; scripts: number; gzipKb: number };

/** The scripts a page downloads, once per URL (a script the browser has already is not counted). */
function collectScripts(
  page: Page,
  seen = new Set<string>(),
): () => Promise<{ scripts: number; gzipBytes: number }> {
  // Bodies are read as they arrive: after a navigation the browser no longer has them.
  const bodies: Promise<Buffer | null>[] = [];
  page.on('response', (response: Response) => {
    if (response.request().resourceType() !== 'script' || seen.has(response.url())) return;
    seen.add(response.url());
    bodies.push(response.body().catch(() => null));
  });
  return async () => {
    const taken = (await Promise.all(bodies.splice(0))).filter((body) => body !== null);
    return { scripts: taken.length, gzipBytes: taken.reduce((sum, body) => sum + gzipSync(body).length, 0) };
  };
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
    const take = collectScripts(page);
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    const login = await take();
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
    const takeFresh = collectScripts(fresh);
    await fresh.goto(`${server.url}/worklist`);
    await fresh.getByRole('heading', { name: 'Worklist', level: 1 }).waitFor();
    await listShown(fresh);
    const worklist = await takeFresh();
    const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;
    return [
      { screen: '/login (before it shows)', scripts: login.scripts, gzipKb: kb(login.gzipBytes) },
      {
        screen: '/login → sign in → /worklist (in total)',
        scripts: login.scripts + signedIn.scripts,
        gzipKb: kb(login.gzipBytes + signedIn.gzipBytes),
      },
      {
        screen: '/worklist opened directly, signed in',
        scripts: worklist.scripts,
        gzipKb: kb(worklist.gzipBytes),
      },
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
