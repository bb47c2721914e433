// The entries a prefix walk of a column's sort index reads for a search's page (prefixBudget): the
// walked entries' matches at the text's density, kept by the caller's filters' share of the
// organisation's studies and by the range's share of the index, but for the sorts that follow arrival
// (study date, last update), whose recent studies lie first newest first; widened where they cannot
// hold the page, up to 100,000 entries, or 300,000 where the walk costs less than collecting the
// matches, unless a filter keeps blocks of the sorted column. Figures of the bench's 1,000,000 studies
// (100 facilities, 13 weeks): "lumbar spine" held by 15 studies in 100, "chest" by 30.
import { describe, expect, it } from 'vitest';
import { prefixBudget } from './worklist-prefix-budget.ts';
import { walksDays, walksSparseText } from './worklist-sorted-search.ts';

type TPage = Parameters<typeof prefixBudget>[0];

const page = (sort_by: TPage['sort_by'], offset: number): TPage => ({
  sort_by,
  sort_order: 'desc',
  limit: 25,
  offset,
});
/** A walk of a sort index not led by the modality group, whose matches cost nothing to collect. */
const PLAIN = { widens: true, groupLed: false, collecting: 0 };
const MONTH = { ...PLAIN, density: 0.15, rangeShare: 1 / 3 };

describe('the entries a prefix walk reads for a search page', () => {
  it('are the budget’s where its matches kept reach the page’s end: a first page, an admin at offset 500', () => {
    expect(prefixBudget(page('patient_id', 0), { ...MONTH, entries: 20_000, filterShare: 0.05 })).toBe(
      20_000,
    );
    expect(prefixBudget(page('patient_id', 500), { ...MONTH, entries: 31_500, filterShare: 1 })).toBe(31_500);
  });

  it('are none for a radiologist’s month at offset 500 in 5 of 100 facilities: 315,000 would hold it', () => {
    const walk = { ...MONTH, entries: 31_500, filterShare: 0.05 };
    expect(prefixBudget(page('patient_id', 500), walk)).toBeNull();
    expect(prefixBudget(page('patient_name', 500), walk)).toBeNull();
  });

  it('widen over all dates to hold the page’s end one and a half times, up to 100,000', () => {
    const chest = { ...PLAIN, density: 0.3, rangeShare: 1, entries: 20_000, filterShare: 0.05 };
    expect(prefixBudget(page('patient_name', 900), chest)).toBe(Math.ceil((925 * 1.5) / (0.3 * 0.05)));
    // None where a filter keeps blocks of the sorted column (widens false): a status tab by status.
    expect(prefixBudget(page('patient_name', 900), { ...chest, widens: false })).toBeNull();
    expect(prefixBudget(page('patient_name', 900), { ...chest, filterShare: 0.04 })).toBeNull();
    expect(prefixBudget(page('series_count', 500), { ...chest, filterShare: 0.25 })).toBe(20_000);
    expect(prefixBudget(page('series_count', 500), { ...chest, density: 0 })).toBeNull();
  });

  it('take no range share for the study date and last update, which follow arrival', () => {
    const week = { ...PLAIN, density: 0.3, rangeShare: 7 / 90, entries: 51_000, filterShare: 0.05 };
    expect(prefixBudget(page('datetime', 200), week)).toBe(51_000);
    expect(prefixBudget(page('updated_at', 200), week)).toBe(51_000);
    // By name, the week keeps one entry in 13 of them: 289,000 would hold the page.
    expect(prefixBudget(page('patient_name', 200), week)).toBeNull();
  });

  it('are the budget’s by modality or description, whose walk reads only the groups holding the text', () => {
    const walk = { ...MONTH, entries: 20_000, filterShare: 0.05 };
    expect(prefixBudget(page('study', 100), { ...walk, groupLed: true })).toBe(20_000);
    expect(prefixBudget(page('modality', 500), { ...walk, groupLed: true })).toBe(20_000);
    expect(prefixBudget(page('series_count', 100), walk)).toBeGreaterThan(20_000);
  });

  it('count the page’s end, not its start', () => {
    const walk = { ...PLAIN, density: 0.1, rangeShare: 1, entries: 1_000, filterShare: 1 };
    expect(prefixBudget(page('patient_id', 75), walk)).toBe(1_000);
    expect(prefixBudget(page('patient_id', 76), walk)).toBe(1_515);
  });

  it('widen past 100,000 entries, up to 300,000, where walking them costs less than collecting the matches', () => {
    // A reporter's own studies (2.35 % of the organisation's), 23 in 100 "chest", over all dates: the
    // facility keys (10 of 100 facilities) find 23,400 candidates, 280,800 entries' worth.
    const own = { ...PLAIN, density: 0.234, rangeShare: 1, entries: 20_000, filterShare: 0.0235 };
    const widened = Math.ceil((525 * 1.5) / (0.234 * 0.0235));
    expect(prefixBudget(page('patient_name', 500), { ...own, collecting: 280_800 })).toBe(widened);
    // Their "lumbar spine" (15 in 100): 223,000 entries cost more than its 15,000 candidates.
    expect(prefixBudget(page('patient_id', 500), { ...own, density: 0.15, collecting: 180_000 })).toBeNull();
    expect(prefixBudget(page('patient_name', 500), own)).toBeNull();
    expect(prefixBudget(page('patient_name', 1_100), { ...own, collecting: 10_000_000 })).toBeNull();
    // A radiologist's "spine" (5 of 100 facilities, 16 in 100): every candidate a match, cheap to collect.
    const spine = { ...PLAIN, density: 0.156, rangeShare: 1, entries: 20_000, filterShare: 0.05 };
    expect(prefixBudget(page('patient_name', 900), { ...spine, collecting: 93_600 })).toBeNull();
  });

  it('do not widen where a filter keeps blocks of the sorted column', () => {
    const walk = { ...PLAIN, density: 0.3, rangeShare: 1, entries: 20_000, filterShare: 0.05 };
    expect(prefixBudget(page('status', 900), { ...walk, collecting: 1_000_000 })).toBe(92_500);
    expect(prefixBudget(page('status', 900), { ...walk, collecting: 1_000_000, widens: false })).toBeNull();
  });

  it('count the first entries the filters keep none of apart (a reporter by status)', () => {
    // A reporter's "chest" (one in three of their studies, 2.3 % of the organisation's) by status,
    // oldest first: 29,449 entries ordered or to read come first, which they hold none of.
    const own = { ...PLAIN, density: 0.35, rangeShare: 1, filterShare: 0.023, lead: 29_449 };
    expect(prefixBudget(page('status', 0), { ...own, entries: 49_449 })).toBe(49_449);
    // Deeper, the entries widen past the lead by as many as the page's end needs.
    expect(prefixBudget(page('status', 200), { ...own, entries: 49_449 })).toBe(
      29_449 + Math.ceil((225 * 1.5) / (0.35 * 0.023)),
    );
    // Without the lead, the same entries were thought to hold that page.
    expect(prefixBudget(page('status', 200), { ...own, entries: 49_449, lead: 0 })).toBe(49_449);
  });
});

