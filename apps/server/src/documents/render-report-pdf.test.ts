// The PDF as a reader gets it: text extracted by pdftotext and pages rasterised by pdftoppm
// (poppler-utils, installed by .ci/run), decoded with pngjs for pixel checks.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReportPdf } from './index.ts';
import type { TReportDocumentInput } from './report-document.ts';
import {
  BLUE,
  GREEN,
  KEY_IMAGE_1,
  RED,
  sampleReportInput,
  solidJpeg,
  solidPng,
  type TRgb,
} from './sample-report.ts';

const run = promisify(execFile);
let workDir = '';

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'ris-pdf-test-'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

async function poppler(tool: 'pdftotext' | 'pdftoppm' | 'pdfinfo', args: string[]): Promise<string> {
  try {
    return (await run(tool, args, { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        `${tool} is missing: install poppler-utils (apt-get install poppler-utils; .ci/run does)`,
      );
    }
    throw error;
  }
}

let fileCount = 0;
async function pdfFile(input: TReportDocumentInput): Promise<string> {
  const file = path.join(workDir, `report-${++fileCount}.pdf`);
  const pdf = await renderReportPdf(input);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  await writeFile(file, pdf);
  return file;
}

async function pageCount(file: string): Promise<number> {
  return Number(/Pages:\s+(\d+)/.exec(await poppler('pdfinfo', [file]))?.[1]);
}

/** Text of one page (1-based) or of the whole document. */
async function pdfText(file: string, page?: number, layout = false): Promise<string> {
  const range = page === undefined ? [] : ['-f', String(page), '-l', String(page)];
  return poppler('pdftotext', ['-enc', 'UTF-8', ...(layout ? ['-layout'] : []), ...range, file, '-']);
}

/** Every page rendered at 30 dpi (A4 ≈ 248 × 351 px). */
async function pageImages(file: string): Promise<PNG[]> {
  const prefix = `${file}-page`;
  await poppler('pdftoppm', ['-r', '30', '-png', file, prefix]);
  const names = (await readdir(workDir))
    .filter((name) => name.startsWith(path.basename(prefix)) && name.endsWith('.png'))
    .sort();
  return Promise.all(names.map(async (name) => PNG.sync.read(await readFile(path.join(workDir, name)))));
}

function near(png: PNG, index: number, rgb: TRgb, tolerance = 40): boolean {
  return (
    Math.abs((png.data[index] ?? 0) - rgb[0]) <= tolerance &&
    Math.abs((png.data[index + 1] ?? 0) - rgb[1]) <= tolerance &&
    Math.abs((png.data[index + 2] ?? 0) - rgb[2]) <= tolerance
  );
}

/** Share of the pixels in rows [top, bottom) that have the colour. */
function bandShare(png: PNG, top: number, bottom: number, rgb: TRgb): number {
  let hits = 0;
  for (let y = top; y < bottom; y++) {
    for (let x = 0; x < png.width; x++) if (near(png, (y * png.width + x) * 4, rgb)) hits++;
  }
  return hits / ((bottom - top) * png.width);
}

/** Left and right edge (px) of the pixels with the colour, or null when there are none. */
function columnsOf(png: PNG, rgb: TRgb): { left: number; right: number } | null {
  let left = Infinity;
  let right = -Infinity;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      if (near(png, (y * png.width + x) * 4, rgb, 12)) {
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
    }
  }
  return left === Infinity ? null : { left, right };
}

const WHITE: TRgb = [255, 255, 255];
/** Header band 32 mm ≈ 38 px and footer band 18 mm ≈ 21 px at 30 dpi (default style). */
const HEADER_ROWS: [number, number] = [3, 30];
const FOOTER_ROWS = (png: PNG): [number, number] => [png.height - 16, png.height - 3];

function twoPageBody(): string {
  return [
    '<h2>Findings</h2><p>Liver is <strong>normal</strong> in size. Gallbladder <em>is</em> <u>unremarkable</u>.</p>',
    '<ul><li><p>No ascites.</p></li><li><p>No free air.</p></li></ul>',
    '<table><tbody><tr><th><p>Organ</p></th><th><p>Size</p></th></tr><tr><td><p>Spleen</p></td><td><p>11 cm</p></td></tr></tbody></table>',
    '<div data-type="page-break"></div>',
    '<h3>Impression</h3><ol><li><p>Normal abdomen.</p></li></ol>',
  ].join('');
}

