const MINUTE_MS = 60_000;
const MINUTES_IN_DAY = 1_440;
const MINUTES_IN_MONTH = 43_200;
const MINUTES_IN_YEAR = 525_600;

const format = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

/**
 * '5 minutes ago', 'in 2 hours': the units and rounding of date-fns' formatDistanceStrict (tested
 * against it) written with the browser's Intl, so the signed-in layout does not download date-fns.
 * Within 45 seconds either way: 'just now'. An unreadable date gives ''.
 */
export function relativeTime(iso: string, now: Date): string {
  const when = new Date(iso).getTime();
  if (Number.isNaN(when)) return '';
  const ms = when - now.getTime();
  if (Math.abs(ms) < 45_000) return 'just now';
  const minutes = Math.abs(ms) / MINUTE_MS;
  const sign = ms < 0 ? -1 : 1;
  const [value, unit]: [number, Intl.RelativeTimeFormatUnit] =
    minutes < 1
      ? [Math.abs(ms) / 1_000, 'second']
      : minutes < 60
        ? [minutes, 'minute']
        : minutes < MINUTES_IN_DAY
          ? [minutes / 60, 'hour']
          : minutes < MINUTES_IN_MONTH
            ? [minutes / MINUTES_IN_DAY, 'day']
            : minutes < MINUTES_IN_YEAR
              ? [minutes / MINUTES_IN_MONTH, 'month']
              : [minutes / MINUTES_IN_YEAR, 'year'];
  const rounded = Math.round(value);
  // As date-fns: twelve months read as a year.
  if (unit === 'month' && rounded === 12) return format.format(sign, 'year');
  return format.format(sign * rounded, unit);
}
