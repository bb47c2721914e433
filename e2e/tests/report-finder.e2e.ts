import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, apiSignIn } from '../support/api.ts';
import { demoSession } from '../support/demo-session.ts';

// The demo seed (README.md): 40 patients with studies in every status over the last month, FINAL ones
// with report text; the radiologist works in all three facilities.
const ADMIN = 'admin@demo.test';
const RADIOLOGIST = 'radiologist@demo.test';

const session = demoSession();
const screenshot = (page: Page, name: string) => session.screenshot(page, name, {});

type TItem = { id: string; patient_name: string; patient_id: string; facility_fk: string };
type TReport = { id: string; version: number };

const FINDINGS =
  '<p>Serpiginous calcifications along the anterior mediastinum, in keeping with an old granuloma.</p>';

/**
 * A TO_READ study of a patient who also has a final report, reported and finalized by the
 * radiologist through the API with FINDINGS: the finder should find it, and show the other as a prior.
 */
async function finalizedStudy(): Promise<TItem> {
  const [admin, radiologist] = await Promise.all([
    apiSignIn(session.server.url, ADMIN),
    apiSignIn(session.server.url, RADIOLOGIST),
  ]);
  const list = (statuses: string) =>
    api<{ items: TItem[] }>(
      session.server.url,
      admin,
      'GET',
      `/worklist?statuses=${statuses}&date_range_type=LAST_1_MONTH&limit=100`,
    );
  const [toRead, finals] = await Promise.all([list('TO_READ'), list('FINAL')]);
  const reported = new Set(finals.items.map((item) => item.patient_id));
  const study = toRead.items.find((item) => reported.has(item.patient_id));
  if (!study) throw new Error('the demo seed has no TO_READ study of a patient with a final report');
  await api(session.server.url, admin, 'PUT', '/worklist/assign/radiologist', {
    worklist_ids: [study.id],
    last_assigned_user_fk: radiologist.id,
  });
  const report = await api<TReport>(session.server.url, radiologist, 'POST', '/worklist/report', {
    worklist_id: study.id,
    content: FINDINGS,
    by_user_id: radiologist.id,
  });
  await api(session.server.url, radiologist, 'POST', '/worklist/report/pdf-generate', {
    report_id: report.id,
    status: 'FINAL',
  });
  return study;
}

describe('report finder', () => {
  it('finds a final report by a phrase with the words highlighted, downloads its PDF, leaves it out on -word, and opens it with its priors', async () => {
    const study = await finalizedStudy();
    const page = await session.signedIn(RADIOLOGIST, { acceptDownloads: true });
    await page.goto(`${session.server.url}/report-finder`);
    await page.getByRole('heading', { name: 'Report finder', level: 1 }).waitFor();
    // Every date by default: the demo's final reports are listed before anything is typed.
    await page.locator('tr[data-report-id]').first().waitFor();

    const query = page.getByRole('searchbox', { name: 'Search report text' });
    await query.fill('"serpiginous calcification" mediastinum');
    const rows = page.locator('tr[data-report-id]');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    const row = rows.first();
    expect(await row.textContent()).toContain(study.patient_name);
    // Stemmed: "calcification" found "calcifications", each matched word in a <mark>.
    const marks = (await row.locator('mark').allTextContents()).map((text) => text.toLowerCase());
    expect(marks.join(' ')).toContain('serpiginous');
    expect(marks.join(' ')).toContain('calcifications');
    expect(marks.join(' ')).toContain('mediastinum');
    await page.getByText('1–1 of 1').waitFor();
    await screenshot(page, 'report-finder.png');

    // Its PDF, the one stored when it was finalized, downloads by the patient's name.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: `Download PDF of ${study.patient_name}`, exact: true }).click();
    const pdf = await download;
    expect(pdf.suggestedFilename()).toBe(`${study.patient_name}_report.pdf`);
    expect((await readFile(await pdf.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await page.getByText('PDF downloaded successfully!').waitFor();

    await query.fill('serpiginous -granuloma');
    await page.getByText('No reports match this search.').waitFor();
    await query.fill('serpiginous');
    await rows.first().waitFor();

    // Opens as a tab of the reporting screen, where the patient's other reports are listed.
    await page.getByRole('button', { name: `Open report of ${study.patient_name}`, exact: true }).click();
    await page.waitForURL(`${session.server.url}/worklist/${study.id}`);
    await page.getByRole('heading', { level: 1, name: study.patient_name, exact: true }).waitFor();
    await page
      .getByRole('navigation', { name: 'Open studies' })
      .getByRole('link', { name: study.patient_name })
      .waitFor();
    const priors = page.getByRole('list', { name: 'Prior reports' });
    await priors.getByRole('listitem').first().waitFor({ timeout: 10_000 });
    expect(await priors.locator(`li[data-report-id]`).count()).toBeGreaterThan(0);
    await screenshot(page, 'report-finder-priors.png');
  }, 120_000);
});
