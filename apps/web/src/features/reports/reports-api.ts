import {
  ZMacro,
  ZReport,
  ZTemplateListResponse,
  ZWorklistItem,
  type TMacro,
  type TModality,
  type TReport,
  type TReviewTransition,
  type TUpdateWorklistBody,
  type TTemplateListResponse,
  type TWorklistItem,
} from '@ris/domain';
import { apiClient } from '../../api/client.ts';
import { uploadForm, type UploadProgress } from '../../api/upload.ts';

const enc = encodeURIComponent;

/** Query keys of the reporting screen's server state. */
export const reportKeys = {
  report: (worklistId: string) => ['report', worklistId] as const,
  history: (worklistId: string) => ['worklist', 'history', worklistId] as const,
  templates: (search: string, modality: TModality | '') => ['templates', 'insert', search, modality] as const,
  macros: (userId: string) => ['macros', userId] as const,
};

/** The study changes the reporting screen makes through PUT /worklist/{id}. */
export type TStudyChange = TReviewTransition | Required<Pick<TUpdateWorklistBody, 'collaboration_enabled'>>;

function parseReport(data: unknown): TReport {
  return ZReport.parse(data);
}

/** GET /radiologist/macros/{user}: a plain list or a page of `items`. */
export function parseMacros(data: unknown): TMacro[] {
  const list = Array.isArray(data)
    ? data
    : typeof data === 'object' && data !== null && Array.isArray((data as { items?: unknown }).items)
      ? (data as { items: unknown[] }).items
      : [];
  return list.flatMap((entry) => {
    const parsed = ZMacro.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The item a document upload answers with (the updated worklist item), when it sent one. */
function itemOrNull(data: unknown): TWorklistItem | null {
  const parsed = ZWorklistItem.safeParse(data);
  return parsed.success ? parsed.data : null;
}

export const reportsApi = {
  /** GET /worklist/{id}/report (404 when the study has no report yet). */
  get: (worklistId: string, signal?: AbortSignal): Promise<TReport> =>
    apiClient.get(`/worklist/${enc(worklistId)}/report`, { signal, parse: parseReport }),
  /** POST /worklist/report: creates the study's report, or answers the existing one. */
  create: (worklistId: string, userId: string): Promise<TReport> =>
    apiClient.post(
      '/worklist/report',
      { worklist_id: worklistId, content: '', by_user_id: userId },
      { parse: parseReport },
    ),
  /** POST /worklist/report/save: report and study DRAFTED. */
  saveDraft: (reportId: string, userId: string): Promise<unknown> =>
    apiClient.post('/worklist/report/save', { report_id: reportId, by_user_id: userId }),
  /**
   * POST /worklist/report/pdf-generate with status FINAL: finalizes with the editor's HTML. No version:
   * the editor holds every change (the server stores the live document first, making a new version).
   */
  finalize: (reportId: string, html: string): Promise<unknown> =>
    apiClient.post('/worklist/report/pdf-generate', {
      report_id: reportId,
      html_content: html,
      status: 'FINAL',
    }),
  addAddendum: (reportId: string, content: string, userId: string): Promise<unknown> =>
    apiClient.post(`/worklist/report/${enc(reportId)}/addendum`, { content, by_user_id: userId }),
  /** PUT /worklist/{id}: review hand-off or the collaboration switch. */
  changeStudy: (worklistId: string, change: TStudyChange, userId: string): Promise<TWorklistItem> =>
    apiClient.put(
      `/worklist/${enc(worklistId)}`,
      { ...change, by_user_id: userId },
      { parse: (data) => ZWorklistItem.parse(data) },
    ),
  uploadImages: (reportId: string, files: readonly File[], onProgress?: (p: UploadProgress) => void) => {
    const form = new FormData();
    for (const file of files) form.append('files', file, file.name);
    return uploadForm<unknown>({ path: `/worklist/report/${enc(reportId)}/upload-images`, form, onProgress });
  },
  deleteImage: (reportId: string, imageId: string): Promise<unknown> =>
    apiClient.delete(`/worklist/report/${enc(reportId)}/images/${enc(imageId)}`),
  uploadDocuments: (
    worklistId: string,
    files: readonly File[],
    onProgress?: (p: UploadProgress) => void,
  ): Promise<TWorklistItem | null> => {
    const form = new FormData();
    for (const file of files) form.append('files', file, file.name);
    return uploadForm<unknown>({ path: `/worklist/${enc(worklistId)}/document`, form, onProgress }).then(
      itemOrNull,
    );
  },
  /** PATCH /worklist/{id}/document: keeps the named documents (the others are removed). */
  keepDocuments: (worklistId: string, filenames: readonly string[]): Promise<TWorklistItem | null> => {
    const form = new FormData();
    for (const name of filenames) form.append('filenames', name);
    return uploadForm<unknown>({ method: 'PATCH', path: `/worklist/${enc(worklistId)}/document`, form }).then(
      itemOrNull,
    );
  },
  documentBlob: (worklistId: string, documentId: string, signal?: AbortSignal): Promise<Blob> =>
    apiClient.blob('GET', `/worklist/${enc(worklistId)}/document/${enc(documentId)}`, { signal }),
  templates: (
    search: string,
    modality: TModality | '',
    signal?: AbortSignal,
  ): Promise<TTemplateListResponse> =>
    apiClient.get('/radiologist/templates', {
      query: {
        purpose: 'insert',
        search: search.trim() || undefined,
        modality: modality || undefined,
        limit: 50,
      },
      signal,
      parse: (data) => ZTemplateListResponse.parse(data),
    }),
  macros: (userId: string, signal?: AbortSignal): Promise<TMacro[]> =>
    apiClient.get(`/radiologist/macros/${enc(userId)}`, { signal, parse: parseMacros }),
};

export type { UploadProgress };
