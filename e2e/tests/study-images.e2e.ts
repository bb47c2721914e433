import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startLocalOrthanc,
  uploadInstances,
  type TLocalOrthanc,
} from '../../apps/server/src/integrations/pacs/local-orthanc.ts';
import { syntheticStudy } from '../../apps/server/src/integrations/pacs/synthetic-dicom.ts';
import { api, apiSignIn } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';
import { repoRoot, startE2eServer, type TE2eServer } from '../support/server.ts';
import { signInAs } from '../support/sign-in.ts';

// Study images from the worklist and the reporting screen, against a real Orthanc on 127.0.0.1: an
// admin downloads a synced study's zip from the row menu (the browser's own download), sees its
// series as thumbnails on the study screen, then deletes it from the archive after a confirmation
// naming the patient; the row leaves the worklist and Orthanc no longer holds the study.

const ADMIN = 'admin@demo.test';
const FACILITY = 'City General Hospital';
const PATIENT_ID = 'E2E-IMG-1';
const SCREENSHOTS = process.env.RIS_E2E_SCREENSHOTS;

let server: TE2eServer;
let browser: Browser;
let orthanc: TLocalOrthanc;
let storageDir: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(os.tmpdir(), 'ris-e2e-images-'));
  [server, browser, orthanc] = await Promise.all([
    startE2eServer({ env: { RIS_SEED_DEMO: 'true' } }),
    launchBrowser(),
    startLocalOrthanc({ storageDir }),
  ]);
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await orthanc?.stop();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

type TWorklistPage = { items: { id: string; patient_name: string; study_uid: string | null }[] };

/** Polls `check` until it answers a value (not null) or the deadline passes. */
async function eventually<T>(what: string, check: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The names of a zip's files (not folders), from its central directory. */
function zipFileNames(zip: Buffer): string[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    names.push(zip.subarray(at + 46, at + 46 + nameLength).toString('utf8'));
    at += 46 + skip;
  }
  return names.filter((name) => !name.endsWith('/'));
}

async function openRowMenu(page: Page): Promise<void> {
  await page.goto(`${server.url}/worklist`);
  await page.getByRole('searchbox', { name: /Search patient/ }).fill(PATIENT_ID);
  const row = page.getByRole('row').filter({ hasText: PATIENT_ID });
  await row
    .first()
    .getByRole('button', { name: /^More actions for / })
    .click();
}

describe('study images', () => {
  it('downloads the zip, shows the series, and deletes the study from the archive', async () => {
    const study = syntheticStudy({
      patientName: 'Images^Eee',
      patientId: PATIENT_ID,
      accessionNumber: 'E2E-IMAGES-1',
      studyDescription: 'CT images e2e',
      modalities: ['CT', 'CT'],
      instancesPerSeries: 2,
      size: 128,
      institutionName: FACILITY,
    });
    await uploadInstances(orthanc, study.instances);
    const admin = await apiSignIn(server.url, ADMIN);
    const details = await api<{ facilities: { id: string; name: string }[] }>(
      server.url,
      admin,
      'GET',
      `/user/details/${admin.id}`,
    );
    const facility = details.facilities.find((item) => item.name === FACILITY);
    if (!facility) throw new Error(`the demo seed has no ${FACILITY}`);
    await api(server.url, admin, 'POST', '/pacs/archives', {
      name: 'Images e2e Orthanc',
      kind: 'orthanc',
      dicomweb_url: orthanc.dicomwebUrl,
      orthanc_url: orthanc.restUrl,
      auth_kind: 'basic',
      username: orthanc.username,
      secret: orthanc.password,
      facilities: [{ facility_id: facility.id }],
      default_facility_id: facility.id,
    });
    const item = await eventually('the synced study on the worklist', async () => {
      await api(server.url, admin, 'GET', '/worklist/populate/worklist');
      const page = await api<TWorklistPage>(
        server.url,
        admin,
        'GET',
        `/worklist?search=${PATIENT_ID}&date_range_type=LAST_1_MONTH&limit=10`,
      );
      return page.items.find((row) => row.study_uid === study.studyUid) ?? null;
    });

    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      acceptDownloads: true,
    });
    contexts.push(context);
    const page = await context.newPage();
    await signInAs(page, server.url, ADMIN);

    // Download images: the browser downloads the zip itself, named by patient id and study date.
    await openRowMenu(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Download images' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${PATIENT_ID}_\\d{8}\\.zip$`));
    const saved = path.join(storageDir, download.suggestedFilename());
    await download.saveAs(saved);
    const zip = await readFile(saved);
    expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(zipFileNames(zip)).toHaveLength(study.instances.length);

    // The study screen: its two series as thumbnails drawn from the archive.
    await page.goto(`${server.url}/worklist/${item.id}`);
    const panel = page.getByRole('region', { name: 'Series' });
    await panel.getByRole('button', { name: /^Series/ }).waitFor();
    const thumbnails = panel.locator('[data-testid="series-thumbnail"] img');
    await expect.poll(() => thumbnails.count(), { timeout: 15_000 }).toBe(2);
    await expect
      .poll(() =>
        thumbnails.evaluateAll((images) => images.every((img) => (img as HTMLImageElement).naturalWidth > 0)),
      )
      .toBe(true);
    expect(await panel.textContent()).toContain('2 images');
    const docs = path.join(repoRoot, 'docs');
    await mkdir(docs, { recursive: true });
    await panel.screenshot({ path: path.join(docs, 'series-panel.png') });
    if (SCREENSHOTS) await panel.screenshot({ path: path.join(SCREENSHOTS, 'series-panel.png') });

    // Delete from archive: confirmed by name, then gone from the worklist and from Orthanc.
    await openRowMenu(page);
    await page.getByRole('menuitem', { name: 'Delete from archive…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this study from the archive?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(PATIENT_ID);
    await dialog.getByRole('button', { name: 'Delete from archive' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: PATIENT_ID }).count(), { timeout: 10_000 })
      .toBe(0);
    const [hit] = (await (
      await fetch(`${orthanc.restUrl}/tools/lookup`, {
        method: 'POST',
        headers: { authorization: orthanc.authorization },
        body: study.studyUid,
      })
    ).json()) as { ID: string }[];
    expect(hit).toBeUndefined();
  });
});
