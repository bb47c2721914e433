import {
  ZArchiveTestResult,
  ZDeletedResponse,
  ZPacsArchive,
  ZPacsArchiveList,
  ZPopulateResult,
  type TArchiveTestResult,
  type TCreateArchiveBody,
  type TDeletedResponse,
  type TPacsArchive,
  type TPacsArchiveList,
  type TPopulateResult,
  type TUpdateArchiveBody,
} from '@ris/domain';
import { apiClient } from '../../api/client.ts';

const enc = encodeURIComponent;

export const archiveKeys = {
  all: ['pacs-archives'] as const,
  list: () => [...archiveKeys.all, 'list'] as const,
};

export const FETCH_ARCHIVES_FAILED = 'Failed to load the image archives';
export const SAVE_ARCHIVE_FAILED = 'Failed to save the archive';
export const DELETE_ARCHIVE_FAILED = 'Failed to delete the archive';
export const TEST_ARCHIVE_FAILED = 'Failed to test the connection';
export const SYNC_ARCHIVE_FAILED = 'Failed to sync from the archive';

export const archivesApi = {
  /** GET /pacs/archives: every archive of the organisation with its sync state (admins). */
  list: (signal?: AbortSignal): Promise<TPacsArchiveList> =>
    apiClient.get('/pacs/archives', { signal, parse: (data) => ZPacsArchiveList.parse(data) }),
  create: (body: TCreateArchiveBody): Promise<TPacsArchive> =>
    apiClient.post('/pacs/archives', body, { parse: (data) => ZPacsArchive.parse(data) }),
  /** PUT /pacs/archives/{id}: the fields given change; an omitted secret is kept. */
  update: (id: string, body: TUpdateArchiveBody): Promise<TPacsArchive> =>
    apiClient.put(`/pacs/archives/${enc(id)}`, body, { parse: (data) => ZPacsArchive.parse(data) }),
  remove: (id: string): Promise<TDeletedResponse> =>
    apiClient.delete(`/pacs/archives/${enc(id)}`, { parse: (data) => ZDeletedResponse.parse(data) }),
  /** POST /pacs/archives/{id}/test: the archive called now; a failure is ok false with a message. */
  test: (id: string): Promise<TArchiveTestResult> =>
    apiClient.post(`/pacs/archives/${enc(id)}/test`, {}, { parse: (data) => ZArchiveTestResult.parse(data) }),
  /** GET /worklist/populate/worklist?archive_id=: pull this archive's studies now. */
  syncNow: (id: string): Promise<TPopulateResult> =>
    apiClient.get('/worklist/populate/worklist', {
      query: { archive_id: id },
      parse: (data) => ZPopulateResult.parse(data),
    }),
};
