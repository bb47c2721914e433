// Counts under an assignee filter (a reporter's own list, an admin's or a radiologist's by_user_ids)
// come from the assignee rollup (migration 0029: study_assignee_day_counts plus
// study_assignee_count_deltas) and the partial days at a range's edges: they must equal count(*) over
// `studies` for any range, scope and filter, after assignments, reassignments, unassignment, status
// changes, moves across days and facilities, deletes and concurrent writers, before and after
// compaction; another organisation's or facility's studies are never counted.
import {
  STUDY_STATUSES,
  ZWorklistFilters,
  type TWorklistListResponse,
  type TWorklistStatusCounts,
} from '@ris/domain';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScope } from '../../../access/scope.ts';
import { queryRows } from '../../../db/rows.ts';
import {
  boundaryInstants,
  buildAssigneeWorld,
  NOW,
  random,
  rollupsAgainstStudies,
  studyChanges,
  type TAssigneeWorld,
} from '../../../test/assignee-rollup-world.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { resolveWorklistCriteria } from './worklist-criteria.ts';
import { worklistCountCacheOf } from './worklist-list.routes.ts';
import { compactWorklistCounts } from './worklist-rollup-compaction.ts';
import { rollupStatusCountsSql, rollupTotalSql } from './worklist-rollup.ts';
import {
  countedDirectly,
  worklistFiltersQuery,
  type TWorklistTestFilters,
} from '../../../test/worklist-filters-query.ts';

let server: TTestServer;
let world: TAssigneeWorld;
const tokens = { admin: '', reporter: '', radiologist: '' };

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const cache = worklistCountCacheOf(server.app.deps);
  if (cache) cache.enabled = false;
  world = await buildAssigneeWorld(server.db);
  tokens.admin = await tokenFor(server, world.users.admin);
  tokens.reporter = await tokenFor(server, world.users.reporter);
  tokens.radiologist = await tokenFor(server, world.users.radiologist);
});

afterAll(async () => server.close());

type TFilters = TWorklistTestFilters;

async function viaApi(token: string, filters: TFilters) {
  const query = worklistFiltersQuery(filters);
  const counts = await server.request('GET', `/api/v1/worklist/status/count?${query}`, { token });
  expect(counts.status, counts.text).toBe(200);
  // A status tab (the total decides the page's form) and the default list (walked on the assignee's
  // index): both totals from the rollup.
  const tab = await server.request(
    'GET',
    `/api/v1/worklist?${query}&statuses=FINAL&statuses=TO_READ&limit=1`,
    {
      token,
    },
  );
  expect(tab.status, tab.text).toBe(200);
  const listed = await server.request('GET', `/api/v1/worklist?${query}&limit=1`, { token });
  expect(listed.status, listed.text).toBe(200);
  return {
    statuses: (counts.json as TWorklistStatusCounts).statuses,
    tab: (tab.json as TWorklistListResponse).total,
    listed: (listed.json as TWorklistListResponse).total,
  };
}

/** Boundary pairs, open ends, all dates. */
function ranges(): TFilters[] {
  const instants = boundaryInstants().map((at) => at.toISOString());
  const out: TFilters[] = [{}];
  for (let i = 0; i < instants.length; i += 4) {
    for (let j = i; j < instants.length; j += 5) out.push({ from: instants[i], to: instants[j] });
    out.push({ from: instants[i] }, { to: instants[i] });
  }
  return out;
}

type TWho = keyof typeof tokens;

/** Who asks, with which filters, for which assignees, seeing which facilities (null: all). */
function variants(range: TFilters): [TWho, TFilters, string[], string[] | null][] {
  const [f0 = '', f1 = '', f2 = ''] = world.facilityIds;
  const [reporter, radiologist, colleague] = [
    world.users.reporter.id,
    world.users.radiologist.id,
    world.users.colleague.id,
  ];
  return [
    ['reporter', range, [reporter], [f0, f1]],
    [
      'reporter',
      { ...range, byUserIds: [colleague], modalities: ['CT', 'MRI'] },
      [colleague, reporter],
      [f0, f1],
    ],
    ['reporter', { ...range, facilityIds: [f1], priorityTags: ['URGENT', 'ONCO'] }, [reporter], [f1]],
    ['admin', { ...range, byUserIds: [radiologist] }, [radiologist], null],
    [
      'admin',
      { ...range, byUserIds: [radiologist, colleague], facilityIds: [f2] },
      [radiologist, colleague],
      [f2],
    ],
    ['admin', { ...range, byUserIds: [reporter], modalities: ['XRAY'] }, [reporter], null],
    ['radiologist', { ...range, byUserIds: [colleague] }, [colleague], [f0, f2]],
  ];
}

const LISTED = STUDY_STATUSES.filter((status) => status !== 'DELETED');

async function expectAllExact(): Promise<number> {
  let checked = 0;
  for (const range of ranges()) {
    for (const [who, filters, assignees, visible] of variants(range)) {
      const expected = await countedDirectly(
        server.db,
        { organisationId: world.organisationId, visible, assignees },
        filters,
      );
      const { statuses, tab, listed } = await viaApi(tokens[who], filters);
      const shown = who === 'admin' ? expected : { ...expected, DELETED: 0 };
      expect({ who, filters, statuses }).toEqual({ who, filters, statuses: shown });
      const sum = (of: readonly string[]) => of.reduce((total, status) => total + (expected[status] ?? 0), 0);
      expect({ who, filters, tab, listed }).toEqual({
        who,
        filters,
        tab: sum(['FINAL', 'TO_READ']),
        listed: sum(LISTED),
      });
      checked += 1;
    }
  }
  return checked;
}

