import type { QueryParams } from './query-string.ts';

/** Query keys of the worklist's server state, so realtime updates and mutations find the caches. */
export const worklistKeys = {
  all: ['worklist'] as const,
  lists: () => ['worklist', 'list'] as const,
  list: (params: QueryParams) => ['worklist', 'list', params] as const,
  counts: () => ['worklist', 'counts'] as const,
  count: (params: QueryParams) => ['worklist', 'counts', params] as const,
  item: (id: string) => ['worklist', 'item', id] as const,
  radiologists: (search: string, facilityIds: readonly string[]) =>
    ['radiologists', 'active', search, facilityIds] as const,
  tags: () => ['worklist', 'tags'] as const,
  /** The tags the user put on items (GET /worklist/worklist-tags/{user id}). */
  itemTags: (userId: string) => ['worklist', 'item-tags', userId] as const,
};
