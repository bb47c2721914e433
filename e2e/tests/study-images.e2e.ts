import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { uploadInstances } from '../../apps/server/src/integrations/pacs/local-orthanc.ts';
import { syntheticStudy } from '../../apps/server/src/integrations/pacs/synthetic-dicom.ts';
import { api, apiSignIn } from '../support/api.ts';
import { connectOrthanc, eventually, startPacsWorld, type TPacsWorld } from '../support/pacs-world.ts';
import { signInAs } from '../support/sign-in.ts';

// Study images from the worklist and the reporting screen, against a real Orthanc on 127.0.0.1: an
// admin downloads a synced study's zip from the row menu (the browser's own download), sees its
// series as thumbnails on the study screen, then deletes it from the archive after a confirmation
// naming the patient; the row leaves the worklist and Orthanc no longer holds the study.

const ADMIN = 'admin@demo.test';
const FACILITY = 'City General Hospital';
const PATIENT_ID = 'E2E-IMG-1';
const SCREENSHOTS = process.env.RIS_E2E_SCREENSHOTS;

let world: TPacsWorld;
let downloads: string;

beforeAll(async () => {
  downloads = await mkdtemp(path.join(os.tmpdir(), 'ris-e2e-downloads-'));
  world = await startPacsWorld('images');
});
afterEach(async () => world?.closeContexts());
afterAll(async () => {
  await world?.close();
  if (downloads) await rm(downloads, { recursive: true, force: true });
});

type TWorklistPage = { items: { id: string; patient_name: string; study_uid: string | null }[] };

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
  await page.goto(`${world.server.url}/worklist`);
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
    await uploadInstances(world.orthanc, study.instances);
    const admin = await apiSignIn(world.server.url, ADMIN);
    await connectOrthanc(world, admin, { name: 'Images e2e Orthanc', facility: FACILITY });
    const item = await eventually('the synced study on the worklist', async () => {
      await api(world.server.url, admin, 'GET', '/worklist/populate/worklist');
      const page = await api<TWorklistPage>(
        world.server.url,
        admin,
        'GET',
        `/worklist?search=${PATIENT_ID}&date_range_type=LAST_1_MONTH&limit=10`,
      );
      return page.items.find((row) => row.study_uid === study.studyUid) ?? null;
    });

    const page = await world.newPage({ acceptDownloads: true });
    await signInAs(page, world.server.url, ADMIN);

    // Download images: the browser downloads the zip itself, named by patient id and study date.
    await openRowMenu(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Download images' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${PATIENT_ID}_\\d{8}\\.zip$`));
    const saved = path.join(downloads, download.suggestedFilename());
    await download.saveAs(saved);
    const zip = await readFile(saved);
    expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(zipFileNames(zip)).toHaveLength(study.instances.length);

    // The study screen: its two series as thumbnails drawn from the archive.
    await page.goto(`${world.server.url}/worklist/${item.id}`);
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
      await fetch(`${world.orthanc.restUrl}/tools/lookup`, {
        method: 'POST',
        headers: { authorization: world.orthanc.authorization },
        body: study.studyUid,
      })
    ).json()) as { ID: string }[];
    expect(hit).toBeUndefined();
  });
});