async function expectRollupsExact(): Promise<void> {
  const { assignee, assigned, facility, studies } = await rollupsAgainstStudies(server.db);
  expect(assigned.length).toBeGreaterThan(50);
  expect(assignee).toEqual(assigned);
  expect(facility).toEqual(studies);
}

const isDeadlock = (error: unknown): boolean => {
  const { code, cause } = error as { code?: string; cause?: { code?: string } };
  return code === '40P01' || cause?.code === '40P01';
};

describe('worklist counts under an assignee filter, from the assignee rollup', () => {
  it('are read from the assignee rollup (a changed rollup row shows in the counts)', async () => {
    const dialect = new PgDialect({ casing: 'snake_case' });
    const [f0 = '', f1 = ''] = world.facilityIds;
    const reporter = world.users.reporter.id;
    const principal = {
      userId: reporter,
      email: 'reporter@example.test',
      organisationId: world.organisationId,
      role: 'RADIOLOGIST' as const,
      userType: 'REPORTER' as const,
      facilityIds: [f0, f1],
      sessionId: '',
      issuedAt: 0,
    };
    const filters = ZWorklistFilters.parse({ date_range_type: 'CUSTOM' });
    const criteria = await resolveWorklistCriteria(
      server.db,
      await loadScope(server.db, principal),
      filters,
      NOW,
    );
    expect(criteria.byUserIds).toEqual([reporter]);
    for (const statement of [
      rollupTotalSql(server.db, criteria, criteria.statuses),
      rollupStatusCountsSql(server.db, criteria, criteria.countedStatuses),
    ]) {
      expect(statement).not.toBeNull();
      const text = statement ? dialect.sqlToQuery(statement).sql : '';
      // All dates: the assignee rollup and its deltas, nothing counted from studies.
      expect(text).toContain('from study_assignee_day_counts r');
      expect(text).toContain('from study_assignee_count_deltas r');
      expect(text).not.toMatch(/from studies/);
    }
    // Through the API: one of the reporter's rollup rows changed by 1,000 shows in their counts.
    await compactWorklistCounts(server.db);
    const before = await viaApi(tokens.reporter, {});
    const [row] = await queryRows<{ status: string }>(
      server.db,
      sql`update study_assignee_day_counts set study_count = study_count + 1000
        where ctid = (select ctid from study_assignee_day_counts where last_assigned_user_id = ${reporter}::uuid
          and facility_id = ${f0}::uuid and status = 'FINAL' limit 1)
        returning status::text as status`,
    );
    expect(row?.status).toBe('FINAL');
    const after = await viaApi(tokens.reporter, {});
    await server.db.execute(sql`update study_assignee_day_counts set study_count = study_count - 1000
      where study_count > 1000`);
    expect(after.statuses.FINAL - before.statuses.FINAL).toBe(1000);
    expect(after.listed - before.listed).toBe(1000);
    expect(after.tab - before.tab).toBe(1000);
    expect(await viaApi(tokens.reporter, {})).toEqual(before);
  });

  it('equal count(*) for every range, scope and filter, before and after compaction', async () => {
    await expectRollupsExact();
    // The other organisation's studies carry the assignees: the rollup holds them, no count takes them.
    const [foreign] = await queryRows<{ n: number }>(
      server.db,
      sql`select count(*)::int as n from (select organisation_id from study_assignee_day_counts
        union all select organisation_id from study_assignee_count_deltas) r where organisation_id = ${world.foreignOrganisationId}::uuid`,
    );
    expect(foreign?.n).toBeGreaterThan(0);
    expect(await expectAllExact()).toBeGreaterThan(100);
    await compactWorklistCounts(server.db);
    const [left] = await queryRows<{ n: number }>(
      server.db,
      sql`select count(*)::int as n from study_assignee_count_deltas`,
    );
    expect(left?.n).toBe(0);
    await expectRollupsExact();
    await expectAllExact();
  }, 120_000);

  it('stay exact under concurrent assignments, reassignments, unassignment, moves, deletes and compactions', async () => {
    const next = random(15);
    const statement = await studyChanges(server.db, world, next);
    const writer = async () => {
      for (let round = 0; round < 15; round += 1) {
        const statements = Array.from({ length: 2 + Math.floor(next() * 3) }, statement);
        // Random rows in random order may deadlock with another writer: that transaction is retried.
        for (;;) {
          try {
            await server.db.transaction(async (tx) => {
              for (const query of statements) await tx.execute(query);
            });
            break;
          } catch (error) {
            if (!isDeadlock(error)) throw error;
          }
        }
      }
    };
    const compactions = async () => {
      for (let round = 0; round < 6; round += 1) await compactWorklistCounts(server.db);
    };
    await Promise.all([writer(), writer(), writer(), writer(), compactions()]);
    await expectRollupsExact();
    await expectAllExact();
    await compactWorklistCounts(server.db);
    await expectRollupsExact();
  }, 120_000);
});
