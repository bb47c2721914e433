import { format } from 'date-fns/format';
import { describe, expect, it } from 'vitest';
import { formatShortDateTime } from './format-date-time.ts';

describe('formatShortDateTime', () => {
  it("writes what date-fns' 'dd MMM yy, HH:mm' writes, in the local zone", () => {
    const samples = [
      new Date(2026, 0, 5, 0, 7),
      new Date(2026, 8, 30, 23, 59),
      new Date(2026, 10, 25, 12, 0),
      new Date(1999, 11, 31, 9, 5),
    ];
    for (const when of samples) expect(formatShortDateTime(when)).toBe(format(when, 'dd MMM yy, HH:mm'));
  });
});
