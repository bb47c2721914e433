import { resolveDateRange, type TDateRange, type TDateRangeType } from '@ris/domain';

const HOUR_MS = 3_600_000;

type TDay = { yesterday: number; today: number; tomorrow: number };

/**
 * The local days of each time zone last asked for. Finding a local midnight formats dates with Intl
 * (~15 µs, on every worklist request by default: TODAY); a day's bounds hold until its end.
 */
const days = new Map<string, TDay>();
const MAX_ZONES = 500;

function dayOf(now: Date, timeZone: string): TDay {
  const at = now.getTime();
  const known = days.get(timeZone);
  if (known && known.today <= at && at < known.tomorrow) return known;
  const today = resolveDateRange({ type: 'TODAY', now, timeZone }).start.getTime();
  const yesterday = resolveDateRange({ type: 'YESTERDAY', now, timeZone }).start.getTime();
  // 26 hours after a midnight is always within the next local day (days last 23 to 25 hours).
  const tomorrow = resolveDateRange({ type: 'TODAY', now: new Date(today + 26 * HOUR_MS), timeZone }).start;
  const day = { yesterday, today, tomorrow: tomorrow.getTime() };
  if (day.tomorrow > at) {
    if (days.size >= MAX_ZONES) days.clear();
    days.set(timeZone, day);
  }
  return day;
}

/** resolveDateRange for a preset (not CUSTOM), with TODAY's and YESTERDAY's midnights remembered. */
export function resolvePresetRange(
  type: Exclude<TDateRangeType, 'CUSTOM'>,
  now: Date,
  timeZone: string,
): TDateRange {
  if (type === 'TODAY') return { start: new Date(dayOf(now, timeZone).today), end: new Date(now.getTime()) };
  if (type === 'YESTERDAY') {
    const day = dayOf(now, timeZone);
    return { start: new Date(day.yesterday), end: new Date(day.today) };
  }
  return resolveDateRange({ type, now, timeZone });
}
