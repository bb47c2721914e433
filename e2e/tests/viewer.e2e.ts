import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { uploadInstances } from '../../apps/server/src/integrations/pacs/local-orthanc.ts';
import { syntheticStudy } from '../../apps/server/src/integrations/pacs/synthetic-dicom.ts';
import { api, apiSignIn } from '../support/api.ts';
import { connectOrthanc, eventually, startPacsWorld, type TPacsWorld } from '../support/pacs-world.ts';
import { signInAs } from '../support/sign-in.ts';

// A radiologist opens a study that came from the image archive in the built-in viewer: a real
// Orthanc on 127.0.0.1 holds a synthetic study, the RIS syncs it (POST /pacs/archives, then
// GET /worklist/populate/worklist), and "Open in OHIF" on the study opens OHIF from /viewer/ in a new
// tab, which reads the images through the RIS's DICOMweb proxy and draws them.

const ADMIN = 'admin@demo.test';
const RADIOLOGIST = 'radiologist@demo.test';
const FACILITY = 'City General Hospital';
const PATIENT = 'Viewer^Eee';
const ACCESSION = 'E2E-VIEWER-1';
const SCREENSHOTS = process.env.RIS_E2E_SCREENSHOTS;

let world: TPacsWorld;

beforeAll(async () => {
  world = await startPacsWorld('viewer');
});
afterEach(async () => world?.closeContexts());
afterAll(async () => world?.close());

type TWorklistPage = { items: { id: string; patient_name: string; study_uid: string | null }[] };

/** True once a viewport canvas of OHIF shows a picture (enough lit, varied pixels). */
function imageDrawn(): boolean {
  for (const canvas of Array.from(
    document.querySelectorAll<HTMLCanvasElement>('canvas.cornerstone-canvas'),
  )) {
    if (canvas.width < 64 || canvas.height < 64) continue;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) continue;
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    const levels = new Set<number>();
    let lit = 0;
    for (let i = 0; i < data.length; i += 4 * 5) {
      const value = (data[i] ?? 0) + (data[i + 1] ?? 0) + (data[i + 2] ?? 0);
      if (value > 90) lit += 1;
      levels.add(value >> 4);
    }
    if (lit > 500 && levels.size > 8) return true;
  }
  return false;
}

describe('built-in viewer', () => {
  it('opens a study synced from Orthanc in OHIF from the study screen and draws its image', async () => {
    // The archive holds a study; the RIS learns of it through the archive API and a pull.
    const study = syntheticStudy({
      patientName: PATIENT,
      patientId: 'E2E-VIEW-1',
      accessionNumber: ACCESSION,
      studyDescription: 'CT viewer e2e',
      modalities: ['CT'],
      instancesPerSeries: 3,
      size: 256,
      institutionName: FACILITY,
    });
    await uploadInstances(world.orthanc, study.instances);
    const admin = await apiSignIn(world.server.url, ADMIN);
    await connectOrthanc(world, admin, { name: 'Viewer e2e Orthanc', facility: FACILITY });
    const radiologist = await apiSignIn(world.server.url, RADIOLOGIST);
    const item = await eventually('the synced study on the worklist', async () => {
      await api(world.server.url, admin, 'GET', '/worklist/populate/worklist');
      const page = await api<TWorklistPage>(
        world.server.url,
        radiologist,
        'GET',
        `/worklist?search=${encodeURIComponent('Viewer')}&date_range_type=LAST_1_MONTH&limit=10`,
      );
      return page.items.find((row) => row.study_uid === study.studyUid) ?? null;
    });

    // The radiologist opens the study and clicks "Open in OHIF": a new tab with the built-in viewer.
    const page = await world.newPage();
    const context = page.context();
    await signInAs(page, world.server.url, RADIOLOGIST);
    await page.goto(`${world.server.url}/worklist/${item.id}`);
    const problems: string[] = [];
    const elsewhere: string[] = [];
    const refused: string[] = [];
    context.on('page', (opened) => {
      opened.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      opened.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(`${world.server.url}/`) && !/^(data|blob):/.test(url)) elsewhere.push(url);
      });
      opened.on('response', (response) => {
        if (response.url().includes('/dicom-web/') && response.status() >= 400)
          refused.push(`${response.status()} ${response.url()}`);
      });
    });
    const button = page.getByRole('button', { name: /^Open .+ in OHIF$/ });
    await button.waitFor();
    const clickedAt = performance.now();
    const [viewer] = await Promise.all([context.waitForEvent('page'), button.click()]);
    await viewer.waitForURL(
      (url) =>
        url.pathname === '/viewer/viewer' && url.searchParams.get('StudyInstanceUIDs') === study.studyUid,
    );
    await viewer.waitForFunction(imageDrawn, undefined, { timeout: 45_000, polling: 250 });
    const firstImageMs = Math.round(performance.now() - clickedAt);
    console.log(`viewer: first image ${firstImageMs} ms after the click`);

    // Nothing the viewer needed was refused by its Content-Security-Policy or by the proxy, and it
    // asked nothing of any other origin (the archive included). The one refusal is by design: OHIF
    // looks for the patient's other studies by patient ID, a search the proxy does not allow (400;
    // OHIF then lists the open study only).
    expect(elsewhere).toEqual([]);
    expect(refused.filter((line) => !/^400 \S+\/dicom-web\/studies\?00100020=/.test(line))).toEqual([]);
    expect(problems.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
    if (SCREENSHOTS) await viewer.screenshot({ path: path.join(SCREENSHOTS, 'viewer.png') });
  });
});
