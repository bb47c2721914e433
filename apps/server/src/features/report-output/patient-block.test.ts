import { describe, expect, it } from 'vitest';
import { ageAt, ageSexLabel, formatDateTime, safeTimeZone } from './patient-block.ts';

describe('patient block', () => {
  const at = new Date('2026-11-21T08:35:00Z');

  it('prints age in years, months or days at the study date', () => {
    expect(ageAt('1984-05-02', at, 'UTC')).toBe('42 Y');
    expect(ageAt('1984-11-22', at, 'UTC')).toBe('41 Y');
    expect(ageAt('2026-04-10', at, 'UTC')).toBe('7 M');
    expect(ageAt('2026-11-09', at, 'UTC')).toBe('12 D');
    expect(ageAt('2026-11-21', at, 'UTC')).toBe('0 D');
    // A birthday on the 31st is reached on the last day of a shorter month.
    expect(ageAt('2026-01-31', new Date('2026-02-28T12:00:00Z'), 'UTC')).toBe('1 M');
    expect(ageAt('2027-01-01', at, 'UTC')).toBeNull();
    expect(ageAt(null, at, 'UTC')).toBeNull();
    expect(ageAt('not a date', at, 'UTC')).toBeNull();
  });

  it("counts days in the facility's time zone", () => {
    // 23:30 UTC on the 20th is already the 21st in Kolkata.
    const late = new Date('2026-11-20T23:30:00Z');
    expect(ageAt('2026-11-20', late, 'UTC')).toBe('0 D');
    expect(ageAt('2026-11-20', late, 'Asia/Kolkata')).toBe('1 D');
  });

  it('formats dates in the zone and labels sex', () => {
    expect(formatDateTime(at, 'Asia/Kolkata')).toBe('21 Nov 2026, 14:05 GMT+5:30');
    expect(formatDateTime(at, 'Europe/London')).toBe('21 Nov 2026, 08:35 GMT');
    expect(formatDateTime(new Date('2026-07-01T08:35:00Z'), 'Europe/London')).toBe('1 Jul 2026, 09:35 BST');
    expect(formatDateTime(at, 'UTC')).toBe('21 Nov 2026, 08:35 UTC');
    expect(formatDateTime(null, 'UTC')).toBe('—');
    expect(safeTimeZone('Mars/Base')).toBe('UTC');
    expect(ageSexLabel('42 Y', 'f')).toBe('42 Y / F');
    expect(ageSexLabel(null, 'M')).toBe('— / M');
    expect(ageSexLabel('7 M', null)).toBe('7 M / —');
  });
});
