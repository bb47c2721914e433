import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, apiSignIn } from '../support/api.ts';
import { demoSession } from '../support/demo-session.ts';

// Patient records and referring physicians on /organisation, against the demo seed (README.md):
// an administrator corrects a patient record and merges a duplicate record of the same person into
// it; a referring physician is added and shows in the list.
const ADMIN = 'admin@demo.test';
const FACILITY = 'City General Hospital';

const session = demoSession();
const screenshot = (page: Page, name: string) => session.screenshot(page, name, { fullPage: true });

async function openTab(page: Page, tab: 'Patients' | 'Referring physicians'): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organisation' }).click();
  await page.getByRole('tab', { name: tab }).click();
}

/** Two orders of one person registered twice at the facility (a typo in the name, two patient ids). */
async function duplicateRecords() {
  const admin = await apiSignIn(session.server.url, ADMIN);
  const details = await api<{ facilities: { id: string; name: string }[] }>(
    session.server.url,
    admin,
    'GET',
    `/user/details/${admin.id}`,
  );
  const facility = details.facilities.find((f) => f.name === FACILITY);
  if (!facility) throw new Error(`no ${FACILITY} in the demo`);
  const order = (name: string, patientId: string, study: string) =>
    api<{ id: string }>(session.server.url, admin, 'POST', '/worklist/create/order', {
      patient_name: name,
      patient_id: patientId,
      modality: 'CT',
      study,
      facility_fk: facility.id,
    });
  await order('Anand Krishnan', 'E2E-ANAND-1', 'CT Brain e2e');
  await order('Anand Krishnann', 'E2E-ANAND-2', 'CT Chest e2e');
  const found = await api<{ items: { id: string; patient_id: string }[] }>(
    session.server.url,
    admin,
    'GET',
    '/user/patients?search=anand%20krishnan',
  );
  const kept = found.items.find((p) => p.patient_id === 'E2E-ANAND-1');
  if (!kept) throw new Error('the first record is missing');
  return { admin, keptId: kept.id };
}

describe('patient records', () => {
  it('an admin edits a patient and merges a duplicate record into it', async () => {
    const { admin, keptId } = await duplicateRecords();
    const page = await session.signedIn(ADMIN);
    await openTab(page, 'Patients');
    const table = page.getByRole('table', { name: 'Patients' });
    await table.getByRole('row').nth(1).waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('patients');
    await page.getByRole('searchbox', { name: 'Search patients' }).fill('anand krish');
    await table.getByRole('row', { name: /Anand Krishnann/ }).waitFor();
    await expect.poll(() => table.getByRole('row').count()).toBe(3);

    // Edit: the phone number and the birth date of the record kept.
    await page.getByRole('button', { name: 'Edit Anand Krishnan', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Anand Krishnan', exact: true });
    await edit.getByLabel('Phone').fill('+91 98450 12345');
    await edit.getByLabel('Birth date').fill('1968-03-14');
    await screenshot(page, 'patients-edit.png');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Anand Krishnan saved').waitFor();
    await edit.waitFor({ state: 'detached' });
    await table.getByText('+91 98450 12345').waitFor();

    // The duplicate's study, in its row.
    await page.getByRole('button', { name: 'Show studies of Anand Krishnann' }).click();
    await page.getByRole('table', { name: 'Studies of Anand Krishnann' }).getByText('CT Chest e2e').waitFor();

    // Merge: pick the duplicate, confirm both records side by side, see what moved.
    await page.getByRole('button', { name: 'Merge a duplicate into Anand Krishnan', exact: true }).click();
    const merge = page.getByRole('dialog', { name: 'Merge a duplicate into Anand Krishnan', exact: true });
    await merge.getByRole('button', { name: 'Choose Anand Krishnann E2E-ANAND-2' }).click();
    await merge.getByText('Merge into it').waitFor();
    await screenshot(page, 'patients-merge-confirm.png');
    await merge.getByRole('button', { name: 'Merge records' }).click();
    const done = page.getByRole('dialog', { name: 'Records merged' });
    await done
      .getByText('1 study moved from Anand Krishnann (E2E-ANAND-2) to Anand Krishnan (E2E-ANAND-1).')
      .waitFor();
    await screenshot(page, 'patients-merge-done.png');
    await done.getByRole('button', { name: 'Close', exact: true }).last().click();
    await done.waitFor({ state: 'detached' });

    // One record left, with both studies showing its name.
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await page.getByRole('button', { name: 'Show studies of Anand Krishnan', exact: true }).click();
    const studies = page.getByRole('table', { name: 'Studies of Anand Krishnan', exact: true });
    await studies.getByText('CT Chest e2e').waitFor();
    await studies.getByText('CT Brain e2e').waitFor();
    const onKept = await api<{ total: number; items: { patient_name: string; patient_id: string }[] }>(
      session.server.url,
      admin,
      'GET',
      `/user/patient/${keptId}/studies`,
    );
    expect(onKept.total).toBe(2);
    for (const item of onKept.items) {
      expect(item).toMatchObject({ patient_name: 'Anand Krishnan', patient_id: 'E2E-ANAND-1' });
    }
  }, 120_000);
});

describe('referring physicians', () => {
  it('an admin adds a referring physician, who shows in the list', async () => {
    const page = await session.signedIn(ADMIN);
    await openTab(page, 'Referring physicians');
    await page.getByRole('button', { name: 'New referring physician' }).click();
    const dialog = page.getByRole('dialog', { name: 'New referring physician' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Enter the name').waitFor();
    await dialog.getByLabel('Name').fill('Dr Sunita Rao');
    await dialog.getByLabel('E-mail').fill('sunita.rao@e2e.test');
    await dialog.getByLabel('Registration number').fill('KMC-77821');
    await dialog.getByRole('checkbox', { name: FACILITY }).check();
    await screenshot(page, 'referring-physician-create.png');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Dr Sunita Rao added').waitFor();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('searchbox', { name: 'Search referring physicians' }).fill('sunita');
    const row = page
      .getByRole('table', { name: 'Referring physicians' })
      .getByRole('row', { name: /Dr Sunita Rao/ });
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain('sunita.rao@e2e.test');
    expect(text).toContain(FACILITY);
    expect(text).toContain('Not invited');
    await row.getByRole('button', { name: 'Invite to sign in Dr Sunita Rao' }).waitFor();
    await page.getByLabel('Facility').selectOption({ label: FACILITY });
    await row.waitFor();
    await screenshot(page, 'referring-physicians.png');
  }, 60_000);
});
