import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  startLocalOrthanc,
  type TLocalOrthanc,
} from '../../apps/server/src/integrations/pacs/local-orthanc.ts';
import { api, apiSignIn } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';
import { startE2eServer, type TE2eServer } from '../support/server.ts';
import { signInAs } from '../support/sign-in.ts';

// An administrator connects the organisation's image archive: a real Orthanc on 127.0.0.1 (Debian's
// orthanc + orthanc-dicomweb), added through the Archives tab's dialog, its connection tested with
// the stored password, which no answer of the API ever carries.

const ADMIN = 'admin@demo.test';
const ARCHIVE = 'Reading room Orthanc';
const FACILITY = 'City General Hospital';
const SCREENSHOTS = process.env.RIS_E2E_SCREENSHOTS;

let server: TE2eServer;
let browser: Browser;
let orthanc: TLocalOrthanc;
let storageDir: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(os.tmpdir(), 'ris-e2e-orthanc-'));
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

async function freshPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  contexts.push(context);
  return context.newPage();
}

describe('image archives', () => {
  it('an admin adds the Orthanc archive through the dialog, tests the connection and sees it listed', async () => {
    const page = await freshPage();
    await signInAs(page, server.url, ADMIN);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organisation' }).click();
    await page.getByRole('tab', { name: 'Archives' }).click();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('archives');
    await page.getByRole('button', { name: 'Add archive' }).click();

    const dialog = page.getByRole('dialog', { name: 'Add an image archive' });
    await dialog.getByLabel('Name', { exact: true }).fill(ARCHIVE);
    await dialog.getByLabel('Kind').selectOption('orthanc');
    // Credentials in the URL are refused on the field, before anything is sent.
    await dialog.getByLabel('DICOMweb URL').fill(`http://ris:pw@127.0.0.1:1/dicom-web`);
    await dialog.getByRole('button', { name: 'Add archive' }).click();
    await dialog.getByText(/must not contain a user name or password/i).waitFor();
    await dialog.getByLabel('DICOMweb URL').fill(orthanc.dicomwebUrl);
    await dialog.getByLabel('Orthanc REST URL').fill(orthanc.restUrl);
    await dialog.getByLabel('Authentication').selectOption('basic');
    await dialog.getByLabel('User name').fill(orthanc.username);
    await dialog.getByLabel('Password').fill(orthanc.password);
    await dialog.getByRole('checkbox', { name: FACILITY }).check();
    await dialog.getByLabel('Default facility').selectOption({ label: FACILITY });
    await dialog.getByRole('button', { name: 'Add archive' }).click();
    await dialog.waitFor({ state: 'detached' });

    const table = page.getByRole('table', { name: 'Image archives' });
    const row = table.getByRole('row').filter({ hasText: ARCHIVE });
    await row.waitFor();
    expect(await row.textContent()).toContain(orthanc.dicomwebUrl);
    expect(await row.textContent()).toContain(`${FACILITY} (default)`);

    await row.getByRole('button', { name: `Test connection to ${ARCHIVE}` }).click();
    const answer = table.getByRole('status').filter({ hasText: 'Connected' });
    await answer.waitFor();
    expect(await answer.textContent()).toMatch(/Orthanc \d+\.\d+/);

    // The edit dialog keeps the stored password without showing it.
    await row.getByRole('button', { name: `Edit ${ARCHIVE}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${ARCHIVE}` });
    expect(await edit.getByLabel('Password').getAttribute('placeholder')).toBe(
      'stored — leave empty to keep',
    );
    expect(await edit.getByLabel('Password').inputValue()).toBe('');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await edit.waitFor({ state: 'detached' });

    // An archive that cannot be reached: the test says so, in red, without an error page.
    const admin = await apiSignIn(server.url, ADMIN);
    await api(server.url, admin, 'POST', '/pacs/archives', {
      name: 'Old hospital PACS',
      kind: 'dicomweb',
      dicomweb_url: `http://127.0.0.1:${await freePort()}/dicom-web`,
      auth_kind: 'bearer',
      secret: 'old-token',
      enabled: false,
    });
    await page.reload();
    await page.getByRole('button', { name: 'Test connection to Old hospital PACS' }).click();
    await table.getByRole('status').filter({ hasText: 'Cannot be reached' }).waitFor();
    await page.getByRole('button', { name: `Test connection to ${ARCHIVE}` }).click();
    await table.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/archives.png` });

    // Over the API, the archive is there with has_secret, and no answer carries the password.
    const list = await api<{ archives: { name: string; has_secret: boolean }[] }>(
      server.url,
      admin,
      'GET',
      '/pacs/archives',
    );
    expect(list.archives.find((archive) => archive.name === ARCHIVE)?.has_secret).toBe(true);
    expect(JSON.stringify(list)).not.toContain(orthanc.password);
  });
});
