// The count cache's keys hold every filter the WHERE clause depends on: two requests that count
// different studies must never share a key (a cached count would be served for the other).
import { ZWorklistListQuery } from '@ris/domain';
import { describe, expect, it } from 'vitest';
import { countKey, pageKey } from './worklist-cache-keys.ts';
import { worklistCriteria } from '../../../test/worklist-criteria.ts';

const criteria = worklistCriteria;

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
