import { describe, expect, it } from 'vitest';
import { formatElapsedMinutes, formatElapsedSince } from './elapsed.ts';

describe('formatElapsedMinutes', () => {
  it.each([
    [0, '0m'],
    [1, '1m'],
    [45, '45m'],
    [59, '59m'],
    [59.99, '59m'],
    [60, '1h 0m'],
    [185, '3h 5m'],
    [1439, '23h 59m'],
    [1440, '1d 0h'],
    [2 * 1440 + 4 * 60 + 59, '2d 4h'],
    [400 * 1440, '400d 0h'],
  ])('%d minutes → %s', (minutes, expected) => {
    expect(formatElapsedMinutes(minutes)).toBe(expected);
  });

  it.each([-1, -0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    '%d → 0m',
    (minutes) => {
      expect(formatElapsedMinutes(minutes)).toBe('0m');
    },
  );
});

describe('formatElapsedSince', () => {
  const now = new Date('2026-06-15T12:00:00Z');

  it('formats the time since a date', () => {
    expect(formatElapsedSince(new Date('2026-06-15T08:55:00Z'), now)).toBe('3h 5m');
    expect(formatElapsedSince(new Date('2026-06-15T11:59:30Z'), now)).toBe('0m');
    expect(formatElapsedSince(new Date('2026-06-13T07:00:00Z'), now)).toBe('2d 5h');
  });

  it('shows 0m for a date in the future', () => {
    expect(formatElapsedSince(new Date('2026-06-15T13:00:00Z'), now)).toBe('0m');
  });
});
