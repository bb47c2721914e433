import { formatDistanceStrict } from 'date-fns/formatDistanceStrict';
import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time.ts';

const now = new Date('2026-06-15T12:00:00Z');
const MINUTE = 60_000;

describe('relativeTime', () => {
  it("says what date-fns' formatDistanceStrict says, in the past and the future", () => {
    const offsets = [
      50_000,
      59_000,
      MINUTE,
      90_000,
      29.5 * MINUTE,
      59.4 * MINUTE,
      59.6 * MINUTE,
      61 * MINUTE,
      150 * MINUTE,
      23.4 * 60 * MINUTE,
      25 * 60 * MINUTE,
      3 * 1_440 * MINUTE,
      29 * 1_440 * MINUTE,
      31 * 1_440 * MINUTE,
      200 * 1_440 * MINUTE,
      364 * 1_440 * MINUTE,
      366 * 1_440 * MINUTE,
      3 * 525_600 * MINUTE,
    ];
    for (const offset of offsets) {
      for (const sign of [-1, 1]) {
        const when = new Date(now.getTime() + sign * offset);
        expect(relativeTime(when.toISOString(), now), `${sign * offset} ms`).toBe(
          formatDistanceStrict(when, now, { addSuffix: true }),
        );
      }
    }
  });

  it("says 'just now' within 45 seconds and nothing for an unreadable date", () => {
    expect(relativeTime(new Date(now.getTime() - 44_000).toISOString(), now)).toBe('just now');
    expect(relativeTime(new Date(now.getTime() + 10_000).toISOString(), now)).toBe('just now');
    expect(relativeTime('not a date', now)).toBe('');
  });
});
