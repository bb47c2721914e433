import {
  ZTurnaroundTargetsResponse,
  type TTurnaroundTargets,
  type TTurnaroundTargetsResponse,
  type TUpdateTurnaroundTargetsBody,
} from '@ris/domain';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from './client.ts';

// The organisation's turnaround targets (issue 16) sit below the features: the worklist's clock
// badges, the home screen and the organisation settings all read the one cached copy.

export const turnaroundTargetKeys = {
  all: ['organisation', 'turnaround-targets'] as const,
};

export const LOAD_TARGETS_FAILED = 'Failed to load the turnaround targets';
export const SAVE_TARGETS_FAILED = 'Failed to save the turnaround targets';

export const turnaroundTargetsApi = {
  /** GET /organisation/turnaround-targets: the targets in effect (defaults until set); any role. */
  get: (signal?: AbortSignal): Promise<TTurnaroundTargetsResponse> =>
    apiClient.get('/organisation/turnaround-targets', {
      signal,
      parse: (data) => ZTurnaroundTargetsResponse.parse(data),
    }),
  /** PUT /organisation/turnaround-targets (administrators). */
  save: (body: TUpdateTurnaroundTargetsBody): Promise<TTurnaroundTargetsResponse> =>
    apiClient.put('/organisation/turnaround-targets', body, {
      parse: (data) => ZTurnaroundTargetsResponse.parse(data),
    }),
};

/** Targets change rarely (an admin's save updates this cache at once): read them every 10 minutes. */
const TARGETS_STALE_MS = 10 * 60_000;

/** The query of the targets, shared by every screen that shows or edits them. */
export function useTurnaroundTargetsQuery() {
  return useQuery({
    queryKey: turnaroundTargetKeys.all,
    queryFn: ({ signal }) => turnaroundTargetsApi.get(signal),
    staleTime: TARGETS_STALE_MS,
  });
}

/**
 * The organisation's turnaround targets, fetched once and shared (the worklist's clock badges
 * compute per row from this, with no request per row). Null until loaded or when they cannot be
 * read: no badge is better than a wrong one.
 */
export function useTurnaroundTargets(): TTurnaroundTargets | null {
  return useTurnaroundTargetsQuery().data?.targets ?? null;
}
