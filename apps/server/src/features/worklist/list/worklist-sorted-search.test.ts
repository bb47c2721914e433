// Whether a prefix walk of a column's sort index may hold a search's page (prefixHoldsPage): the
// walked entries' matches at the text's density, kept by the caller's share of the facilities and by
// the range's share of the index, but for the sorts that follow arrival (study date, last update),
// whose recent studies lie first newest first. Figures of the bench's 1,000,000 studies (100
// facilities, 13 weeks): "lumbar spine" held by 15 studies in 100.
import { describe, expect, it } from 'vitest';
import { prefixHoldsPage } from './worklist-sorted-search.ts';

type TPage = Parameters<typeof prefixHoldsPage>[0];

const page = (sort_by: TPage['sort_by'], offset: number): TPage => ({
  sort_by,
  sort_order: 'desc',
  limit: 25,
  offset,
});
const MONTH = { density: 0.15, rangeShare: 1 / 3 };

describe('a prefix walk holding a search page', () => {
  it('is not tried for a radiologist’s month at offset 500 in 5 of 100 facilities: some 80 of 525 kept', () => {
    const walk = { ...MONTH, entries: 31_500, callerShare: 0.05 };
    expect(prefixHoldsPage(page('patient_id', 500), walk)).toBe(false);
    expect(prefixHoldsPage(page('patient_name', 500), walk)).toBe(false);
  });

  it('is tried on the same month’s first page (50 of 25 kept) and for an admin at offset 500', () => {
    expect(prefixHoldsPage(page('patient_id', 0), { ...MONTH, entries: 20_000, callerShare: 0.05 })).toBe(
      true,
    );
    expect(prefixHoldsPage(page('patient_id', 500), { ...MONTH, entries: 31_500, callerShare: 1 })).toBe(
      true,
    );
  });

  it('is tried over all dates where the facilities keep enough, not where they keep a twentieth', () => {
    const allDates = { density: 0.15, rangeShare: 1, entries: 20_000 };
    expect(prefixHoldsPage(page('study', 500), { ...allDates, callerShare: 0.05 })).toBe(false);
    expect(prefixHoldsPage(page('study', 500), { ...allDates, callerShare: 0.25 })).toBe(true);
  });

  it('takes no range share for the study date and last update, which follow arrival', () => {
    const week = { density: 0.3, rangeShare: 7 / 90, entries: 51_000, callerShare: 0.05 };
    expect(prefixHoldsPage(page('datetime', 200), week)).toBe(true);
    expect(prefixHoldsPage(page('updated_at', 200), week)).toBe(true);
    expect(prefixHoldsPage(page('patient_name', 200), week)).toBe(false);
  });

  it('counts the page’s end, not its start', () => {
    const walk = { density: 0.1, rangeShare: 1, entries: 1_000, callerShare: 1 };
    expect(prefixHoldsPage(page('patient_id', 75), walk)).toBe(true);
    expect(prefixHoldsPage(page('patient_id', 76), walk)).toBe(false);
  });
});
