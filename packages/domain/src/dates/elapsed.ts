const MINUTES_PER_HOUR = 60;
const MINUTES_PER_DAY = 24 * MINUTES_PER_HOUR;

/**
 * Elapsed time for lists: under an hour '45m', under a day '3h 5m' (minutes not zero-padded), else
 * '2d 4h' (remaining minutes dropped). Fractions are floored; negative, NaN or infinite input (a time
 * in the future or a bad value) gives '0m'.
 */
export function formatElapsedMinutes(minutes: number): string {
  if (!Number.isFinite(minutes) || minutes <= 0) return '0m';
  const whole = Math.floor(minutes);
  if (whole < MINUTES_PER_HOUR) return `${whole}m`;
  if (whole < MINUTES_PER_DAY) {
    return `${Math.floor(whole / MINUTES_PER_HOUR)}h ${whole % MINUTES_PER_HOUR}m`;
  }
  const days = Math.floor(whole / MINUTES_PER_DAY);
  const hours = Math.floor((whole % MINUTES_PER_DAY) / MINUTES_PER_HOUR);
  return `${days}d ${hours}h`;
}

/** Elapsed time from `since` until `now`, formatted as formatElapsedMinutes does. */
export function formatElapsedSince(since: Date, now: Date): string {
  return formatElapsedMinutes((now.getTime() - since.getTime()) / 60_000);
}
