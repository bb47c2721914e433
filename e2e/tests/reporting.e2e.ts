import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, apiSignIn } from '../support/api.ts';
import { demoSession } from '../support/demo-session.ts';
import { png } from '../support/png.ts';

// The demo seed (README.md): the radiologist works in all three facilities, the transcriptionist in
// the first two; both radiologist and reporter have the macros nad, nfl, corr, fu6; DEFAULT templates
// include 'CT Brain – normal'.
const RADIOLOGIST = 'radiologist@demo.test';
const TRANSCRIPTIONIST = 'transcriptionist@demo.test';
const ADMIN = 'admin@demo.test';

const session = demoSession();
const signedIn = (email: string) => session.signedIn(email);
const screenshot = (page: Page, name: string) => session.screenshot(page, name, { fullPage: true });

type TItem = { id: string; patient_name: string; patient_id: string; study: string | null };

/**
 * A study of the transcriptionist's facilities, assigned to the radiologist with collaboration on
 * (set up through the API as an admin would).
 */
async function collaborativeStudy(): Promise<TItem> {
  const [admin, radiologist, transcriptionist] = await Promise.all([
    apiSignIn(session.server.url, ADMIN),
    apiSignIn(session.server.url, RADIOLOGIST),
    apiSignIn(session.server.url, TRANSCRIPTIONIST),
  ]);
  const page = await api<{ items: TItem[] }>(
    session.server.url,
    transcriptionist,
    'GET',
    '/worklist?statuses=TO_READ&date_range_type=LAST_1_MONTH&limit=1',
  );
  const study = page.items[0];
  if (!study) throw new Error('the demo seed has no TO_READ study in the transcriptionist facilities');
  await api(session.server.url, admin, 'PUT', '/worklist/assign/radiologist', {
    worklist_ids: [study.id],
    last_assigned_user_fk: radiologist.id,
  });
  // A description of its own, so the watcher's worklist row is this study, not the patient's others.
  return api<TItem>(session.server.url, admin, 'PUT', `/worklist/${study.id}`, {
    collaboration_enabled: true,
    study: `Reporting e2e ${study.id.slice(0, 8)}`,
  });
}

const editorOf = (page: Page): Locator => page.getByRole('textbox', { name: 'Report text' });
const statusOf = (page: Page): Locator => page.getByTestId('study-status');

async function openReport(page: Page, study: TItem): Promise<void> {
  await page.goto(`${session.server.url}/worklist/${study.id}`);
  await reportReady(page, study);
}

async function reportReady(page: Page, study: TItem): Promise<void> {
  await page.getByRole('heading', { level: 1, name: study.patient_name, exact: true }).waitFor();
  // Writable once the collaboration server has authenticated the connection read-write.
  await expect.poll(() => editorOf(page).getAttribute('contenteditable'), { timeout: 15_000 }).toBe('true');
  await page.locator('[data-save-state="saved"]').waitFor({ timeout: 15_000 });
}

/** Puts the caret at the end of the report (a click below the last line) and starts a paragraph. */
async function newParagraph(page: Page): Promise<void> {
  const editor = editorOf(page);
  const box = await editor.boundingBox();
  if (!box) throw new Error('the report editor is not laid out');
  await editor.click({ position: { x: box.width / 2, y: box.height - 8 } });
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
}

async function expectText(page: Page, text: string): Promise<void> {
  await expect.poll(() => editorOf(page).textContent(), { timeout: 10_000 }).toContain(text);
}

/** Runs a scenario; when it fails (and SCREENSHOTS is set) keeps a picture of every page first. */
async function withFailureShots(pages: Record<string, Page>, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    await Promise.all(
      Object.entries(pages).map(([name, page]) =>
        screenshot(page, `failed-${name}.png`).catch(() => undefined),
      ),
    );
    throw error;
  }
}

/** A small grey diagonal gradient, so uploads pass the server's content check. */
const gradientPng = (width: number, height: number) =>
  png(width, height, (x, y) => {
    const v = Math.round(((x + y) / (width + height)) * 255);
    return [v, v, v];
  });

