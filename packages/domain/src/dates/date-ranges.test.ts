import { afterEach, describe, expect, it } from 'vitest';
import {
  DATE_RANGE_LABELS,
  DATE_RANGE_TYPES,
  DEFAULT_DATE_RANGE_TYPE,
  ZDateRangeType,
  isValidTimeZone,
  resolveDateRange,
  type TDateRangeType,
} from '../index.ts';

const HOUR = 3_600_000;
const at = (iso: string): Date => new Date(iso);
const iso = (range: { start: Date; end: Date }): [string, string] => [
  range.start.toISOString(),
  range.end.toISOString(),
];
const hours = (range: { start: Date; end: Date }): number =>
  (range.end.getTime() - range.start.getTime()) / HOUR;

describe('date range presets', () => {
  it('lists the presets with their labels and TODAY as default', () => {
    expect(DATE_RANGE_TYPES).toHaveLength(10);
    expect(DATE_RANGE_TYPES.map((type) => DATE_RANGE_LABELS[type])).toEqual([
      'Last 1 Hour',
      'Last 6 Hours',
      'Last 12 Hours',
      'Today',
      'Yesterday',
      'Last 2 Days',
      'Last 3 Days',
      'Last 1 Week',
      'Last 1 Month',
      'Custom',
    ]);
    expect(DEFAULT_DATE_RANGE_TYPE).toBe('TODAY');
    expect(ZDateRangeType.safeParse('LAST_2_WEEKS').success).toBe(false);
  });

  it.each([
    ['LAST_1_HOUR', 1],
    ['LAST_6_HOURS', 6],
    ['LAST_12_HOURS', 12],
    ['LAST_2_DAYS', 48],
    ['LAST_3_DAYS', 72],
    ['LAST_1_WEEK', 7 * 24],
    ['LAST_1_MONTH', 30 * 24],
  ] as const)('%s is the exact %i hours before now', (type: TDateRangeType, expectedHours: number) => {
    const now = at('2026-06-15T10:20:30.400Z');
    const range = resolveDateRange({ type, now, timeZone: 'Asia/Kolkata' });
    expect(range.end.getTime()).toBe(now.getTime());
    expect(hours(range)).toBe(expectedHours);
  });

  it('keeps day presets exact across a DST change (not calendar days)', () => {
    const now = at('2026-03-09T16:00:00Z');
    const range = resolveDateRange({ type: 'LAST_2_DAYS', now, timeZone: 'America/New_York' });
    expect(iso(range)).toEqual(['2026-03-07T16:00:00.000Z', '2026-03-09T16:00:00.000Z']);
  });

  it('defaults to TODAY', () => {
    const now = at('2026-06-15T10:00:00Z');
    expect(iso(resolveDateRange({ now, timeZone: 'UTC' }))).toEqual([
      '2026-06-15T00:00:00.000Z',
      '2026-06-15T10:00:00.000Z',
    ]);
  });

  it('returns new Date objects, not the input', () => {
    const now = at('2026-06-15T10:00:00Z');
    const range = resolveDateRange({ type: 'LAST_1_HOUR', now, timeZone: 'UTC' });
    expect(range.end).not.toBe(now);
    expect(range.end).toBeInstanceOf(Date);
  });
});

