import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** Lower-cased, accent-free form of a text expression (ris_unaccent is the immutable wrapper of unaccent). */
export function folded(expression: SQL | AnyPgColumn): SQL {
  return sql`lower(ris_unaccent(${expression}))`;
}

/**
 * The LIKE pattern matching `term` folded, anywhere: LIKE's metacharacters (% _ and its escape \)
 * are escaped after folding, since ris_unaccent maps some characters to them (＿ to _, ％ to %).
 * Immutable functions of a parameter: PostgreSQL folds it to a constant when it plans the
 * statement, so the pg_trgm index serves it.
 */
export function containsPattern(term: string): SQL {
  return sql`'%' || replace(replace(replace(lower(ris_unaccent(${term})), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;
}

/**
 * Substring match, case- and accent-insensitive: `haystack` must already be folded (a generated
 * search_text column, served by its pg_trgm index, or folded(...)); the term is folded and escaped.
 */
export function containsFolded(haystack: SQL | AnyPgColumn, term: string): SQL {
  return sql`${haystack} LIKE ${containsPattern(term)}`;
}
