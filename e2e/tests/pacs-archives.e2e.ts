import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, uploadInstances } from '../../apps/server/src/integrations/pacs/local-orthanc.ts';
import { syntheticStudy } from '../../apps/server/src/integrations/pacs/synthetic-dicom.ts';
import { api, apiSignIn } from '../support/api.ts';
import { startPacsWorld, type TPacsWorld } from '../support/pacs-world.ts';
import { signInAs } from '../support/sign-in.ts';

// An administrator connects the organisation's image archive: a real Orthanc on 127.0.0.1 (Debian's
// orthanc + orthanc-dicomweb), added through the Archives tab's dialog, its connection tested with
// the stored password, which no answer of the API ever carries.

const ADMIN = 'admin@demo.test';
const ARCHIVE = 'Reading room Orthanc';
const FACILITY = 'City General Hospital';
const OLD = 'Old hospital PACS';
const SCREENSHOTS = process.env.RIS_E2E_SCREENSHOTS;

let world: TPacsWorld;

beforeAll(async () => {
  world = await startPacsWorld('archives');
});
afterEach(async () => world?.closeContexts());
afterAll(async () => world?.close());

describe('image archives', () => {
  it('an admin adds the Orthanc archive through the dialog, tests the connection and sees it listed', async () => {
    const page = await world.newPage();
    await signInAs(page, world.server.url, ADMIN);
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
    await dialog.getByLabel('DICOMweb URL').fill(world.orthanc.dicomwebUrl);
    await dialog.getByLabel('Orthanc REST URL').fill(world.orthanc.restUrl);
    await dialog.getByLabel('Authentication').selectOption('basic');
    await dialog.getByLabel('User name').fill(world.orthanc.username);
    await dialog.getByLabel('Password').fill(world.orthanc.password);
    await dialog.getByRole('checkbox', { name: FACILITY }).check();
    await dialog.getByLabel('Default facility').selectOption({ label: FACILITY });
    await dialog.getByRole('button', { name: 'Add archive' }).click();
    await dialog.waitFor({ state: 'detached' });

    const table = page.getByRole('table', { name: 'Image archives' });
    const row = table.getByRole('row').filter({ hasText: ARCHIVE });
    await row.waitFor();
    expect(await row.textContent()).toContain(world.orthanc.dicomwebUrl);
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

    // Sync now pulls the archive's studies; the row then shows the last success.
    const study = syntheticStudy({
      patientName: 'Archive^Demo',
      patientId: 'ARCH-E2E-1',
      accessionNumber: 'ACC-ARCH-E2E-1',
      studyDescription: 'CT HEAD',
      modalities: ['CT'],
      instancesPerSeries: 1,
      institutionName: FACILITY,
    });
    await uploadInstances(world.orthanc, study.instances);
    await row.getByRole('button', { name: `Sync ${ARCHIVE} now` }).click();
    await row.getByText(/^Last success/).waitFor();

    // An archive that cannot be reached: its test and its sync say so, in red, without an error page.
    const admin = await apiSignIn(world.server.url, ADMIN);
    await api(world.server.url, admin, 'POST', '/pacs/archives', {
      name: OLD,
      kind: 'dicomweb',
      dicomweb_url: `http://127.0.0.1:${await freePort()}/dicom-web`,
      auth_kind: 'bearer',
      secret: 'old-token',
      poll_interval_seconds: 300,
    });
    await page.reload();
    const old = table.getByRole('row').filter({ hasText: OLD });
    await old.getByRole('button', { name: `Sync ${OLD} now` }).click();
    await old
      .locator('.text-danger')
      .filter({ hasText: /^Error/ })
      .waitFor();
    await old.getByRole('button', { name: `Test connection to ${OLD}` }).click();
    await table.getByRole('status').filter({ hasText: 'Cannot be reached' }).waitFor();
    await row.getByRole('button', { name: `Test connection to ${ARCHIVE}` }).click();
    await table.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await page.mouse.move(0, 0);
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/archives.png` });

    // Over the API, the archive is there with has_secret, and no answer carries the password.
    const list = await api<{ archives: { name: string; has_secret: boolean }[] }>(
      world.server.url,
      admin,
      'GET',
      '/pacs/archives',
    );
    expect(list.archives.find((archive) => archive.name === ARCHIVE)?.has_secret).toBe(true);
    expect(JSON.stringify(list)).not.toContain(world.orthanc.password);
  });
});
