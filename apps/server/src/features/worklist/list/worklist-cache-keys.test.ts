// The count cache's keys hold every filter the WHERE clause depends on: two requests that count
// different studies must never share a key (a cached count would be served for the other).
import { ZWorklistListQuery } from '@ris/domain';
import { describe, expect, it } from 'vitest';
import { countKey, pageKey } from './worklist-cache-keys.ts';
import type { TWorklistCriteria } from './worklist-criteria.ts';

const ORGANISATION = '11111111-1111-4111-8111-111111111111';

function criteria(patch: Partial<TWorklistCriteria> = {}): TWorklistCriteria {
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
    searchWeeks: null,
    searchFacilities: null,
    dateKey: 'LAST_1_WEEK UTC',
    ...patch,
  };
}

describe('worklist count cache keys', () => {
  it('tell a priority-filtered count and page from an unfiltered one, and one filter from another', () => {
    const query = ZWorklistListQuery.parse({});
    const unfiltered = criteria();
    const urgent = criteria({ priorityTags: ['URGENT'] });
    const emergency = criteria({ priorityTags: ['EMERGENCY', 'URGENT'] });
    for (const kind of ['total', 'counts'] as const) {
      const keys = [unfiltered, urgent, emergency].map((each) => countKey(kind, each));
      expect(new Set(keys).size).toBe(3);
    }
    const pages = [unfiltered, urgent, emergency].map((each) => pageKey(each, query));
    expect(new Set(pages).size).toBe(3);
  });

  it('do not depend on the order the tags were asked in', () => {
    const a = criteria({ priorityTags: ['URGENT', 'EMERGENCY'] });
    const b = criteria({ priorityTags: ['EMERGENCY', 'URGENT'] });
    expect(countKey('counts', a)).toBe(countKey('counts', b));
  });
});
