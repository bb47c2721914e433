import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startLocalOrthanc,
  uploadInstances,
  type TLocalOrthanc,
} from '../../apps/server/src/integrations/pacs/local-orthanc.ts';
import { syntheticStudy } from '../../apps/server/src/integrations/pacs/synthetic-dicom.ts';
import { api, apiSignIn } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';
import { startE2eServer, type TE2eServer } from '../support/server.ts';
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

let server: TE2eServer;
let browser: Browser;
let orthanc: TLocalOrthanc;
let storageDir: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(os.tmpdir(), 'ris-e2e-viewer-'));
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
      name: 'Viewer e2e Orthanc',
      kind: 'orthanc',
      dicomweb_url: orthanc.dicomwebUrl,
      orthanc_url: orthanc.restUrl,
      auth_kind: 'basic',
      username: orthanc.username,
      secret: orthanc.password,
      facilities: [{ facility_id: facility.id }],
      default_facility_id: facility.id,
    });
    const radiologist = await apiSignIn(server.url, RADIOLOGIST);
    const item = await eventually('the synced study on the worklist', async () => {
      await api(server.url, admin, 'GET', '/worklist/populate/worklist');
      const page = await api<TWorklistPage>(
        server.url,
        radiologist,
        'GET',
        `/worklist?search=${encodeURIComponent('Viewer')}&date_range_type=LAST_1_MONTH&limit=10`,
      );
      return page.items.find((row) => row.study_uid === study.studyUid) ?? null;
    });

    // The radiologist opens the study and clicks "Open in OHIF": a new tab with the built-in viewer.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await signInAs(page, server.url, RADIOLOGIST);
    await page.goto(`${server.url}/worklist/${item.id}`);
    const problems: string[] = [];
    const elsewhere: string[] = [];
    const refused: string[] = [];
    context.on('page', (opened) => {
      opened.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      opened.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(`${server.url}/`) && !/^(data|blob):/.test(url)) elsewhere.push(url);
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
