// Display strings of a report's patient/study block: age at the study date, sex, and date-times in
// the facility's time zone. Pure functions (unit-tested beside this file).

const DASH = '—';

/** An IANA zone Intl accepts, else UTC (a facility's zone is validated on write; older rows may not be). */
export function safeTimeZone(timeZone: string | null | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

/**
 * "21 Nov 2026, 14:05 GMT+5:30" in the given zone, saying which (the zone's short name, e.g. UTC,
 * GMT, BST, or its offset where the name would be ambiguous, such as IST); "—" without a date.
 */
export function formatDateTime(at: Date | null, timeZone: string): string {
  if (!at) return DASH;
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: safeTimeZone(timeZone),
    timeZoneName: 'short',
  }).format(at);
}

/** The calendar date (year, month 1-12, day) of an instant in a zone. */
function calendarDateIn(at: Date, timeZone: string): { year: number; month: number; day: number } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    timeZone: safeTimeZone(timeZone),
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * Age on the study date, as radiology reports print it: whole years ("42 Y") from one year on,
 * whole months ("7 M") from one month on, else days ("12 D"). Null when the birth date is unknown,
 * malformed or after the study.
 */
export function ageAt(birthDate: string | null, at: Date, timeZone: string): string | null {
  const match = birthDate ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthDate) : null;
  if (!match) return null;
  const birth = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  const on = calendarDateIn(at, timeZone);
  let months = (on.year - birth.year) * 12 + (on.month - birth.month);
  // A birthday on the 31st is reached on the last day of a shorter month.
  if (on.day < Math.min(birth.day, daysInMonth(on.year, on.month))) months -= 1;
  if (months < 0) return null;
  if (months >= 12) return `${Math.floor(months / 12)} Y`;
  if (months >= 1) return `${months} M`;
  const days = Math.round(
    (Date.UTC(on.year, on.month - 1, on.day) - Date.UTC(birth.year, birth.month - 1, birth.day)) / 86_400_000,
  );
  return days >= 0 ? `${days} D` : null;
}

const SEXES: Record<string, string> = { M: 'M', F: 'F', O: 'O', MALE: 'M', FEMALE: 'F', OTHER: 'O' };

/** "42 Y / F"; either side "—" when unknown. */
export function ageSexLabel(age: string | null, sex: string | null): string {
  const normalised = sex ? SEXES[sex.trim().toUpperCase()] : undefined;
  return `${age ?? DASH} / ${normalised ?? DASH}`;
}

/** A display value or "—" for empty ones. */
export function orDash(value: string | null | undefined): string {
  const trimmed = value?.trim();
  return trimmed ? trimmed : DASH;
}
