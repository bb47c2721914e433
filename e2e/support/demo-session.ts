// One demo-seeded server and one browser per test file, with signed-in pages in fresh browser
// contexts (closed after each test) and screenshots kept when RIS_E2E_SCREENSHOTS names a directory.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser } from './browser.ts';
import { startE2eServer, type TE2eServer } from './server.ts';
import { signInAs } from './sign-in.ts';

/** Set to a directory to keep screenshots of the screens the tests visit (e.g. for a review of the UI). */
const SCREENSHOTS = process.env.RIS_E2E_SCREENSHOTS;

export type TDemoSession = {
  /** The running server (available inside tests and hooks). */
  readonly server: TE2eServer;
  /** A new browser context (1440 × 1000) signed in as `email` with the demo password. */
  signedIn(email: string, options?: { acceptDownloads?: boolean }): Promise<Page>;
  screenshot(page: Page, name: string, options?: { fullPage?: boolean }): Promise<void>;
};

/** Registers the file's hooks; call once at the top level of a test file. */
export function demoSession(): TDemoSession {
  let server: TE2eServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startE2eServer({ env: { RIS_SEED_DEMO: 'true' } }),
      launchBrowser(),
    ]);
    if (SCREENSHOTS) await mkdir(SCREENSHOTS, { recursive: true });
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const running = (): TE2eServer => {
    if (!server) throw new Error('the demo server is not running (use it inside tests and hooks)');
    return server;
  };
  return {
    get server() {
      return running();
    },
    async signedIn(email, options = {}) {
      if (!browser) throw new Error('the browser is not running (use it inside tests and hooks)');
      const context = await browser.newContext({
        viewport: { width: 1440, height: 1000 },
        acceptDownloads: options.acceptDownloads ?? false,
      });
      contexts.push(context);
      const page = await context.newPage();
      await signInAs(page, running().url, email);
      return page;
    },
    async screenshot(page, name, options = {}) {
      if (SCREENSHOTS) {
        await page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: options.fullPage ?? false });
      }
    },
  };
}
