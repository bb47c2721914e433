import { describe, expect, it } from 'vitest';
import { startOfDateInZone } from './date-ranges.ts';

describe('startOfDateInZone', () => {
  it('is local midnight in the zone', () => {
    expect(startOfDateInZone('2024-05-01', 'UTC').toISOString()).toBe('2024-05-01T00:00:00.000Z');
    expect(startOfDateInZone('2024-05-01', 'Asia/Kolkata').toISOString()).toBe('2024-04-30T18:30:00.000Z');
    expect(startOfDateInZone('2024-05-01', 'Pacific/Kiritimati').toISOString()).toBe(
      '2024-04-30T10:00:00.000Z',
    );
  });

  it('follows DST: the day after a spring-forward starts at the new offset', () => {
    expect(startOfDateInZone('2024-03-31', 'Europe/Berlin').toISOString()).toBe('2024-03-30T23:00:00.000Z');
    expect(startOfDateInZone('2024-04-01', 'Europe/Berlin').toISOString()).toBe('2024-03-31T22:00:00.000Z');
  });

  it('starts at the first existing instant where midnight is skipped', () => {
    // Santiago springs forward at 00:00 → 01:00 on 2024-09-08.
    expect(startOfDateInZone('2024-09-08', 'America/Santiago').toISOString()).toBe(
      '2024-09-08T04:00:00.000Z',
    );
  });

  it('refuses malformed dates and unknown zones', () => {
    expect(() => startOfDateInZone('2024-02-30', 'UTC')).toThrow(RangeError);
    expect(() => startOfDateInZone('2024-5-1', 'UTC')).toThrow(RangeError);
    expect(() => startOfDateInZone('2024-05-01', 'Mars/Olympus')).toThrow(RangeError);
  });
});
