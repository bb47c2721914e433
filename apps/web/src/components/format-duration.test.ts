import { describe, expect, it } from 'vitest';
import { formatDuration } from './format-duration.ts';

describe('formatDuration', () => {
  it('reads minutes, hours and days the way targets are spoken', () => {
    expect(formatDuration(45)).toBe('45 min');
    expect(formatDuration(60)).toBe('1 h');
    expect(formatDuration(240)).toBe('4 h');
    expect(formatDuration(65)).toBe('1 h 5 min');
    expect(formatDuration(24 * 60)).toBe('1 d');
    expect(formatDuration(51 * 60 + 10)).toBe('2 d 3 h');
    expect(formatDuration(42.6)).toBe('43 min');
    expect(formatDuration(-5)).toBe('0 min');
    expect(formatDuration(Number.NaN)).toBe('0 min');
  });
});
