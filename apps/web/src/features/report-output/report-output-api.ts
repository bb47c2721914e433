import {
  ZDeliveryList,
  ZReport,
  ZSendReportResponse,
  type TByRadDocumentBody,
  type TDeliveryMessage,
  type TPreviewPdfBody,
  type TReportDocumentBody,
  type TSendReportEmailBody,
  type TSendReportResponse,
  type TSendReportWhatsappBody,
} from '@ris/domain';
import { apiClient } from '../../api/client.ts';
import { downloadUrl, requestFile, type TFileResponse } from './blob-request.ts';

/** Query keys of report output and delivery. */
export const reportOutputKeys = {
  deliveries: (worklistId: string) => ['deliveries', worklistId] as const,
};

/** The report documents one can download (spec §7 blob calls). */
export type TReportFormat = 'pdf' | 'docx';

/**
 * Header of a share request: the same key for the same submission, so a retried request (a lost
 * answer, a second click) is delivered once. A channel suffix keeps e-mail and WhatsApp apart.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

export const reportOutputApi = {
  /** POST /worklist/report/preview/pdf: the editor's current HTML as a PDF, nothing stored. */
  previewPdf: (body: TPreviewPdfBody, signal?: AbortSignal): Promise<TFileResponse> =>
    requestFile('POST', '/worklist/report/preview/pdf', { body, signal }),
  /** POST /worklist/report/primary-rad/pdf: the stored report, signed as it is. */
  primaryPdf: (body: TReportDocumentBody): Promise<TFileResponse> =>
    requestFile('POST', '/worklist/report/primary-rad/pdf', { body }),
  /** POST /worklist/report/preview/docx: the stored report as DOCX. */
  docx: (body: TReportDocumentBody): Promise<TFileResponse> =>
    requestFile('POST', '/worklist/report/preview/docx', { body }),
  /** POST /worklist/report/by-rad/pdf or /docx: signed by the chosen radiologists, in order. */
  byRadiologists: (format: TReportFormat, body: TByRadDocumentBody): Promise<TFileResponse> =>
    requestFile('POST', `/worklist/report/by-rad/${format}`, { body }),
  /** GET /worklist/{id}/report, for its pdf_url only: a short-lived address, so asked for afresh. */
  currentPdfUrl: (worklistId: string): Promise<string | null> =>
    apiClient.get(`/worklist/${encodeURIComponent(worklistId)}/report`, {
      parse: (data) => ZReport.parse(data).pdf_url,
    }),
  /** GET on the report's pdf_url: the stored (for a final report: signed, immutable) PDF. */
  storedPdf: (pdfUrl: string): Promise<TFileResponse> => downloadUrl(pdfUrl),
  /** The study's stored PDF, its pdf_url asked for afresh (a short-lived address). */
  currentStoredPdf: async (worklistId: string): Promise<TFileResponse> => {
    const pdfUrl = await reportOutputApi.currentPdfUrl(worklistId);
    if (!pdfUrl) throw new Error('The signed PDF of this report is not available');
    return downloadUrl(pdfUrl);
  },
  sendEmail: (body: TSendReportEmailBody, idempotencyKey: string): Promise<TSendReportResponse> =>
    apiClient.post('/comm/email/send-report-pdf', body, {
      headers: { [IDEMPOTENCY_HEADER]: `${idempotencyKey}:email` },
      parse: (data) => ZSendReportResponse.parse(data),
    }),
  sendWhatsapp: (body: TSendReportWhatsappBody, idempotencyKey: string): Promise<TSendReportResponse> =>
    apiClient.post('/comm/whatsapp/send-report-pdf', body, {
      headers: { [IDEMPOTENCY_HEADER]: `${idempotencyKey}:whatsapp` },
      parse: (data) => ZSendReportResponse.parse(data),
    }),
  /** GET /comm/messages?worklist_id=: the study's deliveries, newest first. */
  deliveries: (worklistId: string, signal?: AbortSignal): Promise<TDeliveryMessage[]> =>
    apiClient.get('/comm/messages', {
      query: { worklist_id: worklistId },
      signal,
      parse: (data) => ZDeliveryList.parse(data).items,
    }),
};
