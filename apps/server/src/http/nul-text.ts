// PostgreSQL text cannot hold NUL (U+0000): a write with one failed in the database, whose error does
// not say which field held it. Every string of a request's JSON body and form fields is checked here
// first, and a 400 names the first field holding one.
import { AppError } from './app-error.ts';

const NUL = '\u0000';

/** The path (a.b.0) of the first string in `value` holding NUL, or null. Walked without recursion. */
export function nulTextPath(value: unknown): string | null {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: current, path } = next;
    if (typeof current === 'string') {
      if (current.includes(NUL)) return path || 'body';
      continue;
    }
    const entries = Array.isArray(current)
      ? current.map((item, index) => [String(index), item] as const)
      : isPlainObject(current)
        ? Object.entries(current)
        : [];
    for (const [key, item] of entries.reverse()) {
      if (key.includes(NUL)) return path || 'body';
      pending.push({ value: item, path: path ? `${path}.${key}` : key });
    }
  }
  return null;
}

/** A parsed object: Object's, or one without Object's prototype (as some parsers make them). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null || Object.getPrototypeOf(prototype) === null;
}

/** A 400 naming the first field of a request body (JSON or form fields) that holds NUL. */
export function assertNoNulText(body: unknown): void {
  const field = nulTextPath(body);
  if (field === null) return;
  const message = 'must not contain NUL (\\u0000) characters';
  throw new AppError('VALIDATION_FAILED', `Invalid request. ${field}: ${message}`, {
    fields: [{ field, in: 'body', message }],
  });
}
