import { sql, type SQL } from 'drizzle-orm';

/**
 * `column` is one of `values` (checked identifiers: uuids, enum values of `type`) with one parameter
 * whatever the length: `= $1` for one value (as `IN ($1)` reads, so the plans stay those of the
 * partial and per-value indexes), else `= any($1::type[])` with an array literal written here so
 * both drivers bind it the same way. `column` is SQL text (a quoted, table-qualified name).
 */
export function oneOf(column: string, values: readonly string[], type: string): SQL {
  if (values.length === 1) return sql`${sql.raw(column)} = ${values[0]}::${sql.raw(type)}`;
  const literal = `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
  return sql`${sql.raw(column)} = any(${literal}::${sql.raw(type)}[])`;
}
