// Content a report writer (or a preview request) can send that once froze or crashed the renderer:
// very long words, thousands of runs in one paragraph, thousands of nested tags, images with huge
// dimensions in a tiny file, control characters. Each must render, keep every letter, and leave out
// only what cannot be drawn safely. (Behaviour only: no timing is asserted.)
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReportDocx, renderReportPdf } from './index.ts';
import { breakLongWords } from './pdf/pdf-body.ts';
import type { TReportDocumentInput } from './report-document.ts';
import { hugePng, KEY_IMAGE_1, sampleReportInput, solidPng } from './sample-report.ts';

const run = promisify(execFile);
let workDir = '';
let fileCount = 0;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'ris-hostile-test-'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

async function pdfFile(input: TReportDocumentInput): Promise<string> {
  const file = path.join(workDir, `report-${++fileCount}.pdf`);
  await writeFile(file, await renderReportPdf(input));
  return file;
}

/** The PDF's text with white space and zero-width spaces removed (where lines wrap is no matter). */
async function pdfLetters(input: TReportDocumentInput): Promise<string> {
  const file = await pdfFile(input);
  const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
  const pages = /Pages:\s+(\d+)/.exec((await run('pdfinfo', [file])).stdout)?.[1] ?? '';
  // Without white space, zero-width spaces and the running footer of each page.
  const footer = new RegExp(`AshaVerma·PID-204518Page\\d+of${pages}`, 'g');
  return stdout.replace(/[\s\u200b]+/g, '').replace(footer, '');
}

/** Number of distinct images in the PDF (pdfimages -list: a line per placement, object id 11th). */
async function pdfImageCount(input: TReportDocumentInput): Promise<number> {
  const { stdout } = await run('pdfimages', ['-list', await pdfFile(input)]);
  const lines = stdout.trim().split('\n').slice(2);
  return new Set(lines.map((line) => line.trim().split(/\s+/)[10])).size;
}

async function docxParts(input: TReportDocumentInput): Promise<{ xml: string[]; media: number }> {
  const zip = await JSZip.loadAsync(await renderReportDocx(input));
  const names = Object.keys(zip.files);
  const xml = await Promise.all(
    names.filter((name) => name.endsWith('.xml')).map(async (name) => zip.file(name)?.async('string') ?? ''),
  );
  return { xml, media: names.filter((name) => name.startsWith('word/media/')).length };
}

/** A 20,000-letter word that is not one letter repeated, so its order can be checked. */
const LONG_WORD = Array.from({ length: 2000 }, (_, i) => `w${String(i).padStart(4, '0')}xyzq`)
  .join('')
  .slice(0, 20_000);

describe('breakLongWords', () => {
  it('puts a zero-width space every 40 characters of a word, and nothing in short words', () => {
    expect(breakLongWords('short words stay as they are')).toBe('short words stay as they are');
    const broken = breakLongWords('a'.repeat(100));
    expect(broken.split('\u200b').map((part) => part.length)).toEqual([40, 40, 20]);
  });

  it('counts a word across runs and never splits a character from its marks or joiner', () => {
    const state = { unbroken: 0, previous: '' };
    expect(breakLongWords('a'.repeat(30), state)).toBe('a'.repeat(30));
    expect(breakLongWords('b'.repeat(30), state)).toBe(`${'b'.repeat(10)}\u200b${'b'.repeat(20)}`);
    // Devanagari: क्षि = क + virama + ष + vowel sign i; marks stay with their letter.
    const word = 'क्षि'.repeat(40);
    const parts = breakLongWords(word).split('\u200b');
    expect(parts.join('')).toBe(word);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts.slice(1)) expect(part.startsWith('क')).toBe(true);
  });
});

describe('renderer on hostile input', () => {
  it('renders a 20,000-letter word and a paragraph of 10,000 runs with every letter in order', async () => {
    const runs = Array.from({ length: 10_000 }, (_, i) =>
      i % 2 ? `<strong>${i % 10}</strong>` : `<em>${i % 10}</em>`,
    ).join('');
    const letters = await pdfLetters(sampleReportInput({ bodyHtml: `<p>${LONG_WORD}</p><p>${runs}</p>` }));
    expect(letters).toContain(LONG_WORD);
    expect(letters).toContain(Array.from({ length: 10_000 }, (_, i) => i % 10).join(''));
    const docx = await docxParts(sampleReportInput({ bodyHtml: `<p>${LONG_WORD}</p>` }));
    expect(docx.xml.join('')).toContain(LONG_WORD);
  });

  it('renders thousands of nested tags (unsanitised) without overflowing the stack, text kept', async () => {
    const deep =
      `${'<strong>'.repeat(5000)}deepstrong${'</strong>'.repeat(5000)}` +
      `${'<blockquote>'.repeat(20_000)}deepquote${'</blockquote>'.repeat(20_000)}<p>afterwards</p>`;
    const letters = await pdfLetters(sampleReportInput({ bodyHtml: deep }));
    for (const text of ['deepstrong', 'deepquote', 'afterwards']) expect(letters).toContain(text);
    const docx = (await docxParts(sampleReportInput({ bodyHtml: deep }))).xml.join('');
    for (const text of ['deepstrong', 'deepquote', 'afterwards']) expect(docx).toContain(text);
  });

  it('leaves out images over 25 megapixels (key image and letterhead) and renders the rest', async () => {
    const bomb = hugePng(6000, 6000);
    expect(bomb.data.length).toBeLessThan(200 * 1024);
    const bodyHtml = `<p>before</p><img src="${KEY_IMAGE_1}"><p>after</p>`;
    const base = sampleReportInput({ bodyHtml });
    const withBombs: TReportDocumentInput = {
      ...base,
      images: new Map([[KEY_IMAGE_1, bomb]]),
      letterhead: { mode: 'letterhead', header: bomb, footer: solidPng(1240, 100, [0, 0, 255]) },
    };
    const without: TReportDocumentInput = {
      ...withBombs,
      images: new Map(),
      letterhead: { mode: 'letterhead', header: null, footer: solidPng(1240, 100, [0, 0, 255]) },
    };
    expect(await pdfImageCount(withBombs)).toBe(await pdfImageCount(without));
    const letters = await pdfLetters(withBombs);
    expect(letters).toContain('before');
    expect(letters).toContain('after');
    expect((await docxParts(withBombs)).media).toBe((await docxParts(without)).media);
    // A large image within the limit is drawn.
    const fine: TReportDocumentInput = { ...without, images: new Map([[KEY_IMAGE_1, hugePng(1500, 1500)]]) };
    expect(await pdfImageCount(fine)).toBe((await pdfImageCount(without)) + 1);
  });

  it('writes well-formed DOCX XML whatever control characters the text holds', async () => {
    const input = sampleReportInput({ bodyHtml: '<p>a\u0001b\u0008c\u001fd\ufffe\ud800e\u007f\tf</p>' });
    input.patient.patientName = 'Asha\u0007 Verma';
    input.meta = { ...input.meta, title: 'CT\u0000 report' };
    const { xml } = await docxParts(input);
    const all = xml.join('');
    expect(all).not.toMatch(/(?![\t\n\r])[\p{Cc}\p{Cs}\ufffe\uffff]/u);
    expect(all).toContain('abcde');
    expect(all).toContain('Asha Verma');
  });
});
