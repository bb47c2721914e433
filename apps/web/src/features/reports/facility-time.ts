import { isValidTimeZone } from '@ris/domain';

/** The IANA zone the viewer's browser shows times in. */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** A facility's zone: its own, else its organisation's (facility time_zone null inherits it). */
export function facilityTimeZone(
  facilityZone: string | null | undefined,
  organisationZone: string | null | undefined,
): string | null {
  return facilityZone ?? organisationZone ?? null;
}

function wallClock(date: Date, timeZone: string): { day: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((entry) => entry.type === type)?.value ?? '';
  return {
    day: `${part('year')}-${part('month')}-${part('day')}`,
    time: `${part('hour')}:${part('minute')}`,
  };
}

/**
 * The same instant on the facility's clock, for showing beside the viewer's own time ("facility
 * 02:28 IST", with the date when it is another day there); null when both clocks read the same or
 * the zone is unknown. `locale` picks the zone's short name (IST, GMT+5:30, BST...).
 */
export function facilityTimeText(
  date: Date,
  facilityZone: string,
  viewerZone: string,
  locale?: string,
): string | null {
  if (Number.isNaN(date.getTime()) || !isValidTimeZone(facilityZone) || !isValidTimeZone(viewerZone)) {
    return null;
  }
  const there = wallClock(date, facilityZone);
  const here = wallClock(date, viewerZone);
  if (there.day === here.day && there.time === here.time) return null;
  const zoneName =
    new Intl.DateTimeFormat(locale, { timeZone: facilityZone, timeZoneName: 'short' })
      .formatToParts(date)
      .find((entry) => entry.type === 'timeZoneName')?.value ?? facilityZone;
  const day =
    there.day === here.day
      ? ''
      : `${new Intl.DateTimeFormat('en-GB', { timeZone: facilityZone, day: '2-digit', month: 'short' }).format(date)}, `;
  return `facility ${day}${there.time} ${zoneName}`;
}
