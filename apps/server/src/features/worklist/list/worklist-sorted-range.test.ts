// Whether a staff member's range is sorted whole from their facilities' index for a search's page
// (sortsRange): where the rows tested in the column's order for the page's end, each worth eight of
// the range's entries, cost no more than the range, itself at most 30,000 studies, and its matches
// are one and a half times the count's cap. Figures of the
// bench's radiologist (5 facilities of 100): a month of 16,800 studies, "brain" held by 27 in 100.
import { describe, expect, it } from 'vitest';
import { sortsRange } from './worklist-sorted-range.ts';

describe('whether a staff member’s range is sorted whole for a search page', () => {
  it('is for a first page and one at offset 475 of a text a quarter of the month holds', () => {
    expect(sortsRange(0.27, 25, 16_800)).toBe(true);
    expect(sortsRange(0.27, 500, 16_800)).toBe(true);
  });

  it('is not where the page’s rows tested cost more than the range: deep, or a sparser text', () => {
    expect(sortsRange(0.27, 1_000, 16_800)).toBe(false);
    expect(sortsRange(0.02, 25, 8_000)).toBe(false);
    expect(sortsRange(0.6, 500, 3_000)).toBe(false);
  });

  it('is not where counting up to the cap reads most of the range: a week of "brain", 1,050 matches', () => {
    expect(sortsRange(0.27, 25, 3_900)).toBe(false);
    expect(sortsRange(0.27, 25, 5_600)).toBe(true);
  });

  it('is not for a range past 30,000 studies, nor a text the probe never met', () => {
    expect(sortsRange(0.5, 25, 30_000)).toBe(true);
    expect(sortsRange(0.5, 25, 30_001)).toBe(false);
    expect(sortsRange(0, 25, 16_800)).toBe(false);
  });
});
