// compileSql must give exactly what Drizzle's PgDialect gives for any statement: the text the driver
// prepares (and names by) and the parameters in the same order.
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { compileSql } from './compile-sql.ts';
import { oneOf } from './one-of.ts';
import { studies, users } from './schema/index.ts';

const dialect = new PgDialect({ casing: 'snake_case' });
const drizzle = (query: SQL) => {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { sql: text, params };
};

const at = new Date('2026-11-26T10:00:00.000Z');
const facilities = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];

const cases: Record<string, SQL> = {
  'text only': sql`select 1`,
  'plain values of every kind': sql`select ${'a'}::text, ${42}, ${1.5}, ${null}, ${true}, ${false}, ${10n}, ${at}`,
  'nested templates, joins and raw text': sql`select * from studies where ${sql.join(
    [
      oneOf('"studies"."facility_id"', facilities, 'uuid'),
      sql`"studies"."status" = ${'FINAL'}`,
      sql.raw('true'),
    ],
    sql.raw(' and '),
  )} order by ${sql.raw('created_at')} desc limit ${25} offset ${0}`,
  'a parameter inside a deeply nested template': sql`(${sql`(${sql`(${sql`${'deep'}`})`})`})`,
  'the same fragment twice': (() => {
    const where = sql`"studies"."organisation_id" = ${'org'}::uuid and "studies"."status" = ${'TO_READ'}`;
    return sql`select count(*) from studies where ${where} union all select count(*) from studies where ${where}`;
  })(),
  'an empty template and an empty join': sql`select ${sql``}1${sql.join([], sql.raw(', '))}`,
  'a column and a table (Drizzle compiles it)': sql`select ${users.id} from ${users} where ${users.email} = ${'a@b.c'}`,
  'a column in a nested template after parameters': sql`select ${'x'}, ${sql`${studies.createdAt} > ${at}`}`,
  'an array (Drizzle writes a list)': sql`select * from studies where id in ${['a', 'b', 'c']}`,
  'a Param': sql`select ${sql.param('p')}, ${'q'}`,
  'inlined parameters': sql`select ${"it's"}, ${3}`.inlineParams(),
  'inlined parameters in a nested template': sql`select ${'outer'}, ${sql`${'inner'}`.inlineParams()}`,
  'a placeholder': sql`select ${sql.placeholder('name')}`,
};

describe('compileSql', () => {
  for (const [name, query] of Object.entries(cases)) {
    it(`compiles ${name} exactly as Drizzle does`, () => {
      expect(compileSql(query)).toEqual(drizzle(query));
    });
  }

  it('numbers parameters in the order they appear, across nesting', () => {
    const compiled = compileSql(sql`a ${1} ${sql`b ${2} ${sql`c ${3}`} d ${4}`} e ${5}`);
    expect(compiled).toEqual({ sql: 'a $1 b $2 c $3 d $4 e $5', params: [1, 2, 3, 4, 5] });
  });
});
