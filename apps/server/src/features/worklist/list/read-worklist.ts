// The two reads of the worklist, through the count cache: a page (body and total) and the tabs'
// counts. Each is read once for all the requests that miss together (WorklistCountCache.through).
import type { TWorklistListQuery, TWorklistStatusCounts } from '@ris/domain';
import type { TDatabase } from '../../../db/client.ts';
import { countKey, pageKey, windowOf } from './worklist-cache-keys.ts';
import type { WorklistCountCache } from './worklist-count-cache.ts';
import type { TWorklistCriteria } from './worklist-criteria.ts';
import { countWorklistStatuses, listWorklistJson } from './worklist-list.queries.ts';

/**
 * A cached page is dropped after this long even when no study change was heard of: a page also shows
 * the assignee's display name and the facility's name, whose changes announce no study change. Within
 * it, a rename shows up late by at most this long; every study change evicts at once.
 */
const PAGE_MAX_AGE_MS = 5_000;

type TCachedPage = { body: string; total: number };

/**
 * One page of the worklist as the response's JSON text. The same page again (nothing changed, the
 * window moved over no study) is served from memory; otherwise the total may still come from the
 * cache, and the page's total is kept for the next page.
 */
export async function readWorklistPage(
  database: TDatabase,
  cache: WorklistCountCache,
  criteria: TWorklistCriteria,
  query: TWorklistListQuery,
): Promise<string> {
  const { organisationId } = criteria.scope;
  const readPage = async (readEdges: boolean) => {
    const total = cache.lookup<number>(countKey('total', criteria), organisationId, windowOf(criteria));
    // A page to keep needs the window edges, read with the total: the cached total is not used then.
    const options = readEdges
      ? { total: undefined, edges: true }
      : { total: total.value, edges: total.readEdges };
    const { body, ...counted } = await listWorklistJson(database, criteria, query, options);
    total.store(counted.total, counted.edges);
    return { value: { body, total: counted.total }, edges: counted.edges };
  };
  const page = await cache.through<TCachedPage>(
    pageKey(criteria, query),
    organisationId,
    windowOf(criteria),
    readPage,
    { maxAgeMs: PAGE_MAX_AGE_MS },
  );
  return page.body;
}

/** The tabs' counts under `criteria`, from the cache while they still hold. */
export async function readStatusCounts(
  database: TDatabase,
  cache: WorklistCountCache,
  criteria: TWorklistCriteria,
): Promise<TWorklistStatusCounts> {
  return cache.through<TWorklistStatusCounts>(
    countKey('counts', criteria),
    criteria.scope.organisationId,
    windowOf(criteria),
    async (readEdges) => {
      const { counts, edges } = await countWorklistStatuses(database, criteria, { edges: readEdges });
      return { value: counts, edges };
    },
  );
}