describe('a text sparser than one in 32, sorted by another column', () => {
  it('is walked where its range holds 16,000 matches or more, at one in 128 or more', () => {
    // "soren" over an admin's 1,000,000 studies of all dates: one in 42, 23,911 matches.
    expect(walksSparseText(1 / 42, 23_911, 'study_datetime', false)).toBe(true);
    expect(walksSparseText(1 / 128, 16_000, 'status', false)).toBe(true);
  });

  it('is walked over a range with a start from 8,000 matches', () => {
    // "maria" since October 31st: one in 64 of the newest, 10,089 matches estimated.
    expect(walksSparseText(1 / 64, 10_089, 'priority_tag', true)).toBe(true);
    expect(walksSparseText(1 / 64, 10_089, 'priority_tag', false)).toBe(false);
    expect(walksSparseText(1 / 64, 7_999, 'updated_at', true)).toBe(false);
  });

  it('is collected where its matches are fewer, it is sparser still, or sorted by name', () => {
    // "smith" over all dates (one in 80, 12,000) and over a month (4,000): collected in 10-40 ms.
    expect(walksSparseText(1 / 80, 12_124, 'study_datetime', false)).toBe(false);
    expect(walksSparseText(1 / 80, 3_942, 'study_datetime', true)).toBe(false);
    // One in 200 of 5,000,000: a page's walk would read 7,500 rows.
    expect(walksSparseText(1 / 200, 25_000, 'status', false)).toBe(false);
    // A name's studies lie in one block of the name index.
    expect(walksSparseText(1 / 42, 23_911, 'patient_name', false)).toBe(false);
  });
});

describe('an admin’s range by study date into its far end, walked a day of arrival at a time', () => {
  // The bench's month: 31 days of arrival, 330,000 studies.
  it('is walked where its days read fewer rows than a third of its matches', () => {
    // "mri" (one in seven, 49,000 matches): 5,200 rows for a first page, 108,000 at offset 500.
    expect(walksDays(0.15, 25, 31, 330_000)).toBe(true);
    expect(walksDays(0.15, 525, 31, 330_000)).toBe(true);
    // "brain" (one in four) at offset 975.
    expect(walksDays(0.25, 1_000, 31, 330_000)).toBe(true);
  });

  it('is collected where the text is sparser, or absent from the newest studies', () => {
    // "smith" (one in 80, 4,000 matches): the days would read 62,000 rows for its first page.
    expect(walksDays(1 / 80, 25, 31, 330_000)).toBe(false);
    // "soren" (one in 42, 7,900 matches).
    expect(walksDays(1 / 42, 25, 31, 330_000)).toBe(false);
    expect(walksDays(0.15, 975, 31, 330_000)).toBe(false);
    expect(walksDays(0, 25, 31, 330_000)).toBe(false);
  });

  it('reads at most each day’s studies', () => {
    // Half the studies hold the text, 100 a day: a page at offset 975 reads each day whole.
    expect(walksDays(0.5, 1_000, 31, 3_100)).toBe(true);
    expect(walksDays(0.5, 1_000, 31, 3_100 * 0.6)).toBe(true);
    expect(walksDays(0.3, 1_000, 31, 3_100)).toBe(false);
  });
});
