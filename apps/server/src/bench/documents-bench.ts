// Report rendering benchmark, in-process and without a database: a realistic 2-page report with
// letterhead (300 dpi PNG with transparency), two photograph-like JPEG key images (~100 KB each) and
// a signature (documents/sample-report.ts) rendered as PDF and as DOCX,
// after a warm-up (fonts read and parsed once per process, as in the server). Issue 6 targets:
// PDF p50 ≤ 120 ms, DOCX p50 ≤ 30 ms.
// Then large reports (100k/300k/1M characters) through the render pool with a /healthz probe
// (documents-bench-large.ts); BENCH_LARGE=0 skips them.
// Run: node apps/server/dist/bench/documents-bench.js  (after npm run build). Prints tables.
import { execFileSync } from 'node:child_process';
import { renderReportDocx, renderReportPdf } from '../documents/index.ts';
import { sampleReportInput } from '../documents/sample-report.ts';
import { benchLargeReports } from './documents-bench-large.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 50);
const WARM_UP = 5;
const TARGET_PDF_P50_MS = 120;
const TARGET_DOCX_P50_MS = 30;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function measure(render: () => Promise<Buffer>): Promise<{ times: number[]; bytes: number }> {
  let bytes = 0;
  for (let i = 0; i < WARM_UP; i++) bytes = (await render()).length;
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const started = performance.now();
    await render();
    times.push(performance.now() - started);
  }
  return { times, bytes };
}

/** Pages of a PDF, counted by pdfinfo when it is installed (else by the page objects). */
function pdfPages(pdf: Buffer): number {
  try {
    return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', ['-'], { input: pdf }).toString())?.[1]);
  } catch {
    return pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;
  }
}

const input = sampleReportInput({ letterhead: true, final: true, realistic: true });
const pdf = await measure(() => renderReportPdf(input));
const docx = await measure(() => renderReportDocx(input));
const pages = pdfPages(await renderReportPdf(input));

const ms = (value: number) => value.toFixed(1).padStart(6);
const row = (name: string, result: { times: number[]; bytes: number }, target: number) => {
  const p50 = percentile(result.times, 50);
  const verdict = p50 <= target ? `ok (≤ ${target})` : `MISSED (> ${target})`;
  return `| ${name.padEnd(5)} | ${ms(p50)} | ${ms(percentile(result.times, 95))} | ${ms(percentile(result.times, 99))} | ${(result.bytes / 1024).toFixed(0).padStart(5)} KB | ${verdict.padEnd(15)} |\n`;
};
process.stdout.write(
  `\nReport rendering, in-process: ${pages}-page report with letterhead, 2 key images, signature, addendum; ${ITERATIONS} renders after ${WARM_UP} warm-up\n`,
);
process.stdout.write('| File  | p50 ms | p95 ms | p99 ms |     size | p50 target      |\n');
process.stdout.write('| ----- | -----: | -----: | -----: | -------: | --------------- |\n');
process.stdout.write(row('PDF', pdf, TARGET_PDF_P50_MS));
process.stdout.write(row('DOCX', docx, TARGET_DOCX_P50_MS));

if (process.env.BENCH_LARGE !== '0') await benchLargeReports();
