// The fuzz's requests: the same seed draws the same ones; each is a query the routes accept (every
// filter's value valid, the caller's own facilities and assignees named); both endpoints, every filter
// and each target (15, 30, 60 ms) are drawn in a round.
import { ZWorklistFilters, ZWorklistListQuery } from '@ris/domain';
import { describe, expect, it } from 'vitest';
import { queryParamsOf } from '../test/worklist-criteria.ts';
import { fuzzRequests, seededRandom } from './worklist-bench-fuzz.ts';

const INPUT = {
  callers: ['admin', 'radiologist'],
  facilityIds: ['0c8b4d1d-f2ba-4f3f-9a3e-5915a0b66e5c', '90387b3a-e4a7-4e18-956d-7cc6acef88f2'],
  assigneeIds: ['f864a314-8ae4-40bf-acbd-619f79aa68ee'],
  now: new Date('2026-11-19T12:00:00Z'),
};

describe('the worklist bench’s fuzz', () => {
  it('draws the same requests from the same seed, others from another', () => {
    expect(fuzzRequests(7, 50, INPUT)).toEqual(fuzzRequests(7, 50, INPUT));
    expect(fuzzRequests(8, 50, INPUT)).not.toEqual(fuzzRequests(7, 50, INPUT));
    const random = seededRandom(1);
    const draws = Array.from({ length: 1_000 }, random);
    expect(draws.every((draw) => draw >= 0 && draw < 1)).toBe(true);
    expect(new Set(draws).size).toBe(1_000);
  });

  it('draws queries the routes accept, over every filter, endpoint and target', () => {
    const requests = fuzzRequests(3, 600, INPUT);
    const seen = new Set<string>();
    for (const request of requests) {
      const [path, query = ''] = request.path.split('?');
      const params = queryParamsOf(query);
      const schema = path === '/api/v1/worklist' ? ZWorklistListQuery : ZWorklistFilters;
      expect(path === '/api/v1/worklist' || path === '/api/v1/worklist/status/count').toBe(true);
      expect(schema.safeParse(params).success, request.path).toBe(true);
      expect(INPUT.callers).toContain(request.caller);
      for (const key of Object.keys(params)) seen.add(key);
      seen.add(`${path}`);
      seen.add(`target ${request.target}`);
      const searched = 'search' in params;
      const allDates =
        params.date_range_type === 'CUSTOM' && !('start_date' in params) && !('end_date' in params);
      expect(request.target).toBe(!searched ? 15 : allDates ? 60 : 30);
      for (const id of [params.facility_ids ?? []].flat()) expect(INPUT.facilityIds).toContain(id);
      for (const id of [params.by_user_ids ?? []].flat()) expect(INPUT.assigneeIds).toContain(id);
    }
    for (const key of [
      'date_range_type',
      'start_date',
      'end_date',
      'statuses',
      'modalities',
      'priority_tags',
      'facility_ids',
      'by_user_ids',
      'search',
      'sort_by',
      'sort_order',
      'limit',
      'offset',
      '/api/v1/worklist',
      '/api/v1/worklist/status/count',
      'target 15',
      'target 30',
      'target 60',
    ]) {
      expect(seen.has(key), key).toBe(true);
    }
  });
});
