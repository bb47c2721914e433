// Building a report's PDF or DOCX from the database, for routes (download, preview) and for delivery
// jobs (e-mail and WhatsApp attachments). Implemented by the report-output feature.
import { reportFileName } from '@ris/domain';
import type { TDbOrTx } from '../../db/client.ts';
import type { TReportDocumentInput } from '../../documents/index.ts';
import { DocumentRenderError, renderDocument } from '../../documents/render-pool.ts';
import type { BlobStore } from '../../files/blob-store.ts';
import { AppError } from '../../http/app-error.ts';
import { loadReportDocument } from './report-document-loader.ts';

export type TReportFileRequest = {
  /** The study (worklist item) whose report is rendered. */
  studyId: string;
  /** The caller's organisation: a study of another organisation is not found. */
  organisationId: string;
  format: 'pdf' | 'docx';
  letterhead: boolean;
  /** Signing radiologists in order; default: the report's signatures (or the assigned radiologist). */
  signerIds?: readonly string[] | undefined;
  /** Render this (sanitised on the way in) instead of the stored content: the editor preview. */
  htmlOverride?: string | undefined;
};

export type TReportFile = { data: Buffer; fileName: string; mediaType: string };

/** The answers of a render past its budget, for the OpenAPI document of every route that renders. */

export const PDF_MEDIA_TYPE = 'application/pdf';
export const DOCX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * Renders a loaded report in a worker thread of the render pool (documents/render-pool.ts). A render
 * past its time or memory budget answers 422 DOCUMENT_TOO_COMPLEX; a full render queue 503
 * RENDER_BUSY (try again shortly). Neither blocks any other request.
 */
export async function renderReportFile(
  format: TReportFileRequest['format'],
  input: TReportDocumentInput,
  patientName: string,
): Promise<TReportFile> {
  let data: Buffer;
  try {
    data = await renderDocument(format, input);
  } catch (error) {
    if (!(error instanceof DocumentRenderError)) throw error;
    if (error.reason === 'BUSY') throw new AppError('RENDER_BUSY', error.message, undefined, 503);
    throw new AppError(
      'DOCUMENT_TOO_COMPLEX',
      `${error.message}: shorten the report or split it into addenda`,
      { reason: error.reason },
      422,
    );
  }
  return {
    data,
    fileName: reportFileName(patientName, format),
    mediaType: format === 'pdf' ? PDF_MEDIA_TYPE : DOCX_MEDIA_TYPE,
  };
}

/**
 * The study's report rendered as PDF or DOCX, named "{patient name}_report.{ext}". Scoped by
 * organisation only: callers acting for a user check the user's access to the report first.
 * Errors: 404 (study or report), 400 (rad_user_ids), 409 (a stored image is missing), 422/503 (the
 * render's budget, see renderReportFile).
 */
export async function buildReportFile(
  db: TDbOrTx,
  blobs: BlobStore,
  request: TReportFileRequest,
): Promise<TReportFile> {
  const { format, ...documentRequest } = request;
  const { input, patientName } = await loadReportDocument(db, blobs, documentRequest);
  return renderReportFile(format, input, patientName);
}
