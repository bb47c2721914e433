import { AppError } from './app-error.ts';

/** The SQLSTATE of a PostgreSQL error from either driver, also when Drizzle wraps it (`cause`). */
export function sqlState(error: unknown): string | null {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    if (typeof current === 'object' && 'code' in current) {
      const code = (current as { code: unknown }).code;
      if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    }
    current = typeof current === 'object' && current !== null && 'cause' in current ? current.cause : null;
  }
  return null;
}

/**
 * Database errors caused by the data a person sent become 4xx answers instead of 500s. Commands
 * still check what they can first (with messages naming the field); this is the safety net.
 */
export function appErrorFromDatabase(error: unknown): AppError | null {
  switch (sqlState(error)) {
    case '22021': // character_not_in_repertoire: a NUL byte in text
    case '22P05': // untranslatable_character
      return new AppError('VALIDATION_FAILED', 'Text must not contain NUL (\\u0000) characters.');
    case '22001':
      return new AppError('VALIDATION_FAILED', 'A value is longer than this field allows.');
    case '22P02':
    case '22007':
    case '22008':
    case '22003':
      return new AppError('VALIDATION_FAILED', 'A value is not in the format this field expects.');
    case '23505':
      return new AppError('CONFLICT', 'This already exists.');
    case '23503':
      return new AppError('CONFLICT', 'This refers to a record that does not exist or is still in use.');
    case '40001':
    case '40P01':
      return new AppError(
        'SERVICE_UNAVAILABLE',
        'The server was busy with a conflicting change. Please try again.',
      );
    default:
      return null;
  }
}
