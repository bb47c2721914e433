// The render pool: a worker renders the same file as the main thread would (images and all, after
// their trip through structured cloning), and a worker past its heap limit answers MEMORY.
import { afterEach, describe, expect, it } from 'vitest';
import { renderReportDocx } from './docx/render-report-docx.ts';
import { renderReportPdf } from './pdf/render-report-pdf.ts';
import { DocumentRenderError, RenderPool } from './render-pool.ts';
import { DEFAULT_RENDER_SETTINGS } from './render-settings.ts';
import { sampleReportInput } from './sample-report.ts';

const pools: RenderPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function pool(settings: Partial<typeof DEFAULT_RENDER_SETTINGS> = {}): RenderPool {
  const created = new RenderPool({ ...DEFAULT_RENDER_SETTINGS, ...settings });
  pools.push(created);
  return created;
}

const input = () => {
  const sample = sampleReportInput({ letterhead: true, final: true });
  return { ...sample, meta: { ...sample.meta, createdAt: new Date('2026-11-25T10:00:00Z') } };
};

describe('render pool', () => {
  it('renders in a worker exactly what the main thread renders (letterhead, key images, signature)', async () => {
    const renders = pool({ threads: 2 });
    const [pdf, docx] = await Promise.all([renders.render('pdf', input()), renders.render('docx', input())]);
    expect(Buffer.isBuffer(pdf)).toBe(true);
    expect(pdf.equals(await renderReportPdf(input()))).toBe(true);
    // DOCX is a zip whose entries carry the time of writing: compare its size and signature only.
    expect(docx.subarray(0, 2).toString()).toBe('PK');
    expect(Math.abs(docx.length - (await renderReportDocx(input())).length)).toBeLessThan(64);
  });

  it('answers MEMORY when the worker outgrows its heap limit', async () => {
    // 48 MB: enough to start a worker and render a short report, far from enough for 1M characters.
    const renders = pool({ threads: 1, memoryMb: 48 });
    expect((await renders.render('pdf', input())).subarray(0, 5).toString()).toBe('%PDF-');
    const sentence = 'The lungs are clear with no focal consolidation, effusion or pneumothorax. ';
    const big = { ...input(), bodyHtml: `<p>${sentence.repeat(13_000)}</p>` };
    const failure = await renders.render('pdf', big).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DocumentRenderError);
    expect((failure as DocumentRenderError).reason).toBe('MEMORY');
    // The pool goes on with a fresh worker.
    expect((await renders.render('docx', input())).subarray(0, 2).toString()).toBe('PK');
  });
});
