// The linear line breaking lays out exactly what pdfmake's own does: the same PDF, byte for byte,
// for a paragraph of ~9,600 words (windowed), words glued across runs (noNewLine), words wider than
// the line (hard wraps), lists and page breaks.
import { describe, expect, it } from 'vitest';
import { sampleReportInput } from '../sample-report.ts';
import { lineBreaking } from './pdfmake-runtime.ts';
import { renderReportPdf } from './render-report-pdf.ts';

const SENTENCE = 'The lungs are clear with no focal consolidation, effusion or pneumothorax. ';

function bodyHtml(): string {
  // Words split across bold/italic runs are glued (noNewLine) to their next part.
  const glued = Array.from({ length: 60 }, (_, i) => `hyper<b>dense</b><i>${i}</i> focus; `).join('');
  // Over 2 × 4096 words: laid out from a window refilled from the rest (pdfmake-line-breaking.ts).
  const long = SENTENCE.repeat(800);
  const cell = 'W'.repeat(39);
  return [
    `<p>${long}</p>`,
    `<p>${glued}${SENTENCE.repeat(10)}</p>`,
    `<table><tbody><tr><td><p>${cell}${cell}</p></td><td><p>a</p></td><td><p>b</p></td><td><p>${cell}</p></td></tr></tbody></table>`,
    // At 18 pt, 40 letters W (the longest stretch pdf-body leaves unbroken) are wider than the line.
    `<p>${'W'.repeat(400)} and <b>glued</b>text</p>`,
    `<ul>${`<li><p>${SENTENCE.repeat(4)}<b>glued</b>word</p></li>`.repeat(20)}</ul>`,
  ].join('');
}

async function renderWith(buildNextLine: typeof lineBreaking.linear): Promise<Buffer> {
  const { prototype } = lineBreaking;
  const installed = prototype.buildNextLine;
  prototype.buildNextLine = buildNextLine;
  try {
    const input = sampleReportInput({ bodyHtml: bodyHtml(), final: true });
    return await renderReportPdf({
      ...input,
      style: { ...input.style, font_size_pt: 18 },
      meta: { ...input.meta, createdAt: new Date('2026-11-25T10:00:00Z') },
    });
  } finally {
    prototype.buildNextLine = installed;
  }
}

describe("pdfmake's line breaking, made linear", () => {
  it('is installed', () => {
    expect(lineBreaking.prototype.buildNextLine).toBe(lineBreaking.linear);
    expect(lineBreaking.linear).not.toBe(lineBreaking.original);
  });

  it("lays out the same document as pdfmake's own", async () => {
    const ours = await renderWith(lineBreaking.linear);
    const theirs = await renderWith(lineBreaking.original);
    expect(ours.length).toBeGreaterThan(10_000);
    expect(ours.equals(theirs)).toBe(true);
  });
});
