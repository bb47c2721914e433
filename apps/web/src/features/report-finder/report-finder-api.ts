import { ZReportSearchResponse, type TReportSearchResponse } from '@ris/domain';
import { apiClient } from '../../api/client.ts';
import type { QueryParams } from '../../api/query-string.ts';

/** Query keys of the finder's server state (the prior reports panel shares them). */
export const reportFinderKeys = {
  all: ['report-search'] as const,
  search: (params: QueryParams) => ['report-search', params] as const,
};

export const reportFinderApi = {
  /** GET /report/search: one page of matching reports, ranked, with snippets. */
  search: (params: QueryParams, signal?: AbortSignal): Promise<TReportSearchResponse> =>
    apiClient.get('/report/search', {
      query: params,
      signal,
      parse: (data) => ZReportSearchResponse.parse(data),
    }),
};
