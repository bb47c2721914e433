// How far a page sorted by a column header walks the column's sort index before collecting its matches
// (prefixWalkBudget): widened to 10 entries a match past 10,000 matches (2,000 over all dates, whose
// rows lie scattered), where collecting reads each match's row, but to one entry a match for an admin's modality filter over a range with a start,
// whose matches are collected from an index holding their sort keys (migration 0038).
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { compileSql } from '../../../db/compile-sql.ts';
import { worklistCriteria } from '../../../test/worklist-criteria.ts';
import { collectsFromModalityIndex, prefixWalkBudget } from './worklist-page-walk.ts';

const PAGE: Parameters<typeof prefixWalkBudget>[1] = {
  limit: 25,
  offset: 0,
  sort_by: 'study',
  sort_order: 'desc',
};
const MONTH_AGO = new Date('2026-11-03T00:00:00Z');
const STAFF_FACILITY = '33333333-3333-4333-8333-333333333333';

/** The budget's SQL text, with the total as a literal column. */
const budgetOf = (criteria: ReturnType<typeof worklistCriteria>, page = PAGE) =>
  compileSql(prefixWalkBudget(criteria, page, sql.raw('t.total')));

describe('the prefix walk budget', () => {
  it('is one entry a match above the floor for an admin’s modality filter over a range with a start', () => {
    const criteria = worklistCriteria({ modalities: ['MRI'], from: MONTH_AGO });
    expect(collectsFromModalityIndex(criteria)).toBe(true);
    expect(budgetOf(criteria)).toEqual({ sql: 'greatest($1::bigint, t.total::bigint)', params: [5_000] });
    expect(budgetOf(criteria, { ...PAGE, offset: 1_000 }).params).toEqual([20 * 1_025]);
  });

  it('widens with the total over all dates, and without a modality filter', () => {
    for (const criteria of [
      worklistCriteria({ modalities: ['MRI'] }),
      worklistCriteria({ from: MONTH_AGO }),
    ]) {
      expect(collectsFromModalityIndex(criteria)).toBe(false);
      expect(budgetOf(criteria).sql).toContain('t.total::bigint * 10');
    }
  });

  it('widens from 2,000 matches over all dates, from 10,000 over a range with a start', () => {
    const allDates = budgetOf(worklistCriteria({ statuses: ['ORDERED'] }));
    expect(allDates.sql).toBe(
      'greatest($1::bigint, case when t.total >= $2::int then t.total::bigint * 10 else 0 end)',
    );
    expect(allDates.params).toEqual([5_000, 2_000]);
    expect(budgetOf(worklistCriteria({ statuses: ['ORDERED'], from: MONTH_AGO })).params).toEqual([
      5_000, 10_000,
    ]);
  });

  it('widens for a facility filter, an assignee and staff, whose matches other indexes collect', () => {
    const admin = worklistCriteria();
    const staffScope = {
      ...admin.scope,
      principal: { ...admin.scope.principal, role: 'RADIOLOGIST' as const, facilityIds: [STAFF_FACILITY] },
      allFacilities: false,
      facilityIds: [STAFF_FACILITY],
    };
    for (const patch of [
      { facilityIds: [STAFF_FACILITY] },
      { byUserIds: ['44444444-4444-4444-8444-444444444444'] },
      { scope: staffScope },
    ]) {
      const criteria = worklistCriteria({ modalities: ['MRI'], from: MONTH_AGO, ...patch });
      expect(collectsFromModalityIndex(criteria)).toBe(false);
      expect(budgetOf(criteria).sql).toContain('t.total::bigint * 10');
    }
  });
});
