// The entries a prefix walk of a column's sort index reads for a search's page (prefixBudget): the
// walked entries' matches at the text's density, kept by the caller's share of the facilities and by
// the range's share of the index, but for the sorts that follow arrival (study date, last update),
// whose recent studies lie first newest first; widened where they cannot hold the page, up to a
// bound, where no other filter keeps part of the entries. Figures of the bench's 1,000,000 studies (100 facilities, 13 weeks): "lumbar spine" held by
// 15 studies in 100, "chest" by 30.
import { describe, expect, it } from 'vitest';
import { prefixBudget } from './worklist-sorted-search.ts';

type TPage = Parameters<typeof prefixBudget>[0];

const page = (sort_by: TPage['sort_by'], offset: number): TPage => ({
  sort_by,
  sort_order: 'desc',
  limit: 25,
  offset,
});
/** A walk of a sort index not led by the modality group, with no filter but the facilities and dates. */
const PLAIN = { widens: true, groupLed: false };
const MONTH = { ...PLAIN, density: 0.15, rangeShare: 1 / 3 };

describe('the entries a prefix walk reads for a search page', () => {
  it('are the budget’s where its matches kept reach the page’s end: a first page, an admin at offset 500', () => {
    expect(prefixBudget(page('patient_id', 0), { ...MONTH, entries: 20_000, callerShare: 0.05 })).toBe(
      20_000,
    );
    expect(prefixBudget(page('patient_id', 500), { ...MONTH, entries: 31_500, callerShare: 1 })).toBe(31_500);
  });

  it('are none for a radiologist’s month at offset 500 in 5 of 100 facilities: 315,000 would hold it', () => {
    const walk = { ...MONTH, entries: 31_500, callerShare: 0.05 };
    expect(prefixBudget(page('patient_id', 500), walk)).toBeNull();
    expect(prefixBudget(page('patient_name', 500), walk)).toBeNull();
  });

  it('widen over all dates to hold the page’s end one and a half times, up to 100,000, with no other filter', () => {
    const chest = { ...PLAIN, density: 0.3, rangeShare: 1, entries: 20_000, callerShare: 0.05 };
    expect(prefixBudget(page('patient_name', 900), chest)).toBe(Math.ceil((925 * 1.5) / (0.3 * 0.05)));
    // A modality filter: the density is of its studies, which keep an unknown share of the entries.
    expect(prefixBudget(page('patient_name', 900), { ...chest, widens: false })).toBeNull();
    expect(prefixBudget(page('patient_name', 900), { ...chest, callerShare: 0.04 })).toBeNull();
    expect(prefixBudget(page('series_count', 500), { ...chest, callerShare: 0.25 })).toBe(20_000);
    expect(prefixBudget(page('series_count', 500), { ...chest, density: 0 })).toBeNull();
  });

  it('take no range share for the study date and last update, which follow arrival', () => {
    const week = { ...PLAIN, density: 0.3, rangeShare: 7 / 90, entries: 51_000, callerShare: 0.05 };
    expect(prefixBudget(page('datetime', 200), week)).toBe(51_000);
    expect(prefixBudget(page('updated_at', 200), week)).toBe(51_000);
    // By name, the week keeps one entry in 13 of them: 289,000 would hold the page.
    expect(prefixBudget(page('patient_name', 200), week)).toBeNull();
  });

  it('are the budget’s by modality or description, whose walk reads only the groups holding the text', () => {
    const walk = { ...MONTH, entries: 20_000, callerShare: 0.05 };
    expect(prefixBudget(page('study', 100), { ...walk, groupLed: true })).toBe(20_000);
    expect(prefixBudget(page('modality', 500), { ...walk, groupLed: true })).toBe(20_000);
    expect(prefixBudget(page('series_count', 100), walk)).toBeGreaterThan(20_000);
  });

  it('count the page’s end, not its start', () => {
    const walk = { ...PLAIN, density: 0.1, rangeShare: 1, entries: 1_000, callerShare: 1 };
    expect(prefixBudget(page('patient_id', 75), walk)).toBe(1_000);
    expect(prefixBudget(page('patient_id', 76), walk)).toBe(1_515);
  });
});
