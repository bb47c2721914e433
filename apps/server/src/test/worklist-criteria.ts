// Worklist criteria as the list route resolves them, for unit tests of the statements' forms: an admin
// of one organisation with every facility, a week's status tab, and whatever the test changes.
import { ZWorklistFilters, type TWorklistFilters } from '@ris/domain';
import { loadScope } from '../access/scope.ts';
import type { TPrincipal } from '../auth/principal.ts';
import type { TDbOrTx } from '../db/client.ts';
import {
  resolveWorklistCriteria,
  type TWorklistCriteria,
} from '../features/worklist/list/worklist-criteria.ts';

const ORGANISATION = '11111111-1111-4111-8111-111111111111';

export function worklistCriteria(patch: Partial<TWorklistCriteria> = {}): TWorklistCriteria {
  return {
    scope: {
      principal: {
        userId: '22222222-2222-4222-8222-222222222222',
        email: 'admin@example.org',
        organisationId: ORGANISATION,
        role: 'ADMIN',
        userType: null,
        facilityIds: [],
        sessionId: 'session',
        issuedAt: 0,
      },
      organisationId: ORGANISATION,
      allFacilities: true,
      facilityIds: [],
    },
    byUserIds: [],
    statuses: ['TO_READ'],
    countedStatuses: ['TO_READ'],
    modalities: [],
    priorityTags: [],
    facilityIds: [],
    from: null,
    to: null,
    searchText: null,
    searchKeyed: false,
    searchPairKeys: [],
    searchWeeks: null,
    searchFacilities: null,
    searchInRange: false,
    searchKeptFirst: false,
    searchRunsTested: false,
    searchOpen: false,
    searchModalities: null,
    searchGrams: null,
    dateKey: 'LAST_1_WEEK UTC',
    now: new Date('2026-11-19T12:00:00Z'),
    ...patch,
  };
}

/** A query string's parameters as the routes receive them: a repeated one (statuses) an array. */
export function queryParamsOf(query: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    const held = params[key];
    params[key] = held === undefined ? value : [...(Array.isArray(held) ? held : [held]), value];
  }
  return params;
}

/** A query string's worklist filters as the route parses them. */
export function worklistFiltersOf(query: string): TWorklistFilters {
  return ZWorklistFilters.parse(queryParamsOf(query));
}

/** The criteria the list route resolves for `principal`'s `query` at `now` (their scope loaded). */
export async function resolvedCriteriaOf(
  db: TDbOrTx,
  principal: TPrincipal,
  query: string,
  now: Date,
): Promise<TWorklistCriteria> {
  return resolveWorklistCriteria(db, await loadScope(db, principal), worklistFiltersOf(query), now);
}
