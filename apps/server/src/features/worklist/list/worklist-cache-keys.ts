import type { TWorklistListQuery } from '@ris/domain';
import type { TCountWindow } from './worklist-count-cache.ts';
import type { TWorklistCriteria } from './worklist-criteria.ts';

/**
 * The count cache's key for the list's total (over the listed statuses) or the tabs' counts (over
 * the counted ones) under `criteria`, or null when it must not be cached: a search (its matches
 * change with patient corrections, which do not always announce every study, and searches rarely
 * repeat) and a referring physician's scope (it follows which referring physician records are
 * theirs, which no study change announces). Everything else the WHERE clause depends on is in the
 * key: the organisation, the caller's facilities (loaded on every request, so a change of assignment
 * is a new key), each filter and the date filter asked for.
 */
export function countKey(kind: 'total' | 'counts', criteria: TWorklistCriteria): string | null {
  const { scope } = criteria;
  const statuses = kind === 'total' ? criteria.statuses : criteria.countedStatuses;
  if (criteria.searchText !== null || scope.principal.role === 'REFERRING_PHYSICIAN') return null;
  const sorted = (values: readonly string[]) => [...values].sort().join(',');
  return JSON.stringify([
    kind,
    scope.organisationId,
    scope.allFacilities ? '*' : sorted(scope.facilityIds),
    sorted(statuses),
    sorted(criteria.facilityIds),
    sorted(criteria.byUserIds),
    sorted(criteria.modalities),
    sorted(criteria.priorityTags),
    criteria.dateKey,
  ]);
}

/**
 * The cache key of a whole list page (body and total): the total's key plus the page's order and
 * bounds, or null when the total is not cacheable. The page holds nothing else of the caller: its
 * rows are the studies matching that WHERE clause in that order, with their facility, assignee and
 * documents.
 */
export function pageKey(criteria: TWorklistCriteria, query: TWorklistListQuery): string | null {
  const total = countKey('total', criteria);
  if (total === null) return null;
  return JSON.stringify(['page', total, query.sort_by, query.sort_order, query.limit, query.offset]);
}

/** The created_at window a cached count was read over (the cache checks it still counts the same). */
export const windowOf = (criteria: TWorklistCriteria): TCountWindow => ({
  from: criteria.from,
  to: criteria.to,
});
