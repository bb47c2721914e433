import { ZHomeSummary, type THomeSummary } from '@ris/domain';
import { apiClient } from '../../api/client.ts';

/** Query keys of the home screen. */
export const homeKeys = {
  all: ['home'] as const,
  summary: (timeZone: string) => ['home', 'summary', timeZone] as const,
};

export const LOAD_HOME_FAILED = 'Failed to load the home screen';

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
};
