import {
  ZHomeSummary,
  ZTurnaroundTargetsResponse,
  type THomeSummary,
  type TTurnaroundTargetsResponse,
  type TUpdateTurnaroundTargetsBody,
} from '@ris/domain';
import { apiClient } from '../../api/client.ts';

/** Query keys of the home screen and of the organisation's turnaround targets. */
export const homeKeys = {
  all: ['home'] as const,
  summary: (timeZone: string) => ['home', 'summary', timeZone] as const,
  turnaroundTargets: () => ['organisation', 'turnaround-targets'] as const,
};

export const LOAD_HOME_FAILED = 'Failed to load the home screen';
export const LOAD_TARGETS_FAILED = 'Failed to load the turnaround targets';
export const SAVE_TARGETS_FAILED = 'Failed to save the turnaround targets';

/** The browser's IANA zone: "today" on the home screen starts at the reader's own midnight. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export const homeApi = {
  /** GET /home/summary?time_zone=…: the caller's sections, by role. */
  summary: (timeZone: string, signal?: AbortSignal): Promise<THomeSummary> =>
    apiClient.get('/home/summary', {
      signal,
      query: { time_zone: timeZone },
      parse: (data) => ZHomeSummary.parse(data),
    }),
  /** GET /organisation/turnaround-targets: the targets in effect (defaults until set). */
  turnaroundTargets: (signal?: AbortSignal): Promise<TTurnaroundTargetsResponse> =>
    apiClient.get('/organisation/turnaround-targets', {
      signal,
      parse: (data) => ZTurnaroundTargetsResponse.parse(data),
    }),
  /** PUT /organisation/turnaround-targets (administrators). */
  saveTurnaroundTargets: (body: TUpdateTurnaroundTargetsBody): Promise<TTurnaroundTargetsResponse> =>
    apiClient.put('/organisation/turnaround-targets', body, {
      parse: (data) => ZTurnaroundTargetsResponse.parse(data),
    }),
};
