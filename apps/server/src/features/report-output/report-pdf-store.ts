// Storing a report's own PDF (pdf_url) with the command that changed the report (save, finalize,
// addendum): one transaction, so a report is never finalized without its PDF and a failed render
// changes nothing. The render runs in a worker thread (report-file.ts); a long one runs outside any
// transaction (runWithReportPdf), so no database connection or lock waits on it.
import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { TDb, TTx } from '../../db/client.ts';
import { reports } from '../../db/schema/index.ts';
import type { TReportDocumentInput } from '../../documents/index.ts';
import type { BlobStore } from '../../files/blob-store.ts';
import { storeFile } from '../../files/stored-files.ts';
import type { TReportPdfTarget } from '../../events/report-pdfs.ts';
import { loadReportDocument, type TLoadedReportDocument } from './report-document-loader.ts';
import { PDF_MEDIA_TYPE, renderReportFile, type TReportFile } from './report-file.ts';

/** Far above any report (a 200-page report with images is a few MB); a guard, not a product limit. */
const MAX_REPORT_PDF_BYTES = 200 * 1024 * 1024;

/**
 * Report text (body and addenda, characters) above which the PDF is rendered before the transaction
 * rather than inside it. Below it a render takes well under a second (a 2-page report ~100 ms).
 */
export const RENDER_OUTSIDE_TRANSACTION_CHARS = 50_000;

type TReportRow = typeof reports.$inferSelect;

function loadPdfDocument(tx: TTx, blobs: BlobStore, report: TReportRow): Promise<TLoadedReportDocument> {
  return loadReportDocument(tx, blobs, {
    studyId: report.studyId,
    organisationId: report.organisationId,
    letterhead: false,
  });
}

const textLength = (input: TReportDocumentInput) =>
  input.addenda.reduce((sum, addendum) => sum + addendum.html.length, input.bodyHtml.length);

/** A digest of everything a PDF shows (not its creation time): equal digests, equal documents. */
export function documentDigest(input: TReportDocumentInput): string {
  const hash = createHash('sha256');
  const { meta, ...shown } = input;
  const bytesDigest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
  hash.update(
    JSON.stringify(
      { ...shown, meta: { title: meta.title, author: meta.author } },
      // `this[key]` is the value before toJSON (a Buffer's toJSON lists every byte).
      function (this: Record<string, unknown>, key: string, value: unknown) {
        const raw = this[key];
        if (raw instanceof Uint8Array) return bytesDigest(raw);
        if (raw instanceof Map) return [...(raw as Map<unknown, unknown>)];
        return value;
      },
    ),
  );
  return hash.digest('hex');
}

/**
 * Makes the rendered PDF the report's current PDF (pdf_file_id). With `final` (finalisation) it also
 * becomes the final original: final_pdf_file_id and final_pdf_sha256 are set once and never replaced
 * (the update is guarded by final_pdf_file_id IS NULL). Later PDFs (after an addendum) only replace
 * pdf_file_id. Returns the updated report row.
 */
async function storeRenderedPdf(
  tx: TTx,
  blobs: BlobStore,
  target: TReportPdfTarget,
  file: TReportFile,
): Promise<TReportRow> {
  const { report } = target;
  const stored = await storeFile(tx, blobs, {
    data: file.data,
    originalName: file.fileName,
    organisationId: report.organisationId,
    createdBy: target.createdBy,
    accept: [PDF_MEDIA_TYPE],
    maxBytes: MAX_REPORT_PDF_BYTES,
  });
  const [current] = await tx
    .update(reports)
    .set({ pdfFileId: stored.id })
    .where(eq(reports.id, report.id))
    .returning();
  if (!target.final) return current ?? report;
  const [finalized] = await tx
    .update(reports)
    .set({ finalPdfFileId: stored.id, finalPdfSha256: stored.sha256 })
    .where(and(eq(reports.id, report.id), isNull(reports.finalPdfFileId)))
    .returning();
  return finalized ?? current ?? report;
}

/** Renders the report's PDF (without letterhead) inside the transaction and stores it. */
export async function storeReportPdf(
  tx: TTx,
  blobs: BlobStore,
  target: TReportPdfTarget,
): Promise<TReportRow> {
  const { input, patientName } = await loadPdfDocument(tx, blobs, target.report);
  return storeRenderedPdf(tx, blobs, target, await renderReportFile('pdf', input, patientName));
}

/** Thrown to roll back the rehearsal of a command whose PDF is rendered outside the transaction. */
class Rehearsed extends Error {
  readonly document: TLoadedReportDocument;

  constructor(document: TLoadedReportDocument) {
    super('rehearsal rolled back');
    this.document = document;
  }
}

/**
 * Runs `command` in a transaction that also stores the report's new PDF (what `pdfOf` names), as one
 * unit. A short report is rendered inside the transaction. A long one (RENDER_OUTSIDE_TRANSACTION_CHARS)
 * would hold the transaction, its connection and the report's row lock for the whole render (with
 * PGlite: every query of the server), so instead: the command runs and the document is loaded, then
 * that transaction is rolled back; the PDF is rendered with no transaction open; the command runs
 * again in a new transaction and, when the document it yields is the one rendered (same digest), the
 * PDF is stored with it. If anything shown changed in between (another edit, the printed minute of
 * the finalisation), it is rendered again inside that transaction: the stored PDF always shows what
 * is committed. A render that fails leaves nothing written either way.
 */
export async function runWithReportPdf<R>(
  db: TDb,
  blobs: BlobStore,
  command: (tx: TTx) => Promise<R>,
  pdfOf: (result: R) => TReportPdfTarget,
): Promise<{ result: R; report: TReportRow }> {
  let rehearsed: TLoadedReportDocument | null = null;
  try {
    return await db.transaction(async (tx) => {
      const result = await command(tx);
      const target = pdfOf(result);
      const loaded = await loadPdfDocument(tx, blobs, target.report);
      if (textLength(loaded.input) > RENDER_OUTSIDE_TRANSACTION_CHARS) throw new Rehearsed(loaded);
      const file = await renderReportFile('pdf', loaded.input, loaded.patientName);
      return { result, report: await storeRenderedPdf(tx, blobs, target, file) };
    });
  } catch (error) {
    if (!(error instanceof Rehearsed)) throw error;
    rehearsed = error.document;
  }
  const rendered = await renderReportFile('pdf', rehearsed.input, rehearsed.patientName);
  const renderedDigest = documentDigest(rehearsed.input);
  return db.transaction(async (tx) => {
    const result = await command(tx);
    const target = pdfOf(result);
    const loaded = await loadPdfDocument(tx, blobs, target.report);
    const file =
      documentDigest(loaded.input) === renderedDigest
        ? rendered
        : await renderReportFile('pdf', loaded.input, loaded.patientName);
    return { result, report: await storeRenderedPdf(tx, blobs, target, file) };
  });
}
