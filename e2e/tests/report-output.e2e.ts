import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, apiSignIn } from '../support/api.ts';
import { demoSession } from '../support/demo-session.ts';

// The demo seed (README.md) has FINAL studies with report text in every facility, and no SMTP or
// WhatsApp provider: shared reports wait in the outbox.
const ADMIN = 'admin@demo.test';
const RADIOLOGIST = 'radiologist@demo.test';

const session = demoSession();
const signedIn = (email: string) => session.signedIn(email, { acceptDownloads: true });
const screenshot = (page: Page, name: string) => session.screenshot(page, name, {});

type TItem = { id: string; patient_name: string };

async function firstStudy(email: string, query: string): Promise<TItem> {
  const user = await apiSignIn(session.server.url, email);
  const page = await api<{ items: TItem[] }>(
    session.server.url,
    user,
    'GET',
    `/worklist?${query}&date_range_type=LAST_1_MONTH&limit=1`,
  );
  const study = page.items[0];
  if (!study) throw new Error(`the demo seed has no study for ${query}`);
  return study;
}

/** Picks a Download menu entry and resolves to the file the browser saved. */
async function downloadVia(page: Page, entry: string): Promise<Download> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  await page.getByRole('menuitem', { name: entry, exact: true }).click();
  return download;
}

async function bytesOf(download: Download): Promise<Buffer> {
  const file = await download.path();
  return readFile(file);
}

describe('report output', () => {
  it('downloads a final report as PDF and DOCX by the patient name (no preview), and shares it', async () => {
    const study = await firstStudy(ADMIN, 'statuses=FINAL');
    const page = await signedIn(ADMIN);
    await page.goto(`${session.server.url}/worklist/${study.id}`);
    await page.getByRole('article', { name: 'Report text' }).waitFor();

    // A final report is not previewed with other content (the server refuses it): downloads only.
    await page.getByRole('button', { name: 'Download', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Preview', exact: true }).count()).toBe(0);

    // Downloads are named after the patient, with the toasts of the specification.
    const pdf = await downloadVia(page, 'PDF without letterhead');
    expect(pdf.suggestedFilename()).toBe(`${study.patient_name}_report.pdf`);
    expect((await bytesOf(pdf)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await page.getByText('PDF downloaded successfully!').waitFor();
    const docx = await downloadVia(page, 'DOCX with letterhead');
    expect(docx.suggestedFilename()).toBe(`${study.patient_name}_report.docx`);
    expect((await bytesOf(docx)).subarray(0, 2).toString('latin1')).toBe('PK');
    await page.getByText('DOCX downloaded successfully!').waitFor();

    // Share by e-mail: the demo has no SMTP server, so the message waits in the outbox.
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const share = page.getByRole('dialog', { name: 'Share report' });
    await share.getByRole('textbox', { name: 'E-mail addresses' }).fill('not-an-address');
    await share.getByRole('button', { name: 'Send', exact: true }).click();
    await share.getByText('not-an-address: must be a valid e-mail address').waitFor();
    await share.getByRole('textbox', { name: 'E-mail addresses' }).fill('referrer.e2e@clinic.test');
    await share.getByRole('textbox', { name: 'E-mail addresses' }).press('Enter');
    await share.getByRole('listitem').filter({ hasText: 'referrer.e2e@clinic.test' }).waitFor();
    await screenshot(page, 'report-output-share.png');
    await share.getByRole('button', { name: 'Send', exact: true }).click();
    await share.waitFor({ state: 'detached' });
    await page.getByText('Report queued for 1 recipient').waitFor();
    const row = page
      .getByRole('region', { name: 'Deliveries' })
      .getByRole('listitem')
      .filter({ hasText: 'referrer.e2e@clinic.test' });
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain('in outbox');
    await screenshot(page, 'report-output-deliveries.png');
  }, 120_000);

  it("previews the editor's current text of a report being written, then downloads the signed original", async () => {
    const [admin, radiologist] = await Promise.all([
      apiSignIn(session.server.url, ADMIN),
      apiSignIn(session.server.url, RADIOLOGIST),
    ]);
    const study = await firstStudy(ADMIN, 'statuses=TO_READ');
    await api(session.server.url, admin, 'PUT', '/worklist/assign/radiologist', {
      worklist_ids: [study.id],
      last_assigned_user_fk: radiologist.id,
    });
    const page = await signedIn(RADIOLOGIST);
    await page.goto(`${session.server.url}/worklist/${study.id}`);
    const editor = page.getByRole('textbox', { name: 'Report text' });
    await expect.poll(() => editor.getAttribute('contenteditable'), { timeout: 15_000 }).toBe('true');
    await editor.click();
    await page.keyboard.type('Preview of unsaved text: small left pleural effusion.');
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    await page.getByRole('menuitem', { name: 'By radiologist…' }).waitFor();
    await screenshot(page, 'report-output-download-menu.png');
    await page.keyboard.press('Escape');

    const previewRequest = page.waitForRequest((request) =>
      request.url().endsWith('/api/v1/worklist/report/preview/pdf'),
    );
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const body = (await previewRequest).postDataJSON() as Record<string, unknown>;
    expect(body.worklist_id).toBe(study.id);
    expect(String(body.html_content)).toContain('Preview of unsaved text: small left pleural effusion.');
    const frame = page.getByRole('dialog', { name: 'Report preview' }).locator('iframe');
    await expect.poll(() => frame.getAttribute('src'), { timeout: 15_000 }).toMatch(/^blob:/);
    await screenshot(page, 'report-output-preview.png');

    // Switching the letterhead asks for the preview again.
    const again = page.waitForRequest((request) =>
      request.url().endsWith('/api/v1/worklist/report/preview/pdf'),
    );
    const letterhead = page.getByRole('dialog', { name: 'Report preview' }).getByLabel('With letterhead');
    const before = await letterhead.isChecked();
    await letterhead.click();
    expect(((await again).postDataJSON() as Record<string, unknown>).is_letterhead_enabled).toBe(!before);
    await expect.poll(() => frame.getAttribute('src'), { timeout: 15_000 }).toMatch(/^blob:/);
    await page.keyboard.press('Escape');

    // Once final, the PDF stored at finalization downloads from the report's pdf_url.
    await page.getByRole('button', { name: 'Finalize', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Finalize the report?' })
      .getByRole('button', { name: 'Finalize', exact: true })
      .click();
    await page.getByRole('article', { name: 'Report text' }).waitFor({ timeout: 15_000 });
    const original = await downloadVia(page, 'Signed original PDF');
    expect(original.suggestedFilename()).toBe(`${study.patient_name}_report.pdf`);
    expect((await bytesOf(original)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await page.getByText('PDF downloaded successfully!').waitFor();
  }, 120_000);
});
