import { FALLBACK_ERROR_MESSAGES, type TStatusGroup, type TWorklistListResponse } from '@ris/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import type { TWorklistFilters } from '../../stores/settings-store.ts';
import { worklistApi, worklistKeys } from './worklist-api.ts';
import {
  browserTimeZone,
  buildCountParams,
  buildListParams,
  type TWorklistQueryInput,
} from './worklist-query.ts';

export interface WorklistDataInput {
  filters: TWorklistFilters;
  group: TStatusGroup;
  pageSize: number;
  /** Also load GET /worklist/status/count (the worklist's tabs); the orders screen does not. */
  withCounts?: boolean;
}

const EMPTY: TWorklistListResponse = {
  items: [],
  total: 0,
  limit: 10,
  offset: 0,
  next_offset: null,
  previous_offset: null,
  total_capped: false,
};

/**
 * One page of the worklist and the tab counts for the given filters. The offset goes back to 0 when
 * the filters or the page size change; a failed fetch shows the server's message (else 'Failed to
 * fetch worklist'), empties the list and resets the pagination (spec §4).
 */
export function useWorklistData({ filters, group, pageSize, withCounts = true }: WorklistDataInput) {
  const user = useAuth((state) => state.user);
  const userType = useAuth((state) => state.roleDetails?.radiologist_details?.user_type ?? null);
  const [offset, setOffset] = useState(0);
  const timeZone = useMemo(() => browserTimeZone(), []);

  const input: TWorklistQueryInput = useMemo(
    () => ({ filters, group, timeZone, user: user ? { id: user.id, role: user.role, userType } : null }),
    [filters, group, timeZone, user, userType],
  );
  const filterKey = JSON.stringify([buildCountParams(input), group, pageSize]);
  const [seenKey, setSeenKey] = useState(filterKey);
  if (seenKey !== filterKey) {
    setSeenKey(filterKey);
    setOffset(0);
  }

  const listParams = buildListParams(input, { limit: pageSize, offset });
  const list = useQuery({
    queryKey: worklistKeys.list(listParams ?? { none: true }),
    queryFn: async ({ signal }) => {
      if (!listParams) return EMPTY;
      try {
        return await worklistApi.list(listParams, signal);
      } catch (error) {
        if (!signal.aborted) {
          notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.fetchWorklist));
          setOffset(0);
        }
        throw error;
      }
    },
    placeholderData: keepPreviousData,
    retry: false,
  });
  const countParams = buildCountParams(input);
  const counts = useQuery({
    queryKey: worklistKeys.count(countParams),
    queryFn: ({ signal }) => worklistApi.counts(countParams, signal),
    enabled: withCounts,
    placeholderData: keepPreviousData,
  });

  const failed = list.isError;

  const page = failed || !list.data ? { ...EMPTY, limit: pageSize } : list.data;
  return {
    page,
    counts: counts.data,
    isLoading: list.isPending,
    isFetching: list.isFetching,
    failed,
    offset,
    setOffset,
    refetch: () => void list.refetch(),
  };
}
