/** Fallback texts shown when a failed call brings no message from the server. */
export const FALLBACK_ERROR_MESSAGES = {
  fetchWorklist: 'Failed to fetch worklist',
  createWorklistOrder: 'Failed to create worklist order',
  activateWorklist: 'Failed to activate worklist',
  updateWorklist: 'Failed to update worklist',
  deleteWorklist: 'Failed to delete worklist',
  fetchReport: 'Failed to fetch report',
  createReport: 'Failed to create report',
  updateReport: 'Failed to update report',
  generateReportPdf: 'Failed to generate report PDF',
  shareReportPdfWhatsapp: 'Failed to share report PDF via WhatsApp',
  shareReportPdfEmail: 'Failed to share report PDF via Email',
  sendSupportEmail: 'Failed to send support email',
  saveTemplate: 'Failed to save template',
  createMacro: 'Failed to create macro',
  fetchUser: 'Failed to fetch user',
  saveUser: 'Failed to create/update user',
  updateOrganisation: 'Failed to update organisation',
  resetPassword: 'Failed to reset password',
  downloadPdfReport: 'Failed to download PDF report',
  downloadDocxReport: 'Failed to download DOCX report',
} as const;
export type TFallbackErrorKey = keyof typeof FALLBACK_ERROR_MESSAGES;

export const LOADING_TOAST_MESSAGES = {
  generatingPdf: 'Generating PDF report...',
  generatingDocx: 'Generating DOCX report...',
  preparingDownload: 'Preparing download...',
} as const;

export const SUCCESS_TOAST_MESSAGES = {
  pdfDownloaded: 'PDF downloaded successfully!',
  docxDownloaded: 'DOCX downloaded successfully!',
} as const;

/** The server's message when it sent a non-blank one, else the fallback of the failed action. */
export function errorMessageOr(key: TFallbackErrorKey, serverMessage?: string | null): string {
  return serverMessage?.trim() ? serverMessage : FALLBACK_ERROR_MESSAGES[key];
}
