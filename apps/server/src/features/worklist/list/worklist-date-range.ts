// The date filter of the worklist (and the report finder): a preset resolved at a moment in a time
// zone, or custom bounds, each a 400 naming its field when it cannot be used.
import { isValidTimeZone, startOfDateInZone, type TWorklistFilters } from '@ris/domain';
import { AppError } from '../../../http/app-error.ts';
import { resolvePresetRange } from './preset-range.ts';
import type { TWorklistCriteria } from './worklist-criteria.ts';

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', `Invalid request. ${field}: ${message}`, {
    fields: [{ field, in: 'querystring', message }],
  });
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The instants a bound may name. PostgreSQL reads an ISO date-time's year in four digits only, and
 * the counts work out days on either side of a bound (the rollup's UTC days, a facility's zone): a
 * start at 9999-12-31 in New York asked for 10000-01-01 (a 500). From the year 100: a date of the
 * years 0–99 reads as 1900–1999 in JavaScript's calendar (startOfDateInZone refuses it).
 */
const EARLIEST_MS = Date.parse('0100-01-01T00:00:00Z');
const LATEST_MS = Date.parse('9998-12-31T23:59:59.999Z');

/** A start_date/end_date value: a date-time is an instant; a date is that day in `timeZone`. */
function customBound(field: 'start_date' | 'end_date', value: string, timeZone: string) {
  const bound = customInstant(field, value, timeZone);
  const ms = bound.at.getTime();
  if (ms < EARLIEST_MS || ms > LATEST_MS) {
    throw invalid(field, 'is out of range: it must fall within the years 0100 to 9998 (UTC)');
  }
  return bound;
}

function customInstant(field: 'start_date' | 'end_date', value: string, timeZone: string) {
  if (!DATE_ONLY.test(value)) {
    const at = new Date(value);
    if (Number.isNaN(at.getTime())) throw invalid(field, 'is not a valid date-time');
    return { at, inclusive: true };
  }
  // A date as the end covers that whole day: up to (not including) the next day's start.
  const next = new Date(`${value}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  // The day after 9999-12-31 has no four-digit year: past the range (customBound), not invalid.
  if (field === 'end_date' && next.getUTCFullYear() > 9999) return { at: next, inclusive: false };
  try {
    if (field === 'start_date') return { at: startOfDateInZone(value, timeZone), inclusive: true };
    return { at: startOfDateInZone(next.toISOString().slice(0, 10), timeZone), inclusive: false };
  } catch {
    throw invalid(field, 'is not a valid date');
  }
}

/**
 * The date range on created_at: a preset resolved at `now` in time_zone (start_date and end_date are
 * then ignored), or CUSTOM with the given bounds (either may be left open).
 */
export function resolveCreatedRange(
  filters: TWorklistFilters,
  now: Date,
): Pick<TWorklistCriteria, 'from' | 'to' | 'dateKey'> {
  const timeZone = filters.time_zone;
  if (!isValidTimeZone(timeZone)) throw invalid('time_zone', 'is not a known IANA time zone');
  if (filters.date_range_type !== 'CUSTOM') {
    const range = resolvePresetRange(filters.date_range_type, now, timeZone);
    // YESTERDAY ends where today starts (exclusive); the others end now.
    return {
      from: range.start,
      to: { at: range.end, inclusive: filters.date_range_type !== 'YESTERDAY' },
      dateKey: `${filters.date_range_type} ${timeZone}`,
    };
  }
  const from = filters.start_date ? customBound('start_date', filters.start_date, timeZone).at : null;
  const to = filters.end_date ? customBound('end_date', filters.end_date, timeZone) : null;
  if (from && to && (to.inclusive ? from > to.at : from >= to.at)) {
    throw invalid('start_date', 'must not be after end_date');
  }
  return { from, to, dateKey: `CUSTOM ${from?.toISOString()} ${to?.at.toISOString()} ${to?.inclusive}` };
}
