import type { TReportSearchResponse } from '@ris/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import type { QueryParams } from '../../api/query-string.ts';
import type { TReportFinderFilters } from '../../stores/report-finder-filters.ts';
import { browserTimeZone } from '../worklist/worklist-query.ts';
import { reportFinderApi, reportFinderKeys } from './report-finder-api.ts';
import { buildSearchParams } from './report-finder-query.ts';

export const SEARCH_FAILED = 'Failed to search reports';

const emptyPage = (limit: number): TReportSearchResponse => ({
  items: [],
  total: 0,
  total_capped: false,
  limit,
  offset: 0,
  next_offset: null,
  previous_offset: null,
});

/**
 * One page of GET /report/search for `params` (buildSearchParams' or buildPriorsParams' answer). The offset goes back to 0 when the filters or the page size change.
 */
export function usePagedReportSearch(params: QueryParams, pageSize: number, enabled = true) {
  const [offset, setOffset] = useState(0);
  const filterKey = JSON.stringify([params, pageSize]);
  const [seenKey, setSeenKey] = useState(filterKey);
  if (seenKey !== filterKey) {
    setSeenKey(filterKey);
    setOffset(0);
  }
  const pageParams = { ...params, limit: pageSize, offset };
  const query = useQuery({
    queryKey: reportFinderKeys.search(pageParams),
    queryFn: ({ signal }) => reportFinderApi.search(pageParams, signal),
    placeholderData: keepPreviousData,
    enabled,
    retry: false,
  });
  return {
    page: query.isError || !query.data ? emptyPage(pageSize) : query.data,
    isLoading: enabled && query.isPending,
    isFetching: query.isFetching,
    error: query.isError ? errorMessage(query.error, SEARCH_FAILED) : null,
    setOffset,
    refetch: () => void query.refetch(),
  };
}

/** The finder's results for its filters and page size. */
export function useReportSearch(filters: TReportFinderFilters, pageSize: number) {
  const timeZone = useMemo(() => browserTimeZone(), []);
  return usePagedReportSearch(buildSearchParams(filters, timeZone), pageSize);
}
