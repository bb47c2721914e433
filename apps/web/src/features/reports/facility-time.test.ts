import { describe, expect, it } from 'vitest';
import { facilityTimeText, facilityTimeZone } from './facility-time.ts';

// 20:58 in London on 25 November is 02:28 the next day in Kolkata (UTC+5:30).
const FINALIZED = new Date('2026-11-25T20:58:00Z');

describe('facilityTimeText', () => {
  it("shows the facility's clock, with its date, when the viewer is elsewhere", () => {
    expect(facilityTimeText(FINALIZED, 'Asia/Kolkata', 'Europe/London', 'en-IN')).toBe(
      'facility 26 Nov, 02:28 IST',
    );
  });

  it('leaves the date out when it is the same day there', () => {
    expect(facilityTimeText(new Date('2026-11-25T08:00:00Z'), 'Asia/Kolkata', 'Europe/London', 'en-IN')).toBe(
      'facility 13:30 IST',
    );
  });

  it('shows nothing when both clocks read the same, even under another zone name', () => {
    expect(facilityTimeText(FINALIZED, 'Asia/Kolkata', 'Asia/Kolkata')).toBeNull();
    expect(facilityTimeText(FINALIZED, 'Asia/Calcutta', 'Asia/Kolkata')).toBeNull();
    expect(facilityTimeText(FINALIZED, 'Europe/London', 'UTC')).toBeNull();
  });

  it('shows nothing for an unknown zone or an invalid date', () => {
    expect(facilityTimeText(FINALIZED, 'Mars/Olympus', 'Europe/London')).toBeNull();
    expect(facilityTimeText(new Date('nonsense'), 'Asia/Kolkata', 'Europe/London')).toBeNull();
  });
});

describe('facilityTimeZone', () => {
  it("is the facility's own zone, else the organisation's", () => {
    expect(facilityTimeZone('Europe/London', 'Asia/Kolkata')).toBe('Europe/London');
    expect(facilityTimeZone(null, 'Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(facilityTimeZone(undefined, undefined)).toBeNull();
  });
});
