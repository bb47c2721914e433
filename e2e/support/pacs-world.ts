// The image tests' world: the built RIS with its demo data, Chromium, and a real Orthanc of its own
// (Debian's orthanc + orthanc-dicomweb) on 127.0.0.1, each stopped after the file.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import {
  startLocalOrthanc,
  type TLocalOrthanc,
} from '../../apps/server/src/integrations/pacs/local-orthanc.ts';
import { api, type TApiUser } from './api.ts';
import { launchBrowser } from './browser.ts';
import { startE2eServer, type TE2eServer } from './server.ts';

export type TPacsWorld = {
  server: TE2eServer;
  browser: Browser;
  orthanc: TLocalOrthanc;
  /** A page in a new context (closed by closeContexts), 1440×900 unless told otherwise. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  closeContexts(): Promise<void>;
  close(): Promise<void>;
};

export async function startPacsWorld(name: string): Promise<TPacsWorld> {
  const storageDir = await mkdtemp(path.join(os.tmpdir(), `ris-e2e-${name}-`));
  // Orthanc first and on its own: close() stops it even when the server or browser fails to start.
  const orthanc = await startLocalOrthanc({ storageDir });
  const contexts: BrowserContext[] = [];
  let server: TE2eServer | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    await browser?.close();
    await server?.close();
    await orthanc.stop();
    await rm(storageDir, { recursive: true, force: true });
  };
  try {
    [server, browser] = await Promise.all([
      startE2eServer({ env: { RIS_SEED_DEMO: 'true' } }),
      launchBrowser(),
    ]);
  } catch (error) {
    await close();
    throw error;
  }
  const started = browser;
  return {
    server,
    browser: started,
    orthanc,
    async newPage(options = {}) {
      const context = await started.newContext({ viewport: { width: 1440, height: 900 }, ...options });
      contexts.push(context);
      return context.newPage();
    },
    async closeContexts() {
      await Promise.all(contexts.splice(0).map((context) => context.close()));
    },
    close,
  };
}

/** Polls `check` until it answers a value (not null) or the deadline passes. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | null>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Connects the world's Orthanc to the demo organisation through the API, serving one facility. */
export async function connectOrthanc(
  world: Pick<TPacsWorld, 'server' | 'orthanc'>,
  admin: TApiUser,
  options: { name: string; facility: string; pollIntervalSeconds?: number },
): Promise<{ archiveId: string; facilityId: string }> {
  const details = await api<{ facilities: { id: string; name: string }[] }>(
    world.server.url,
    admin,
    'GET',
    `/user/details/${admin.id}`,
  );
  const facility = details.facilities.find((item) => item.name === options.facility);
  if (!facility) throw new Error(`the demo seed has no facility ${options.facility}`);
  const archive = await api<{ id: string }>(world.server.url, admin, 'POST', '/pacs/archives', {
    name: options.name,
    kind: 'orthanc',
    dicomweb_url: world.orthanc.dicomwebUrl,
    orthanc_url: world.orthanc.restUrl,
    auth_kind: 'basic',
    username: world.orthanc.username,
    secret: world.orthanc.password,
    facilities: [{ facility_id: facility.id }],
    default_facility_id: facility.id,
    ...(options.pollIntervalSeconds ? { poll_interval_seconds: options.pollIntervalSeconds } : {}),
  });
  return { archiveId: archive.id, facilityId: facility.id };
}