describe('TODAY and YESTERDAY in a time zone', () => {
  it('uses the local date of the zone, not UTC (Asia/Kolkata, no DST)', () => {
    // 01:30 IST on 9 March is still 8 March in UTC.
    const now = at('2026-03-08T20:00:00Z');
    expect(iso(resolveDateRange({ type: 'TODAY', now, timeZone: 'Asia/Kolkata' }))).toEqual([
      '2026-03-08T18:30:00.000Z',
      '2026-03-08T20:00:00.000Z',
    ]);
    const yesterday = resolveDateRange({ type: 'YESTERDAY', now, timeZone: 'Asia/Kolkata' });
    expect(iso(yesterday)).toEqual(['2026-03-07T18:30:00.000Z', '2026-03-08T18:30:00.000Z']);
    expect(hours(yesterday)).toBe(24);
  });

  it('America/New_York, spring forward on 2026-03-08 (23-hour day)', () => {
    const noon = at('2026-03-08T16:00:00Z'); // 12:00 EDT
    expect(iso(resolveDateRange({ type: 'TODAY', now: noon, timeZone: 'America/New_York' }))).toEqual([
      '2026-03-08T05:00:00.000Z', // 00:00 EST
      '2026-03-08T16:00:00.000Z',
    ]);
    const beforeChange = at('2026-03-08T06:30:00Z'); // 01:30 EST
    expect(
      resolveDateRange({ type: 'TODAY', now: beforeChange, timeZone: 'America/New_York' }).start,
    ).toEqual(at('2026-03-08T05:00:00Z'));
    const nextDay = at('2026-03-09T16:00:00Z');
    const yesterday = resolveDateRange({ type: 'YESTERDAY', now: nextDay, timeZone: 'America/New_York' });
    expect(iso(yesterday)).toEqual(['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z']);
    expect(hours(yesterday)).toBe(23);
  });

  it('America/New_York, fall back on 2026-11-01 (25-hour day)', () => {
    const firstOneThirty = at('2026-11-01T05:30:00Z'); // 01:30 EDT
    const secondOneThirty = at('2026-11-01T06:30:00Z'); // 01:30 EST
    for (const now of [firstOneThirty, secondOneThirty]) {
      expect(resolveDateRange({ type: 'TODAY', now, timeZone: 'America/New_York' }).start).toEqual(
        at('2026-11-01T04:00:00Z'),
      );
    }
    const nextDay = at('2026-11-02T17:00:00Z');
    const yesterday = resolveDateRange({ type: 'YESTERDAY', now: nextDay, timeZone: 'America/New_York' });
    expect(iso(yesterday)).toEqual(['2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z']);
    expect(hours(yesterday)).toBe(25);
  });

  it('Europe/London, both changes of 2026', () => {
    const afterSpring = resolveDateRange({
      type: 'YESTERDAY',
      now: at('2026-03-30T12:00:00Z'),
      timeZone: 'Europe/London',
    });
    expect(iso(afterSpring)).toEqual(['2026-03-29T00:00:00.000Z', '2026-03-29T23:00:00.000Z']);
    const afterAutumn = resolveDateRange({
      type: 'YESTERDAY',
      now: at('2026-10-26T12:00:00Z'),
      timeZone: 'Europe/London',
    });
    expect(iso(afterAutumn)).toEqual(['2026-10-24T23:00:00.000Z', '2026-10-26T00:00:00.000Z']);
    expect(hours(afterAutumn)).toBe(25);
  });

  it('starts the day at its first instant where midnight does not exist (America/Santiago)', () => {
    // Chile moves 00:00 to 01:00 on 2026-09-06.
    const today = resolveDateRange({
      type: 'TODAY',
      now: at('2026-09-06T15:00:00Z'),
      timeZone: 'America/Santiago',
    });
    expect(today.start).toEqual(at('2026-09-06T04:00:00Z'));
    const yesterday = resolveDateRange({
      type: 'YESTERDAY',
      now: at('2026-09-07T15:00:00Z'),
      timeZone: 'America/Santiago',
    });
    expect(hours(yesterday)).toBe(23);
  });

  describe('independent of the process time zone', () => {
    const original = process.env.TZ;
    afterEach(() => {
      process.env.TZ = original;
    });

    it('gives the same result whatever TZ the runtime uses', () => {
      const input = {
        type: 'YESTERDAY',
        now: at('2026-03-09T16:00:00Z'),
        timeZone: 'America/New_York',
      } as const;
      process.env.TZ = 'Pacific/Auckland';
      expect(new Date('2026-01-01T00:00:00Z').getTimezoneOffset()).toBe(-13 * 60);
      const inAuckland = iso(resolveDateRange(input));
      process.env.TZ = 'UTC';
      const inUtc = iso(resolveDateRange(input));
      expect(inAuckland).toEqual(inUtc);
      expect(inUtc).toEqual(['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z']);
    });
  });
});

describe('CUSTOM and invalid input', () => {
  const now = at('2026-06-15T10:00:00Z');

  it('uses the given dates', () => {
    const start = at('2026-06-01T00:00:00Z');
    const end = at('2026-06-02T00:00:00Z');
    const range = resolveDateRange({ type: 'CUSTOM', now, timeZone: 'UTC', start, end });
    expect(iso(range)).toEqual([start.toISOString(), end.toISOString()]);
    expect(range.start).not.toBe(start);
  });

  it('accepts start equal to end', () => {
    const same = at('2026-06-01T00:00:00Z');
    expect(hours(resolveDateRange({ type: 'CUSTOM', now, timeZone: 'UTC', start: same, end: same }))).toBe(0);
  });

  it('rejects start after end, missing or invalid dates', () => {
    const early = at('2026-06-01T00:00:00Z');
    const late = at('2026-06-02T00:00:00Z');
    expect(() => resolveDateRange({ type: 'CUSTOM', now, timeZone: 'UTC', start: late, end: early })).toThrow(
      RangeError,
    );
    expect(() => resolveDateRange({ type: 'CUSTOM', now, timeZone: 'UTC', start: early })).toThrow(
      RangeError,
    );
    expect(() =>
      resolveDateRange({ type: 'CUSTOM', now, timeZone: 'UTC', start: new Date('nope'), end: late }),
    ).toThrow(RangeError);
  });

  it('ignores start and end for presets', () => {
    const range = resolveDateRange({
      type: 'LAST_1_HOUR',
      now,
      timeZone: 'UTC',
      start: at('2020-01-01T00:00:00Z'),
    });
    expect(range.start).toEqual(at('2026-06-15T09:00:00Z'));
  });

  it('rejects an unknown time zone or an invalid now', () => {
    expect(() => resolveDateRange({ type: 'TODAY', now, timeZone: 'Mars/Olympus_Mons' })).toThrow(RangeError);
    expect(() => resolveDateRange({ type: 'TODAY', now, timeZone: '' })).toThrow(RangeError);
    expect(() => resolveDateRange({ type: 'TODAY', now: new Date(Number.NaN), timeZone: 'UTC' })).toThrow(
      RangeError,
    );
    expect(isValidTimeZone('Europe/London')).toBe(true);
    expect(isValidTimeZone('Nowhere/Special')).toBe(false);
  });
});
