import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../../../db/client.ts';
import { queryRows } from '../../../db/rows.ts';
import type { facilities } from '../../../db/schema/index.ts';
import { buildFacility, buildStudy } from '../../../test/factories.ts';
import { createTestDatabase } from '../../../test/test-database.ts';
import { dateRangeOn } from './worklist-criteria.ts';
import { readsPairAlone } from './worklist-keyless-plan.ts';

/** A keyless search's plan as PostgreSQL gives it (EXPLAIN FORMAT JSON), its arrival bitmap `range` entries. */
function bitmapAndPlan(pair: number, range: number, asText = false): unknown {
  const plan = [
    {
      Plan: {
        'Node Type': 'Limit',
        'Plan Rows': 1001,
        Plans: [
          {
            'Node Type': 'Bitmap Heap Scan',
            'Plan Rows': 1432,
            Plans: [
              {
                'Node Type': 'BitmapAnd',
                'Plan Rows': 4387,
                Plans: [
                  {
                    'Node Type': 'Bitmap Index Scan',
                    'Index Name': 'studies_search_pair_idx',
                    'Plan Rows': pair,
                  },
                  {
                    'Node Type': 'Bitmap Index Scan',
                    'Index Name': 'studies_organisation_created_idx',
                    'Plan Rows': range,
                  },
                ],
              },
            ],
          },
        ],
      },
    },
  ];
  return asText ? JSON.stringify(plan) : plan;
}

describe('a keyless search reading its pair alone', () => {
  it('reads the pair alone when the range ANDed with it holds twenty times its entries or more', () => {
    // "sm" (13,233 estimated) over an admin's month (331,520 arrival entries): 39 ms ANDed, 19 alone.
    expect(readsPairAlone(bitmapAndPlan(13_233, 331_520))).toBe(true);
    // PGlite gives the plan as text.
    expect(readsPairAlone(bitmapAndPlan(13_233, 331_520, true))).toBe(true);
    expect(readsPairAlone(bitmapAndPlan(1_000, 20_000))).toBe(true);
    // Over a week (77,000): 8.5 ms ANDed, 16-23 ms alone.
    expect(readsPairAlone(bitmapAndPlan(13_233, 77_000))).toBe(false);
    expect(readsPairAlone(bitmapAndPlan(1_000, 19_999))).toBe(false);
  });

  it('keeps the plan when nothing is ANDed with the pair, or the plan is not one', () => {
    const pairOnly = [
      {
        Plan: {
          'Node Type': 'Bitmap Heap Scan',
          'Plan Rows': 120,
          Plans: [
            { 'Node Type': 'Bitmap Index Scan', 'Index Name': 'studies_search_pair_idx', 'Plan Rows': 130 },
          ],
        },
      },
    ];
    expect(readsPairAlone(pairOnly)).toBe(false);
    const andWithoutPair = JSON.parse(
      JSON.stringify(bitmapAndPlan(13_233, 331_520)).replace('studies_search_pair_idx', 'studies_status_idx'),
    ) as unknown;
    expect(readsPairAlone(andWithoutPair)).toBe(false);
    for (const odd of [null, '[]', [{}], [{ Plan: null }], { Plan: {} }]) {
      expect(readsPairAlone(odd)).toBe(false);
    }
  });
});

describe('a date range tested on each row', () => {
  let database: TDatabase;
  let facility: typeof facilities.$inferSelect;
  const at = (iso: string) => new Date(iso);
  const instants = [
    '2026-10-31T23:59:59.999Z',
    '2026-11-01T00:00:00.000Z',
    '2026-11-15T12:00:00.000Z',
    '2026-11-30T23:59:59.999Z',
    '2026-12-01T00:00:00.000Z',
  ];

  beforeAll(async () => {
    database = await createTestDatabase();
    facility = await buildFacility(database.db);
    for (const instant of instants) await buildStudy(database.db, { facility, createdAt: at(instant) });
  });
  afterAll(async () => {
    await database.close();
  });

  const arrivals = async (conditions: ReturnType<typeof dateRangeOn>) => {
    const rows = await queryRows<{ created_at: string | Date }>(
      database.db,
      sql`select "studies"."created_at" from studies
        where "studies"."organisation_id" = ${facility.organisationId}::uuid
          ${conditions.length > 0 ? sql` and ${sql.join(conditions, sql.raw(' and '))}` : sql``}
        order by "studies"."created_at"`,
    );
    return rows.map((row) => new Date(row.created_at).toISOString());
  };

  it('keeps the same studies as the indexed range, at each bound inclusive or not', async () => {
    const ranges = [
      { from: at('2026-11-01T00:00:00.000Z'), to: { at: at('2026-12-01T00:00:00.000Z'), inclusive: false } },
      { from: at('2026-11-01T00:00:00.000Z'), to: { at: at('2026-11-30T23:59:59.999Z'), inclusive: true } },
      { from: null, to: { at: at('2026-11-15T12:00:00.000Z'), inclusive: true } },
      { from: at('2026-11-15T12:00:00.000Z'), to: null },
    ];
    for (const range of ranges) {
      const indexed = await arrivals(dateRangeOn('"studies"."created_at"', range));
      const tested = await arrivals(dateRangeOn('"studies"."created_at"', range, undefined, true));
      expect(tested).toEqual(indexed);
      expect(tested.length).toBeGreaterThan(0);
      expect(tested.length).toBeLessThan(instants.length);
    }
  });
});
