import {
  FALLBACK_ERROR_MESSAGES,
  LOADING_TOAST_MESSAGES,
  SUCCESS_TOAST_DURATION_MS,
  SUCCESS_TOAST_MESSAGES,
  reportFileName,
} from '@ris/domain';
import { useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { notify } from '../../stores/app-store.ts';
import type { TFileResponse } from './blob-request.ts';
import { saveBlob } from './save-file.ts';

/** What is downloaded: a generated PDF or DOCX, or the stored (signed) PDF as it is. */
export type TDownloadKind = 'pdf' | 'docx' | 'stored-pdf';

const TEXTS: Record<TDownloadKind, { loading: string; success: string; failure: string }> = {
  pdf: {
    loading: LOADING_TOAST_MESSAGES.generatingPdf,
    success: SUCCESS_TOAST_MESSAGES.pdfDownloaded,
    failure: FALLBACK_ERROR_MESSAGES.downloadPdfReport,
  },
  docx: {
    loading: LOADING_TOAST_MESSAGES.generatingDocx,
    success: SUCCESS_TOAST_MESSAGES.docxDownloaded,
    failure: FALLBACK_ERROR_MESSAGES.downloadDocxReport,
  },
  'stored-pdf': {
    loading: LOADING_TOAST_MESSAGES.preparingDownload,
    success: SUCCESS_TOAST_MESSAGES.pdfDownloaded,
    failure: FALLBACK_ERROR_MESSAGES.downloadPdfReport,
  },
};

/**
 * Fetches a report file and saves it, with the toasts of spec §8: a loading toast that becomes the
 * success toast (3 s) or the error (the server's message, else the fallback). The file is named by
 * the server's Content-Disposition, else "{patient name}_report.{ext}". Resolves to whether it worked.
 */
export async function downloadReportFile(
  kind: TDownloadKind,
  patientName: string,
  fetchFile: () => Promise<TFileResponse>,
): Promise<boolean> {
  const texts = TEXTS[kind];
  const id = notify('loading', texts.loading);
  try {
    const { blob, fileName } = await fetchFile();
    saveBlob(blob, fileName ?? reportFileName(patientName, kind === 'docx' ? 'docx' : 'pdf'));
    notify('success', texts.success, { id, duration: SUCCESS_TOAST_DURATION_MS });
    return true;
  } catch (error) {
    notify('error', errorMessage(error, texts.failure), { id });
    return false;
  }
}

/** downloadReportFile with a busy flag, so the menu cannot start a second download meanwhile. */
export function useReportDownload(patientName: string) {
  const [busy, setBusy] = useState(false);
  const download = async (kind: TDownloadKind, fetchFile: () => Promise<TFileResponse>) => {
    setBusy(true);
    try {
      return await downloadReportFile(kind, patientName, fetchFile);
    } finally {
      setBusy(false);
    }
  };
  return { busy, download };
}
