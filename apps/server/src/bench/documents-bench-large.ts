// Large reports (100,000 / 300,000 / 1,000,000 characters of ordinary prose) rendered through the
// render pool, as the server does, with a /healthz probe answering all along: a Fastify app in this
// process with the server's /healthz route, asked every 10 ms while each render runs. Its latency is
// the main thread's responsiveness (a render on the main thread would hold every request for as long
// as it runs). Two shapes: paragraphs of ~600 characters, and the whole text as one paragraph (a
// pasted report; pdfmake's own line breaking was quadratic in it). BENCH_LARGE_MAIN_THREAD=1 adds the
// old way for comparison (the render on the main thread with pdfmake's own line breaking; 100k and
// 300k only: 1M takes minutes).
import Fastify from 'fastify';
import { lineBreaking } from '../documents/pdf/pdfmake-runtime.ts';
import { renderReportPdf } from '../documents/pdf/render-report-pdf.ts';
import { RenderPool } from '../documents/render-pool.ts';
import { DEFAULT_RENDER_SETTINGS } from '../documents/render-settings.ts';
import type { TReportDocumentInput } from '../documents/report-document.ts';
import { sampleReportInput } from '../documents/sample-report.ts';

const SIZES = [100_000, 300_000, 1_000_000] as const;
const SENTENCE = 'The lungs are clear with no focal consolidation, effusion or pneumothorax seen today. ';
const PROBE_INTERVAL_MS = 10;
const TARGET_1M_MS = 10_000;
const TARGET_HEALTHZ_MS = 50;

type TShape = 'paragraphs' | 'one paragraph';

function prose(chars: number, shape: TShape): string {
  const text = SENTENCE.repeat(Math.ceil(chars / SENTENCE.length));
  if (shape === 'one paragraph') return `<p>${text}</p>`;
  const paragraphs: string[] = [];
  for (let at = 0; at < text.length; at += SENTENCE.length * 7) {
    paragraphs.push(`<p>${text.slice(at, at + SENTENCE.length * 7)}</p>`);
  }
  return paragraphs.join('');
}

async function startHealthz(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false });
  app.get('/healthz', async () => ({ status: 'ok' as const }));
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `${url}/healthz`, close: () => app.close() };
}

/** Runs `render` while asking /healthz every PROBE_INTERVAL_MS; the render's time and the probe's latencies. */
async function probed(
  healthz: string,
  render: () => Promise<Buffer>,
): Promise<{ ms: number; bytes: number; latencies: number[] }> {
  const latencies: number[] = [];
  let done = false;
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      await (await fetch(healthz)).arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
    }
  })();
  const started = performance.now();
  const bytes = (await render()).length;
  const ms = performance.now() - started;
  done = true;
  await probe;
  return { ms, bytes, latencies };
}

const max = (values: number[]) => values.reduce((a, b) => Math.max(a, b), 0);
const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)] ?? 0;

function inputOf(chars: number, shape: TShape): TReportDocumentInput {
  return sampleReportInput({ bodyHtml: prose(chars, shape), final: true, realistic: true, letterhead: true });
}

export async function benchLargeReports(): Promise<void> {
  const healthz = await startHealthz();
  const pool = new RenderPool(DEFAULT_RENDER_SETTINGS);
  const rows: string[] = [];
  const row = (what: string, size: number, result: Awaited<ReturnType<typeof probed>>) => {
    const verdict =
      size === 1_000_000 && what.includes('pool') && what.includes('PDF')
        ? result.ms <= TARGET_1M_MS
          ? `ok (≤ ${TARGET_1M_MS / 1000} s)`
          : `MISSED (> ${TARGET_1M_MS / 1000} s)`
        : '';
    const probe = max(result.latencies) < TARGET_HEALTHZ_MS ? 'ok' : 'MISSED';
    rows.push(
      `| ${what.padEnd(34)} | ${size.toLocaleString('en-GB').padStart(9)} | ${(result.ms / 1000).toFixed(2).padStart(6)} | ${(result.bytes / 1024).toFixed(0).padStart(6)} KB | ${String(result.latencies.length).padStart(6)} | ${p99(result.latencies).toFixed(1).padStart(6)} | ${max(result.latencies).toFixed(1).padStart(6)} ${probe.padEnd(6)} | ${verdict.padEnd(11)} |`,
    );
  };
  try {
    // Baseline: the probe with nothing rendering (on a busy machine its latency is not zero either).
    const idle = new Promise<Buffer>((resolve) => setTimeout(() => resolve(Buffer.alloc(0)), 3_000));
    row('nothing (baseline, 3 s)', 0, await probed(healthz.url, () => idle));
    // Warm-up: the pool's workers start and parse their fonts.
    await Promise.all([
      pool.render('pdf', inputOf(1_000, 'paragraphs')),
      pool.render('docx', inputOf(1_000, 'paragraphs')),
    ]);
    for (const shape of ['paragraphs', 'one paragraph'] as const) {
      for (const size of SIZES) {
        const input = inputOf(size, shape);
        row(`PDF, pool, ${shape}`, size, await probed(healthz.url, () => pool.render('pdf', input)));
        row(`DOCX, pool, ${shape}`, size, await probed(healthz.url, () => pool.render('docx', input)));
      }
    }
    if (process.env.BENCH_LARGE_MAIN_THREAD === '1') {
      const { prototype } = lineBreaking;
      prototype.buildNextLine = lineBreaking.original;
      try {
        for (const size of [100_000, 300_000]) {
          const input = inputOf(size, 'one paragraph');
          row(
            'PDF, main thread, before, one par.',
            size,
            await probed(healthz.url, () => renderReportPdf(input)),
          );
        }
      } finally {
        prototype.buildNextLine = lineBreaking.linear;
      }
    }
  } finally {
    await pool.close();
    await healthz.close();
  }
  process.stdout.write(
    `\nLarge reports through the render pool (${DEFAULT_RENDER_SETTINGS.threads} threads), /healthz asked every ${PROBE_INTERVAL_MS} ms during each render\n`,
  );
  process.stdout.write(
    '| Render                             |     chars |      s |      size | probes | hz p99 | hz max (< 50 ms) | 1M target   |\n',
  );
  process.stdout.write(
    '| ---------------------------------- | --------: | -----: | --------: | -----: | -----: | ---------------: | ----------- |\n',
  );
  process.stdout.write(`${rows.join('\n')}\n`);
}
