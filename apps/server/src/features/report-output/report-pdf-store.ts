// Storing a report's own PDF (pdf_url): rendered without letterhead inside the command's
// transaction, so a report is never finalized without its PDF, and a failed render changes nothing.
import { and, eq, isNull } from 'drizzle-orm';
import type { TTx } from '../../db/client.ts';
import { reports } from '../../db/schema/index.ts';
import type { BlobStore } from '../../files/blob-store.ts';
import { storeFile } from '../../files/stored-files.ts';
import type { TReportRow } from '../reports/report.queries.ts';
import { buildReportFile, PDF_MEDIA_TYPE } from './report-file.ts';

/** Far above any report (a 200-page report with images is a few MB); a guard, not a product limit. */
const MAX_REPORT_PDF_BYTES = 200 * 1024 * 1024;

/**
 * Renders the report's PDF and makes it the report's current PDF (pdf_file_id). With `final`
 * (finalisation) it also becomes the final original: final_pdf_file_id and final_pdf_sha256 are set
 * once and never replaced (the update is guarded by final_pdf_file_id IS NULL). Later PDFs (after
 * an addendum) only replace pdf_file_id. Returns the updated report row.
 */
export async function storeReportPdf(
  tx: TTx,
  blobs: BlobStore,
  input: { report: TReportRow; createdBy: string | null; final: boolean },
): Promise<TReportRow> {
  const { report } = input;
  const file = await buildReportFile(tx, blobs, {
    studyId: report.studyId,
    organisationId: report.organisationId,
    format: 'pdf',
    letterhead: false,
  });
  const stored = await storeFile(tx, blobs, {
    data: file.data,
    originalName: file.fileName,
    organisationId: report.organisationId,
    createdBy: input.createdBy,
    accept: [PDF_MEDIA_TYPE],
    maxBytes: MAX_REPORT_PDF_BYTES,
  });
  const [current] = await tx
    .update(reports)
    .set({ pdfFileId: stored.id })
    .where(eq(reports.id, report.id))
    .returning();
  if (!input.final) return current ?? report;
  const [finalized] = await tx
    .update(reports)
    .set({ finalPdfFileId: stored.id, finalPdfSha256: stored.sha256 })
    .where(and(eq(reports.id, report.id), isNull(reports.finalPdfFileId)))
    .returning();
  return finalized ?? current ?? report;
}
