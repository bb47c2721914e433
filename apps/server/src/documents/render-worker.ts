// The worker-thread side of the render pool (render-pool.ts): one task = one report rendered as PDF
// or DOCX. Loaded by piscina in a worker thread, from dist/ (render-worker.js) or, in tests and
// `npm run dev`, from source with --conditions=ris-source. Fonts are read and parsed once per worker.
import { renderReportDocx } from './docx/render-report-docx.ts';
import { renderReportPdf } from './pdf/render-report-pdf.ts';
import type { TDocumentImage, TReportDocumentInput } from './report-document.ts';

export type TRenderFormat = 'pdf' | 'docx';
export type TRenderTask = { format: TRenderFormat; input: TReportDocumentInput };

/** Structured cloning turns each Buffer into a plain Uint8Array: make it a Buffer again (no copy). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function reviveImage<T extends TDocumentImage | null>(image: T): T {
  return (image ? { ...image, data: asBuffer(image.data) } : image) as T;
}

/** The task's input with its image bytes as Buffers again. */
export function reviveInput(input: TReportDocumentInput): TReportDocumentInput {
  const { letterhead } = input;
  return {
    ...input,
    images: new Map([...input.images].map(([src, image]) => [src, reviveImage(image)])),
    signatures: input.signatures.map((signature) => ({ ...signature, image: reviveImage(signature.image) })),
    letterhead:
      letterhead.mode === 'letterhead'
        ? {
            mode: 'letterhead',
            header: reviveImage(letterhead.header),
            footer: reviveImage(letterhead.footer),
          }
        : letterhead,
  };
}

/** piscina's entry: the rendered file's bytes (copied back to the main thread by structured clone). */
export default async function render(task: TRenderTask): Promise<Uint8Array> {
  const input = reviveInput(task.input);
  return task.format === 'pdf' ? renderReportPdf(input) : renderReportDocx(input);
}