describe('renderReportPdf', () => {
  it('prints the patient block, title, body, signature, addendum and "Page X of Y" on a 2-page report', async () => {
    const file = await pdfFile(sampleReportInput({ bodyHtml: twoPageBody() }));
    expect(await pageCount(file)).toBe(2);
    const first = await pdfText(file, 1);
    const second = await pdfText(file, 2);
    for (const text of [
      'Patient name',
      'Asha Verma',
      'PID-204518',
      '42 Y / F',
      'CT Chest with contrast',
      'ACC-99812',
    ]) {
      expect(first).toContain(text);
    }
    for (const text of [
      '21 Nov 2026, 14:05',
      '21 Nov 2026, 16:40',
      'Dr Kiran Mehta',
      'City General Hospital',
      'CT CHEST — REPORT',
    ]) {
      expect(first).toContain(text);
    }
    expect(first).toContain('Findings');
    expect(first).toContain('Liver is normal in size. Gallbladder is unremarkable.');
    expect(first).toContain('No ascites.');
    expect(first).toContain('No free air.');
    expect(first).toMatch(/Organ\s+Size\s+Spleen\s+11 cm/);
    expect(first).toContain('Page 1 of 2');
    // The page break moved the impression, signature and addendum to page 2.
    expect(first).not.toContain('Impression');
    expect(second).toContain('Impression');
    expect(second).toMatch(/1\.\s*Normal abdomen\./);
    expect(second).toContain('Dr Anil Rao');
    expect(second).toContain('MD Radiology');
    expect(second).toContain('Reg. No. KMC 45122');
    expect(second).toContain('Electronically signed 21 Nov 2026, 16:40');
    expect(second).toContain('Addendum 1 — Dr Anil Rao, 22 Nov 2026, 09:10');
    expect(second).toContain('Comparison with the prior study of 2025 confirms the nodule is unchanged.');
    expect(second).toContain('Page 2 of 2');
  });

  it('sets Indic text in the Noto font of its script, extracted intact', async () => {
    const input = sampleReportInput({
      bodyHtml:
        '<p>रोगी का नाम: सीता देवी। क्षेत्र सामान्य है।</p><p>தமிழ் நோயாளி பெயர் — শরীর — ਸਿਹਤ — ആരോഗ്യം — ಆರೋಗ್ಯ — ఆరోగ్యం — આરોગ્ય</p>',
    });
    input.patient.patientName = 'सीता देवी';
    const pdf = await renderReportPdf(input);
    const file = path.join(workDir, 'indic.pdf');
    await writeFile(file, pdf);
    const text = await pdfText(file);
    expect(text).toContain('सीता देवी');
    expect(text).toContain('रोगी का नाम');
    expect(text).toContain('क्षेत्र');
    // Tamil, Bengali...: shaped by fontkit (see the rendered page); text without pre-base vowel signs
    // extracts in logical order (pre-base signs come out in visual order, as in any PDF without
    // ActualText).
    expect(text).toContain('தமிழ்');
    const fonts = pdf.toString('latin1');
    for (const family of [
      'Devanagari',
      'Tamil',
      'Bengali',
      'Gurmukhi',
      'Malayalam',
      'Kannada',
      'Telugu',
      'Gujarati',
    ]) {
      expect(fonts).toMatch(new RegExp(`/BaseFont /[A-Z]{6}\\+NotoSans${family}-`));
    }
  });

  it('draws the letterhead header and footer images in their bands on every page', async () => {
    const file = await pdfFile(
      sampleReportInput({ bodyHtml: `${twoPageBody()}<div data-type="page-break"></div><p>third</p>` }),
    );
    const pages = await pageImages(file);
    expect(pages).toHaveLength(3);
    for (const page of pages) {
      expect(bandShare(page, ...HEADER_ROWS, RED)).toBeGreaterThan(0.95);
      expect(bandShare(page, ...FOOTER_ROWS(page), BLUE)).toBeGreaterThan(0.95);
      // The body starts below the header band and ends above the footer band.
      expect(bandShare(page, 40, page.height - 24, RED)).toBe(0);
      expect(bandShare(page, 40, page.height - 24, BLUE)).toBe(0);
    }
  });

  it('draws a letterhead with transparency over white paper', async () => {
    const png = new PNG({ width: 1240, height: 180 });
    for (let i = 0; i < png.data.length; i += 4) {
      const left = (i / 4) % 1240 < 620;
      png.data.set(left ? [255, 0, 0, 255] : [0, 0, 255, 0], i);
    }
    const input = sampleReportInput({ bodyHtml: '<p>Body</p>' });
    input.letterhead = {
      mode: 'letterhead',
      header: { data: PNG.sync.write(png), mediaType: 'image/png' },
      footer: null,
    };
    const [page] = await pageImages(await pdfFile(input));
    if (!page) throw new Error('no page');
    const half = Math.floor(page.width / 2);
    const share = (x0: number, x1: number, rgb: TRgb) => {
      let hits = 0;
      for (let y = HEADER_ROWS[0]; y < HEADER_ROWS[1]; y++) {
        for (let x = x0; x < x1; x++) if (near(page, (y * page.width + x) * 4, rgb)) hits++;
      }
      return hits / ((HEADER_ROWS[1] - HEADER_ROWS[0]) * (x1 - x0));
    };
    expect(share(2, half - 2, RED)).toBeGreaterThan(0.95);
    expect(share(half + 2, page.width - 2, WHITE)).toBe(1);
    // No footer image: its band stays blank.
    expect(bandShare(page, ...FOOTER_ROWS(page), WHITE)).toBe(1);
  });

  it('keeps the letterhead space empty on blank paper', async () => {
    const file = await pdfFile(sampleReportInput({ letterhead: false, bodyHtml: twoPageBody() }));
    const pages = await pageImages(file);
    expect(pages).toHaveLength(2);
    for (const page of pages) {
      expect(bandShare(page, ...HEADER_ROWS, WHITE)).toBe(1);
      expect(bandShare(page, ...FOOTER_ROWS(page), WHITE)).toBe(1);
    }
  });

  it('marks every page of a non-final report and no page of a final one', async () => {
    const body = twoPageBody();
    const draft = await pdfFile(sampleReportInput({ final: false, bodyHtml: body }));
    const final = await pdfFile(sampleReportInput({ final: true, bodyHtml: body }));
    for (const page of [1, 2]) {
      expect(await pdfText(draft, page)).toContain('PRELIMINARY — NOT FINAL');
      expect(await pdfText(final, page)).not.toContain('PRELIMINARY');
    }
  });

  it('scales key images to their width attribute and to the content width', async () => {
    const wide = `/api/v1/worklist/report/0b9e7a52-3c1d-4e0f-9a55-2d8b1f6c7e10/images/11111111-2222-4333-8444-555555555555`;
    const input = sampleReportInput({
      letterhead: false,
      bodyHtml: `<img src="${KEY_IMAGE_1}" width="200"><div data-type="page-break"></div><img src="${wide}">`,
    });
    input.style = { ...input.style, show_patient_block: false };
    input.title = null;
    input.signatures = [];
    input.addenda = [];
    input.images = new Map([
      [KEY_IMAGE_1, solidPng(512, 512, GREEN)],
      [wide, solidJpeg(4000, 600, GREEN)],
    ]);
    const [first, second] = await pageImages(await pdfFile(input));
    // 200 CSS px = 150 pt ≈ 62 px at 30 dpi; content width 595 − 2 × 18 mm ≈ 493 pt ≈ 205 px.
    const small = first ? columnsOf(first, GREEN) : null;
    const large = second ? columnsOf(second, GREEN) : null;
    expect(small && small.right - small.left + 1).toBeGreaterThanOrEqual(60);
    expect(small && small.right - small.left + 1).toBeLessThanOrEqual(64);
    expect(large && large.right - large.left + 1).toBeGreaterThanOrEqual(203);
    expect(large && large.right - large.left + 1).toBeLessThanOrEqual(207);
  });

  it('places signatures left, centred or right, side by side', async () => {
    const ink: TRgb = [20, 20, 120];
    const centres: Record<string, number> = {};
    for (const placement of ['left', 'center', 'right'] as const) {
      const input = sampleReportInput({
        letterhead: false,
        bodyHtml: '<p>Body</p>',
        style: { signature_placement: placement },
      });
      input.addenda = [];
      const [page] = await pageImages(await pdfFile(input));
      const columns = page ? columnsOf(page, ink) : null;
      expect(columns).not.toBeNull();
      centres[placement] = columns ? (columns.left + columns.right) / 2 : 0;
    }
    const middle = 248 / 2;
    expect(centres.left).toBeLessThan(middle - 40);
    expect(Math.abs((centres.center ?? 0) - middle)).toBeLessThan(6);
    expect(centres.right).toBeGreaterThan(middle + 40);

    const three = sampleReportInput({ letterhead: false, bodyHtml: '<p>Body</p>' });
    three.signatures = ['Dr One', 'Dr Two', 'Dr Three'].map((displayName) => ({
      displayName,
      description: 'MD',
      image: null,
      signedNote: null,
    }));
    // Two blocks fit side by side in the content width; the third starts a second row.
    const text = await pdfText(await pdfFile(three), 1, true);
    expect(text).toMatch(/Dr One +Dr Two\n/);
    expect(text).toMatch(/\n +Dr Three\n/);
  });

  it('never fails on empty, odd or huge content and never drops text', async () => {
    const empty = sampleReportInput({ bodyHtml: '' });
    empty.signatures = [];
    empty.addenda = [];
    expect(await pageCount(await pdfFile(empty))).toBe(1);

    const odd = sampleReportInput({
      bodyHtml:
        '<custom-tag>kept text</custom-tag><p><img src="/not/in/map.png">after missing image</p><img src="' +
        KEY_IMAGE_1 +
        '"><table><tr><td colspan="999" rowspan="999">huge span</td></tr></table><ol><li><ol><li><ol><li>deep</li></ol></li></ol></li></ol>',
    });
    odd.images = new Map([[KEY_IMAGE_1, { data: Buffer.from('not an image'), mediaType: 'image/png' }]]);
    const oddText = await pdfText(await pdfFile(odd));
    for (const text of ['kept text', 'after missing image', 'huge span', 'deep'])
      expect(oddText).toContain(text);

    const huge = sampleReportInput({ bodyHtml: `<img src="${KEY_IMAGE_1}" width="99999"><p>after</p>` });
    huge.images = new Map([[KEY_IMAGE_1, solidPng(1500, 6000, GREEN)]]);
    expect(await pdfText(await pdfFile(huge))).toContain('after');
  });

  it('renders documents at the same time without mixing them up', async () => {
    const names = ['सीता देवी', 'Ravi Kumar', 'தமிழ் அரசி', 'Meera Nair'];
    const files = await Promise.all(
      names.map((name, i) => {
        const input = sampleReportInput({ bodyHtml: `<p>Body of report ${i}</p>`, final: i % 2 === 0 });
        input.patient.patientName = name;
        return pdfFile(input);
      }),
    );
    for (const [i, file] of files.entries()) {
      const text = await pdfText(file);
      expect(text).toContain(names[i]);
      expect(text).toContain(`Body of report ${i}`);
      for (const [j, other] of names.entries()) if (j !== i) expect(text).not.toContain(other);
    }
  });

  it('renders a 200-page report with a long table', async () => {
    const rows = Array.from(
      { length: 6000 },
      (_, i) => `<tr><td><p>row ${i}</p></td><td><p>${i * 2} mm</p></td></tr>`,
    ).join('');
    const input = sampleReportInput({
      bodyHtml: `<table><tbody><tr><th><p>Row</p></th><th><p>Size</p></th></tr>${rows}</tbody></table><p>end of report</p>`,
    });
    const file = await pdfFile(input);
    const pages = await pageCount(file);
    expect(pages).toBeGreaterThanOrEqual(150);
    expect(await pdfText(file)).toContain('end of report');
    expect(await pdfText(file, pages)).toContain(`Page ${pages} of ${pages}`);
    expect(await pdfText(file, 100)).toMatch(/Row\s+Size/);
  }, 120_000);
});
