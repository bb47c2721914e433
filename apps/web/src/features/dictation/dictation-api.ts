import { ZRecording, ZSpeechOptions, type TRecording, type TSpeechOptions } from '@ris/domain';
import { apiClient } from '../../api/client.ts';
import { uploadForm, type UploadProgress } from '../../api/upload.ts';

const enc = encodeURIComponent;

/** Query keys of dictation's server state. */
export const dictationKeys = {
  options: ['speech', 'options'] as const,
  recordings: (reportId: string) => ['speech', 'recordings', reportId] as const,
};

/** A list answer as a plain array or a page of `items`; entries that do not parse are left out. */
export function parseRecordings(data: unknown): TRecording[] {
  const list = Array.isArray(data)
    ? data
    : typeof data === 'object' && data !== null && Array.isArray((data as { items?: unknown }).items)
      ? (data as { items: unknown[] }).items
      : [];
  return list.flatMap((entry) => {
    const parsed = ZRecording.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

export const dictationApi = {
  /** GET /speech/options: the organisation's engine for the reporting screen. */
  options: (signal?: AbortSignal): Promise<TSpeechOptions> =>
    apiClient.get('/speech/options', { signal, parse: (data) => ZSpeechOptions.parse(data) }),
  /** GET /worklist/augnito/voice-data?report_id=: the report's recorded dictations. */
  recordings: (reportId: string, signal?: AbortSignal): Promise<TRecording[]> =>
    apiClient.get('/worklist/augnito/voice-data', {
      query: { report_id: reportId },
      signal,
      parse: parseRecordings,
    }),
  /** POST /worklist/augnito/voice-data (multipart): a recorded file for the report. */
  upload: (
    reportId: string,
    file: File,
    onProgress?: (progress: UploadProgress) => void,
  ): Promise<unknown> => {
    const form = new FormData();
    form.append('report_id', reportId);
    form.append('file', file, file.name);
    return uploadForm<unknown>({ path: '/worklist/augnito/voice-data', form, onProgress });
  },
  /** PUT /worklist/augnito/voice-data/{id}/inserted: the transcript went into the report. */
  markInserted: (id: string): Promise<unknown> =>
    apiClient.put(`/worklist/augnito/voice-data/${enc(id)}/inserted`, {}),
  /** GET …/{id}/audio: the recording itself (bearer token, so fetched as a Blob). */
  audio: (id: string, signal?: AbortSignal): Promise<Blob> =>
    apiClient.blob('GET', `/worklist/augnito/voice-data/${enc(id)}/audio`, { signal }),
};