describe('reporting workspace', () => {
  it('a radiologist and a transcriptionist write a report together, hand it over and finalize it', async () => {
    const study = await collaborativeStudy();
    const [radiologist, transcriptionist, watcher] = await Promise.all([
      signedIn(RADIOLOGIST),
      signedIn(TRANSCRIPTIONIST),
      signedIn(ADMIN),
    ]);

    // A third person watches the worklist, narrowed to the study, live.
    await watcher.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Worklist' }).click();
    await watcher.getByLabel('Date range').selectOption('LAST_1_MONTH');
    await watcher.getByRole('searchbox', { name: /Search patient/ }).fill(study.patient_id);
    const watchedRow = watcher.locator('tbody tr').filter({ hasText: study.study ?? '' });
    await expect.poll(() => watchedRow.count(), { timeout: 10_000 }).toBe(1);
    await watcher.locator('[data-connection="connected"]').waitFor({ timeout: 15_000 });

    await withFailureShots({ radiologist, transcriptionist, watcher }, async () => {
      await openReport(radiologist, study);
      await openReport(transcriptionist, study);

      // Co-editing: each sees the other's text, caret label and presence.
      await editorOf(radiologist).click();
      await radiologist.keyboard.type('Clinical note from the radiologist.');
      await expectText(transcriptionist, 'Clinical note from the radiologist.');
      await newParagraph(transcriptionist);
      await transcriptionist.keyboard.type('Dictation typed by the transcriptionist.');
      await expectText(radiologist, 'Dictation typed by the transcriptionist.');
      await radiologist.locator('.collaboration-carets__label', { hasText: 'Neha Joshi' }).waitFor();
      await radiologist.locator('[data-peer="Neha Joshi"]').waitFor();
      await editorOf(radiologist).click();
      await transcriptionist.locator('.collaboration-carets__label', { hasText: 'Dr Asha Rao' }).waitFor();

      // A template inserted at the caret reaches both editors.
      await newParagraph(radiologist);
      await radiologist.getByRole('button', { name: 'Templates', exact: true }).click();
      const templates = radiologist.getByRole('complementary', { name: 'Templates' });
      await templates.getByLabel('Modality').selectOption('');
      await templates.getByRole('searchbox', { name: 'Search templates' }).fill('CT Brain');
      await templates.getByRole('button', { name: /CT Brain – normal/ }).click();
      await templates.getByRole('article', { name: 'Preview of CT Brain – normal' }).waitFor();
      await templates.getByRole('button', { name: 'Insert', exact: true }).click();
      await expectText(transcriptionist, 'No acute intracranial abnormality.');
      await screenshot(radiologist, 'reporting-templates-panel.png');
      await radiologist.getByRole('button', { name: 'Close panel' }).click();

      // A macro's short key then Space expands it.
      await newParagraph(radiologist);
      await radiologist.keyboard.type('nad ');
      await expectText(radiologist, 'No abnormality detected.');
      await expectText(transcriptionist, 'No abnormality detected.');
      expect(await editorOf(radiologist).textContent()).not.toMatch(/\bnad\b/);
      await radiologist.locator('[data-save-state="saved"]').waitFor();
      await screenshot(radiologist, 'reporting-editor.png');
      // The expanded macro follows the template's last line: the caret was at the end.
      expect(await editorOf(transcriptionist).innerHTML()).toMatch(
        /No acute intracranial abnormality\.<\/strong><\/p><p>(<strong>)?No abnormality detected\./,
      );

      // The transcriptionist saves the draft, then submits it for review; both screens follow.
      await transcriptionist.getByRole('button', { name: 'Save draft' }).click();
      await transcriptionist.getByText('Report saved as draft').waitFor();
      await expect.poll(() => statusOf(radiologist).textContent(), { timeout: 10_000 }).toBe('Drafted');
      await transcriptionist.getByRole('button', { name: 'Submit for review' }).click();
      await transcriptionist.getByText('Submitted for review').waitFor();
      await expect.poll(() => statusOf(radiologist).textContent(), { timeout: 10_000 }).toBe('In Review');

      // The radiologist returns it with a comment, which the history shows.
      await radiologist.getByRole('button', { name: 'Return with comment' }).click();
      const returnDialog = radiologist.getByRole('dialog', { name: 'Return to draft' });
      await returnDialog.getByLabel('Comment').fill('Please add the comparison study.');
      await returnDialog.getByRole('button', { name: 'Return', exact: true }).click();
      await expect.poll(() => statusOf(transcriptionist).textContent(), { timeout: 10_000 }).toBe('Drafted');
      await radiologist.getByText('Please add the comparison study.').waitFor();

      // Then finalizes it: read-only for everyone, FINAL live on the third person's worklist.
      await radiologist.getByRole('button', { name: 'Finalize' }).click();
      const finalDialog = radiologist.getByRole('dialog', { name: 'Finalize the report?' });
      await finalDialog.getByRole('button', { name: 'Finalize', exact: true }).click();
      await radiologist.getByText('Report finalized').waitFor();
      await expect.poll(() => statusOf(radiologist).textContent(), { timeout: 10_000 }).toBe('Final');
      const finalText = radiologist.getByRole('article', { name: 'Report text' });
      await expect.poll(() => finalText.textContent()).toContain('Dictation typed by the transcriptionist.');
      await transcriptionist.getByRole('article', { name: 'Report text' }).waitFor({ timeout: 10_000 });
      expect(await transcriptionist.getByRole('button', { name: 'Add addendum' }).count()).toBe(0);
      await expect.poll(() => watchedRow.textContent(), { timeout: 10_000 }).toContain('Final');

      // A final report changes only by addendum, shown below it.
      await radiologist.getByRole('button', { name: 'Add addendum' }).click();
      await radiologist.getByRole('textbox', { name: 'Addendum text' }).click();
      await radiologist.keyboard.type('Addendum: comparison with the prior study shows no change.');
      await radiologist.getByRole('button', { name: 'Submit addendum' }).click();
      await radiologist.getByText('Addendum added').waitFor();
      await radiologist
        .getByRole('article', { name: 'Addendum text' })
        .filter({ hasText: 'comparison with the prior study' })
        .waitFor();
      await screenshot(radiologist, 'reporting-final-addendum.png');
    });
  }, 180_000);

  it('shows patient documents inline, inserts key images by their API path, and keeps offline typing', async () => {
    const study = await collaborativeStudy();
    const radiologist = await signedIn(RADIOLOGIST);
    await withFailureShots({ radiologist }, async () => {
      await openReport(radiologist, study);

      // A patient document uploaded here is listed and opens inline, fetched with the token.
      const documents = radiologist.getByRole('region', { name: 'Patient documents' });
      await documents.locator('input[type=file]').setInputFiles({
        name: 'referral.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
      });
      await documents.getByRole('button', { name: 'View referral.pdf' }).click();
      const viewer = radiologist.getByRole('dialog', { name: 'referral.pdf' });
      await expect.poll(() => viewer.locator('iframe').getAttribute('src')).toMatch(/^blob:/);
      await viewer.getByRole('button', { name: 'Close' }).click();

      // A key image: uploaded, shown as a thumbnail, inserted at the caret.
      await newParagraph(radiologist);
      await radiologist.keyboard.type('Key image of the lesion:');
      await radiologist.getByRole('button', { name: 'Key images', exact: true }).click();
      const panel = radiologist.getByRole('complementary', { name: 'Key images' });
      await panel.locator('input[type=file]').setInputFiles({
        name: 'lesion.png',
        mimeType: 'image/png',
        buffer: gradientPng(160, 120),
      });
      const thumbnail = panel.getByRole('button', { name: 'Insert lesion.png' }).locator('img');
      await expect.poll(() => thumbnail.getAttribute('src'), { timeout: 10_000 }).toMatch(/^blob:/);
      await panel.getByRole('button', { name: 'Insert lesion.png' }).click();
      const inserted = editorOf(radiologist).locator('img[data-src]');
      await expect
        .poll(() => inserted.getAttribute('data-src'))
        .toMatch(/^\/api\/v1\/worklist\/report\/[0-9a-f-]{36}\/images\/[0-9a-f-]{36}$/);
      await expect.poll(() => inserted.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(160);
      await radiologist.locator('[data-save-state="saved"]').waitFor();
      await screenshot(radiologist, 'reporting-key-images.png');

      // Offline: typing goes on, the state line says so, and everything merges on reconnect.
      await radiologist.context().setOffline(true);
      await newParagraph(radiologist);
      await radiologist.keyboard.type('Written while offline.');
      await radiologist.locator('[data-save-state="offline"]').waitFor({ timeout: 45_000 });
      await radiologist.context().setOffline(false);
      await radiologist.locator('[data-save-state="saved"]').waitFor({ timeout: 45_000 });
      await radiologist.reload();
      await reportReady(radiologist, study);
      await expectText(radiologist, 'Written while offline.');
      await expect.poll(() => editorOf(radiologist).locator('img[data-src]').count()).toBe(1);
    });
  }, 180_000);
});
