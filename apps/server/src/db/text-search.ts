import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** Escapes LIKE's metacharacters so a search term matches literally (backslash is LIKE's escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Lower-cased, accent-free form of a text expression (ris_unaccent is the immutable wrapper of unaccent). */
export function folded(expression: SQL | AnyPgColumn): SQL {
  return sql`lower(ris_unaccent(${expression}))`;
}

/**
 * Substring match, case- and accent-insensitive: `haystack` must already be folded (a generated
 * search_text column, served by its pg_trgm index, or folded(...)); the term is folded and escaped.
 */
export function containsFolded(haystack: SQL | AnyPgColumn, term: string): SQL {
  return sql`${haystack} LIKE '%' || lower(ris_unaccent(${escapeLike(term)})) || '%'`;
}
