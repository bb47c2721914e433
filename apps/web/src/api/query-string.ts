/** A single query value; null and undefined are left out of the query string. */
export type QueryScalar = string | number | boolean | Date | null | undefined;

/** Query parameters of a request. Arrays become repeated keys (`?statuses=A&statuses=B`). */
export type QueryParams = Readonly<Record<string, QueryScalar | readonly QueryScalar[]>>;

function serialise(value: Exclude<QueryScalar, null | undefined>): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/**
 * Builds `?a=1&b=2` (or '' when nothing is left) in the wire format of the specification: array
 * parameters are repeated keys, and undefined or null values (also inside arrays) are skipped.
 */
export function buildQueryString(params?: QueryParams): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, raw] of Object.entries(params)) {
    const values: readonly QueryScalar[] = Array.isArray(raw) ? raw : [raw as QueryScalar];
    for (const value of values) {
      if (value === undefined || value === null) continue;
      search.append(key, serialise(value));
    }
  }
  const query = search.toString();
  return query === '' ? '' : `?${query}`;
}
