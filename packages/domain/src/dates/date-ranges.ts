import { TZDate } from '@date-fns/tz';
import { startOfDay } from 'date-fns/startOfDay';
import { subDays } from 'date-fns/subDays';

/** Date-range presets of the worklist filter, in display order. */
export const DATE_RANGE_TYPES = [
  'LAST_1_HOUR',
  'LAST_6_HOURS',
  'LAST_12_HOURS',
  'TODAY',
  'YESTERDAY',
  'LAST_2_DAYS',
  'LAST_3_DAYS',
  'LAST_1_WEEK',
  'LAST_1_MONTH',
  'CUSTOM',
] as const;
export type TDateRangeType = (typeof DATE_RANGE_TYPES)[number];

export const DEFAULT_DATE_RANGE_TYPE: TDateRangeType = 'TODAY';

export const DATE_RANGE_LABELS = {
  LAST_1_HOUR: 'Last 1 Hour',
  LAST_6_HOURS: 'Last 6 Hours',
  LAST_12_HOURS: 'Last 12 Hours',
  TODAY: 'Today',
  YESTERDAY: 'Yesterday',
  LAST_2_DAYS: 'Last 2 Days',
  LAST_3_DAYS: 'Last 3 Days',
  LAST_1_WEEK: 'Last 1 Week',
  LAST_1_MONTH: 'Last 1 Month',
  CUSTOM: 'Custom',
} as const satisfies Record<TDateRangeType, string>;

const HOUR_MS = 3_600_000;

/**
 * Presets that are a fixed duration ending now. The 'days', 'week' and 'month' presets are exact
 * durations (N × 24 h before now), not calendar days, so they do not move with DST or the time zone.
 */
export const DATE_RANGE_DURATIONS_MS = {
  LAST_1_HOUR: HOUR_MS,
  LAST_6_HOURS: 6 * HOUR_MS,
  LAST_12_HOURS: 12 * HOUR_MS,
  LAST_2_DAYS: 2 * 24 * HOUR_MS,
  LAST_3_DAYS: 3 * 24 * HOUR_MS,
  LAST_1_WEEK: 7 * 24 * HOUR_MS,
  LAST_1_MONTH: 30 * 24 * HOUR_MS,
} as const satisfies Partial<Record<TDateRangeType, number>>;

export interface TDateRange {
  start: Date;
  end: Date;
}

export interface TResolveDateRangeInput {
  type?: TDateRangeType;
  /** The current instant; passed in so the result is reproducible. */
  now: Date;
  /** IANA time zone whose midnights TODAY and YESTERDAY use, e.g. 'Asia/Kolkata'. */
  timeZone: string;
  /** Only read for CUSTOM. */
  start?: Date | null;
  end?: Date | null;
}

function isValidDate(value: Date | null | undefined): value is Date {
  return value instanceof Date && !Number.isNaN(value.getTime());
}

/** Zone names already found valid (a formatter per check costs ~0.1 ms); bounded, as spellings vary. */
const knownTimeZones = new Set<string>();

/** True when the runtime knows the IANA zone name. */
export function isValidTimeZone(timeZone: string): boolean {
  if (knownTimeZones.has(timeZone)) return true;
  if (timeZone.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    if (knownTimeZones.size < 2000) knownTimeZones.add(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * Turns a preset into the instants it covers. TODAY runs from local midnight to now, YESTERDAY from
 * the start of yesterday to the start of today, both in `timeZone` (so a DST day is 23 or 25 hours,
 * and where midnight does not exist the day starts at its first existing instant). Throws a
 * RangeError for an unknown zone, an invalid `now`, or a CUSTOM range that is missing, invalid or
 * has start after end.
 */
export function resolveDateRange(input: TResolveDateRangeInput): TDateRange {
  const { type = DEFAULT_DATE_RANGE_TYPE, now, timeZone } = input;
  if (!isValidDate(now)) throw new RangeError('now must be a valid date');
  if (!isValidTimeZone(timeZone)) throw new RangeError(`Unknown time zone: ${timeZone}`);

  switch (type) {
    case 'CUSTOM': {
      const { start, end } = input;
      if (!isValidDate(start) || !isValidDate(end)) {
        throw new RangeError('A custom date range needs a valid start and end');
      }
      if (start.getTime() > end.getTime()) {
        throw new RangeError('The start of a date range must not be after its end');
      }
      return { start: new Date(start.getTime()), end: new Date(end.getTime()) };
    }
    case 'TODAY':
    case 'YESTERDAY': {
      const todayStart = startOfDay(new TZDate(now.getTime(), timeZone));
      if (type === 'TODAY') return { start: new Date(todayStart.getTime()), end: new Date(now.getTime()) };
      const yesterdayStart = startOfDay(subDays(todayStart, 1));
      return { start: new Date(yesterdayStart.getTime()), end: new Date(todayStart.getTime()) };
    }
    default:
      return {
        start: new Date(now.getTime() - DATE_RANGE_DURATIONS_MS[type]),
        end: new Date(now.getTime()),
      };
  }
}

/**
 * The first instant of a calendar date (YYYY-MM-DD) in `timeZone`: local midnight, or the first
 * existing instant where a DST change skips midnight. Throws a RangeError for a malformed date or an
 * unknown zone.
 */
export function startOfDateInZone(isoDate: string, timeZone: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) throw new RangeError(`Not a date: ${isoDate}`);
  if (!isValidTimeZone(timeZone)) throw new RangeError(`Unknown time zone: ${timeZone}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Noon of that local day always exists; its start of day is the day's first instant.
  const noon = new TZDate(year, month - 1, day, 12, 0, 0, timeZone);
  if (noon.getFullYear() !== year || noon.getMonth() !== month - 1 || noon.getDate() !== day) {
    throw new RangeError(`Not a date: ${isoDate}`);
  }
  return new Date(startOfDay(noon).getTime());
}
