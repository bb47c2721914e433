import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { uploadInstances } from '../../apps/server/src/integrations/pacs/local-orthanc.ts';
import { syntheticStudy } from '../../apps/server/src/integrations/pacs/synthetic-dicom.ts';
import { api, apiSignIn } from '../support/api.ts';
import { connectOrthanc, eventually, startPacsWorld, type TPacsWorld } from '../support/pacs-world.ts';
import { signInAs } from '../support/sign-in.ts';

// A study stored in the organisation's Orthanc reaches the worklist: an admin presses "Sync from
// PACS" and is told what came; a radiologist whose worklist is open sees the row arrive by itself.

const FACILITY = 'City General Hospital';
const SCREENSHOTS = process.env.RIS_E2E_SCREENSHOTS;
let world: TPacsWorld;

beforeAll(async () => {
  world = await startPacsWorld('pacs-sync');
});
afterEach(async () => world?.closeContexts());
afterAll(async () => world?.close());

type TArchives = { archives: { id: string; sync: { last_success_at: string | null } }[] };

describe('studies from the PACS on the worklist', () => {
  it('Sync from PACS brings a stored study in; an open worklist shows it without a reload', async () => {
    const admin = await apiSignIn(world.server.url, 'admin@demo.test');
    // Polled hourly: only the button brings the study in during this test.
    const { archiveId } = await connectOrthanc(world, admin, {
      name: 'Sync e2e Orthanc',
      facility: FACILITY,
      pollIntervalSeconds: 3600,
    });
    await eventually('the first pass of the new archive', async () => {
      const { archives } = await api<TArchives>(world.server.url, admin, 'GET', '/pacs/archives');
      return archives.find((archive) => archive.id === archiveId)?.sync.last_success_at ?? null;
    });

    const reader = await world.newPage();
    await signInAs(reader, world.server.url, 'radiologist@demo.test');
    await reader.goto(`${world.server.url}/worklist`);
    await reader.getByRole('table').waitFor();
    expect(await reader.getByRole('button', { name: 'Sync from PACS' }).count()).toBe(0);

    const page = await world.newPage();
    await signInAs(page, world.server.url, 'admin@demo.test');
    await page.goto(`${world.server.url}/worklist`);
    await page.getByRole('table').waitFor();

    const study = syntheticStudy({
      patientName: 'Arrival^Priya',
      patientId: 'E2E-SYNC-1',
      accessionNumber: 'E2E-SYNC-ACC-1',
      studyDescription: 'MR BRAIN',
      modalities: ['MR', 'MR', 'MR'],
      instancesPerSeries: 2,
      institutionName: FACILITY,
    });
    await uploadInstances(world.orthanc, study.instances);

    await page.getByRole('button', { name: 'Sync from PACS' }).click();
    await page.getByText('1 new study').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Arrival Priya' });
    await row.waitFor();
    expect(await row.textContent()).toContain('MR');
    await reader.getByRole('row').filter({ hasText: 'Arrival Priya' }).waitFor();
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/worklist-pacs.png` });
  });
});
