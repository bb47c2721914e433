// SQL text and parameters of a Drizzle `sql` template, for the statements run on every worklist
// request. Drizzle's compiler (PgDialect.sqlToQuery) checks each chunk against a dozen entity kinds
// by walking its prototype chain and merges an object per chunk: 12 % of the server's CPU profile of
// radiologist lists (a merged walk has ~1,000 chunks; 140-430 µs a statement in a micro-benchmark on
// a busy machine). The statements on that path hold only text, nested templates and plain values; those
// are compiled here in one pass, with exactly Drizzle's output; anything else (a column, a table, a
// Param, an array, inlined params) goes to Drizzle's compiler.
import { SQL, StringChunk } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

/** Compiles SQL as the application's Drizzle instance does (openDatabase: casing snake_case). */
const dialect = new PgDialect({ casing: 'snake_case' });

export type TCompiledSql = { sql: string; params: unknown[] };

/** A value Drizzle binds as a parameter as it is (it has no entity kind and no getSQL). */
const isPlainValue = (chunk: unknown): boolean =>
  chunk === null ||
  typeof chunk === 'string' ||
  typeof chunk === 'number' ||
  typeof chunk === 'boolean' ||
  typeof chunk === 'bigint' ||
  chunk instanceof Date;

/** sql.inlineParams() was called on it (the flag is private in Drizzle's types). */
const inlinesParams = (query: SQL): boolean => Reflect.get(query, 'shouldInlineParams') === true;

/** `$1`, `$2`, … in order, as PgDialect numbers parameters. */
function appendChunks(chunks: readonly unknown[], out: TCompiledSql): boolean {
  for (const chunk of chunks) {
    if (chunk instanceof StringChunk) {
      out.sql += chunk.value.join('');
    } else if (chunk instanceof SQL) {
      if (inlinesParams(chunk) || !appendChunks(chunk.queryChunks, out)) return false;
    } else if (isPlainValue(chunk)) {
      out.params.push(chunk);
      out.sql += `$${out.params.length}`;
    } else if (chunk !== undefined) {
      return false;
    }
  }
  return true;
}

/** The statement's text and parameters, exactly as PgDialect.sqlToQuery gives them. */
export function compileSql(query: SQL): TCompiledSql {
  const out: TCompiledSql = { sql: '', params: [] };
  if (!inlinesParams(query) && appendChunks(query.queryChunks, out)) return out;
  const { sql, params } = dialect.sqlToQuery(query);
  return { sql, params };
}
