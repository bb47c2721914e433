import type { TTurnaroundTargets } from '@ris/domain';
import { useQuery } from '@tanstack/react-query';
import { homeApi, homeKeys } from './home-api.ts';

/** Targets change rarely (an admin's save updates this cache at once): read them every 10 minutes. */
const TARGETS_STALE_MS = 10 * 60_000;

/**
 * The organisation's turnaround targets, fetched once and shared by every screen that needs them
 * (the worklist's clock badges compute per row from this, with no request per row). Null until
 * loaded or when they cannot be read: no badge is better than a wrong one.
 */
export function useTurnaroundTargets(enabled = true): TTurnaroundTargets | null {
  const query = useQuery({
    queryKey: homeKeys.turnaroundTargets(),
    queryFn: ({ signal }) => homeApi.turnaroundTargets(signal),
    staleTime: TARGETS_STALE_MS,
    enabled,
  });
  return query.data?.targets ?? null;
}
