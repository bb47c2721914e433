// How the list's statement is planned (worklist-plan-mode.ts): a prefix walk's statement generically,
// but for open studies under a priority filter, whose collected branch needs the open studies'
// priority index (a generic plan read 30,000 heap pages for 571 matches: 215 ms, 1.6 planned).
import { describe, expect, it } from 'vitest';
import { worklistCriteria } from '../../../test/worklist-criteria.ts';
import { listPlanOf, planModeOf } from './worklist-plan-mode.ts';

const OPEN = ['ORDERED', 'TO_READ', 'ASSIGNED', 'IN_REVIEW', 'DRAFTED'] as const;
const EVERY = [...OPEN, 'FINAL'] as const;

describe('the list statement’s plan', () => {
  it('plans open studies under a priority filter for their parameters, prefix walk or not', () => {
    for (const statuses of [OPEN, ['TO_READ'] as const]) {
      const criteria = worklistCriteria({ statuses: [...statuses], priorityTags: ['FOLLOW_UP'] });
      expect(listPlanOf(criteria, { walked: false, prefixWalk: true })).toBe('custom');
      expect(listPlanOf(criteria, { walked: false, prefixWalk: false })).toBe('custom');
    }
  });

  it('plans a prefix walk generically for every other filter', () => {
    const tagged = worklistCriteria({ statuses: [...EVERY], priorityTags: ['FOLLOW_UP'] });
    expect(listPlanOf(tagged, { walked: false, prefixWalk: true })).toBe('generic');
    const finalTagged = worklistCriteria({ statuses: ['FINAL'], priorityTags: ['URGENT'] });
    expect(listPlanOf(finalTagged, { walked: false, prefixWalk: true })).toBe('generic');
    const open = worklistCriteria({ statuses: [...OPEN] });
    expect(listPlanOf(open, { walked: false, prefixWalk: true })).toBe('generic');
  });

  it('plans a walked page generically, and otherwise as its filters say', () => {
    const tagged = worklistCriteria({ statuses: [...OPEN], priorityTags: ['URGENT'] });
    expect(listPlanOf(tagged, { walked: true, prefixWalk: false })).toBe('generic');
    const admin = worklistCriteria({ statuses: [...EVERY] });
    expect(listPlanOf(admin, { walked: false, prefixWalk: false })).toBe(planModeOf(admin));
    expect(planModeOf(admin)).toBe('generic');
    expect(planModeOf(worklistCriteria({ facilityIds: ['f'] }))).toBe('custom');
  });
});
