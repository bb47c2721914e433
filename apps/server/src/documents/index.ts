// Report rendering: one report (TReportDocumentInput) → PDF or DOCX. Pure: no database, no network,
// no file reads other than the bundled fonts (once per process).
export type {
  TAddendumBlock,
  TDocumentImage,
  TLetterhead,
  TPatientBlock,
  TReportDocumentInput,
  TSignatureBlock,
} from './report-document.ts';
export { renderReportDocx } from './docx/render-report-docx.ts';
export { renderReportPdf } from './pdf/render-report-pdf.ts';
