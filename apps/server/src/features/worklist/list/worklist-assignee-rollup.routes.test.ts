// Counts under an assignee filter (a reporter's own list, an admin's or a radiologist's by_user_ids)
// come from the assignee rollup (migration 0029: study_assignee_day_counts plus
// study_assignee_count_deltas) and the partial days at a range's edges: they must equal count(*) over
// `studies` for any range, scope and filter, after assignments, reassignments, unassignment, status
// changes, moves across days and facilities, deletes and concurrent writers, before and after
// compaction; another organisation's or facility's studies are never counted.
import {
  MODALITIES,
  PRIORITY_TAGS,
  STUDY_STATUSES,
  ZWorklistFilters,
  type TWorklistListResponse,
  type TWorklistStatusCounts,
} from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScope } from '../../../access/scope.ts';
import { queryRows } from '../../../db/rows.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import {
  buildFacility,
  buildOrganisation,
  buildPatient,
  buildStudy,
  buildUser,
} from '../../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { resolveWorklistCriteria } from './worklist-criteria.ts';
import { worklistCountCacheOf } from './worklist-list.routes.ts';
import { compactWorklistCounts } from './worklist-rollup-compaction.ts';
import { rollupStatusCountsSql, rollupTotalSql } from './worklist-rollup.ts';

const NOW = new Date('2024-05-10T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
let server: TTestServer;
let organisationId = '';
let foreignOrganisationId = '';
/** f0, f1, f2 of the organisation. */
let facilityIds: string[] = [];
const tokens = { admin: '', reporter: '', radiologist: '' };
/** The reporter (f0, f1), a radiologist (f0, f2), a colleague (f1, f2). */
const people = { reporter: '', radiologist: '', colleague: '' };

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(next: () => number, values: readonly T[]): T =>
  values[Math.floor(next() * values.length)] as T;
const uuids = (ids: readonly string[]) => `{${ids.join(',')}}`;

/** Instants around the UTC midnights of the last four days and today: exactly on them and 1 ms off. */
function boundaryInstants(): Date[] {
  const midnight = Math.floor(NOW.getTime() / DAY) * DAY;
  const instants: Date[] = [];
  for (let day = -4; day <= 0; day += 1) {
    for (const offset of [-1, 0, 1, 5 * 3600_000 + 1800_000, 13 * 3600_000]) {
      instants.push(new Date(midnight + day * DAY + offset));
    }
  }
  return instants.filter((at) => at <= NOW);
}

const assigneesOf = () => [people.reporter, people.radiologist, people.colleague, null];

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const cache = worklistCountCacheOf(server.app.deps);
  if (cache) cache.enabled = false;
  const db = server.db;
  organisationId = (await buildOrganisation(db)).id;
  const facilities = await Promise.all([0, 1, 2].map(() => buildFacility(db, { organisationId })));
  facilityIds = facilities.map((facility) => facility.id);
  const [f0, f1, f2] = facilities;
  if (!f0 || !f1 || !f2) throw new Error('no facilities');
  const admin = await buildUser(db, { role: 'ADMIN', organisationId });
  const reporter = await buildUser(db, { facilities: [f0, f1], userType: 'REPORTER' });
  const radiologist = await buildUser(db, { facilities: [f0, f2] });
  const colleague = await buildUser(db, { facilities: [f1, f2] });
  Object.assign(people, { reporter: reporter.id, radiologist: radiologist.id, colleague: colleague.id });
  tokens.admin = await tokenFor(server, admin);
  tokens.reporter = await tokenFor(server, reporter);
  tokens.radiologist = await tokenFor(server, radiologist);
  const next = random(29);
  for (const facility of facilities) {
    const patient = await buildPatient(db, { facility });
    for (const createdAt of boundaryInstants()) {
      for (let copy = 0; copy < 2; copy += 1) {
        await buildStudy(db, {
          facility,
          patient,
          createdAt,
          updatedAt: createdAt,
          status: pick(next, STUDY_STATUSES),
          modality: pick(next, ['CT', 'MR', 'CR', 'US', 'OT']),
          priorityTag: next() < 0.3 ? pick(next, PRIORITY_TAGS) : null,
          lastAssignedUserId: pick(next, assigneesOf()),
        });
      }
    }
  }
  // Another organisation's studies carrying the organisation's assignees (no API makes these; a
  // count that forgot the organisation would take them in).
  const foreign = await buildFacility(db);
  foreignOrganisationId = foreign.organisationId;
  for (const createdAt of boundaryInstants()) {
    await buildStudy(db, { facility: foreign, createdAt, lastAssignedUserId: pick(next, assigneesOf()) });
  }
});

afterAll(async () => server.close());

type TFilters = {
  from?: string;
  to?: string;
  byUserIds?: string[];
  facilityIds?: string[];
  modalities?: string[];
  priorityTags?: string[];
};

/** count(*) per status straight from `studies` (what the rollup must reproduce). */
async function countedDirectly(
  filters: TFilters,
  assignees: string[],
  visible: string[] | null,
): Promise<Record<string, number>> {
  const conditions = [
    sql`organisation_id = ${organisationId}::uuid`,
    sql`last_assigned_user_id = any(${uuids(assignees)}::uuid[])`,
  ];
  if (visible) conditions.push(sql`facility_id = any(${uuids(visible)}::uuid[])`);
  if (filters.facilityIds) conditions.push(sql`facility_id = any(${uuids(filters.facilityIds)}::uuid[])`);
  if (filters.modalities) {
    conditions.push(sql`modality_group::text = any(${`{${filters.modalities.join(',')}}`}::text[])`);
  }
  if (filters.priorityTags) {
    conditions.push(sql`priority_tag::text = any(${`{${filters.priorityTags.join(',')}}`}::text[])`);
  }
  if (filters.from) conditions.push(sql`created_at >= ${filters.from}::timestamptz`);
  if (filters.to) conditions.push(sql`created_at <= ${filters.to}::timestamptz`);
  const rows = await queryRows<{ status: string; count: number }>(
    server.db,
    sql`select status::text as status, count(*)::int as count from studies where ${sql.join(conditions, sql` and `)} group by 1`,
  );
  return Object.fromEntries(
    STUDY_STATUSES.map((status) => [status, rows.find((row) => row.status === status)?.count ?? 0]),
  );
}

function queryOf(filters: TFilters): string {
  const params = new URLSearchParams({ date_range_type: 'CUSTOM' });
  if (filters.from) params.set('start_date', filters.from);
  if (filters.to) params.set('end_date', filters.to);
  for (const id of filters.byUserIds ?? []) params.append('by_user_ids', id);
  for (const id of filters.facilityIds ?? []) params.append('facility_ids', id);
  for (const modality of filters.modalities ?? []) params.append('modalities', modality);
  for (const tag of filters.priorityTags ?? []) params.append('priority_tags', tag);
  return params.toString();
}

async function viaApi(token: string, filters: TFilters) {
  const query = queryOf(filters);
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
  const [f0 = '', f1 = '', f2 = ''] = facilityIds;
  const { reporter, radiologist, colleague } = people;
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
      const expected = await countedDirectly(filters, assignees, visible);
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

type TKeyCount = { key: string; count: number };

/** Each rollup plus its deltas per key, and count(*) per key, over every organisation. */
async function rollupsAgainstStudies() {
  const read = (query: SQL) => queryRows<TKeyCount>(server.db, query);
  const summed = (key: string, rollup: string, deltas: string) =>
    read(sql`select key, sum(count)::int as count from (
        select ${sql.raw(key)} as key, study_count as count from ${sql.raw(rollup)}
        union all select ${sql.raw(key)}, study_count from ${sql.raw(deltas)}
      ) k group by key having sum(count) <> 0 order by key`);
  const counted = (key: string, where: string) =>
    read(
      sql`select ${sql.raw(key)} as key, count(*)::int as count from studies ${sql.raw(where)} group by 1 order by 1`,
    );
  const assigneeKey = `concat_ws('|', organisation_id, last_assigned_user_id, facility_id, %day, status, modality_group, priority_tag)`;
  const facilityKey = `concat_ws('|', organisation_id, facility_id, %day, status, modality_group, priority_tag)`;
  const day = (key: string, expression: string) => key.replace('%day', expression);
  return {
    assignee: await summed(
      day(assigneeKey, 'day'),
      'study_assignee_day_counts',
      'study_assignee_count_deltas',
    ),
    assigned: await counted(
      day(assigneeKey, 'ris_count_day(created_at)'),
      'where last_assigned_user_id is not null',
    ),
    facility: await summed(day(facilityKey, 'day'), 'study_facility_day_counts', 'study_count_deltas'),
    studies: await counted(day(facilityKey, 'ris_count_day(created_at)'), ''),
  };
}

async function expectRollupsExact(): Promise<void> {
  const { assignee, assigned, facility, studies } = await rollupsAgainstStudies();
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
    const [f0 = '', f1 = ''] = facilityIds;
    const principal = {
      userId: people.reporter,
      email: 'reporter@example.test',
      organisationId,
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
    expect(criteria.byUserIds).toEqual([people.reporter]);
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
        where ctid = (select ctid from study_assignee_day_counts where last_assigned_user_id = ${people.reporter}::uuid
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
        union all select organisation_id from study_assignee_count_deltas) r where organisation_id = ${foreignOrganisationId}::uuid`,
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
    const pool = (await queryRows<{ id: string }>(server.db, sql`select id from studies order by id`)).map(
      (row) => row.id,
    );
    const patients = await queryRows<{ id: string; organisation_id: string; facility_id: string }>(
      server.db,
      sql`select id, organisation_id, facility_id from patients`,
    );
    const statement = (): SQL => {
      const id = pick(next, pool);
      const choice = Math.floor(next() * 10);
      const assignee = pick(next, assigneesOf());
      if (choice === 0) {
        return sql`update studies set last_assigned_user_id = ${assignee}::uuid, status = 'ASSIGNED' where id = ${id}::uuid`;
      }
      if (choice === 1)
        return sql`update studies set last_assigned_user_id = ${assignee}::uuid where id = ${id}::uuid`;
      if (choice === 2) return sql`update studies set last_assigned_user_id = null where id = ${id}::uuid`;
      if (choice === 3)
        return sql`update studies set status = ${pick(next, STUDY_STATUSES)} where id = ${id}::uuid`;
      if (choice === 4) {
        return sql`update studies set created_at = created_at + ${Math.round((next() - 0.5) * 3 * DAY)} * interval '1 millisecond'
          where id = ${id}::uuid`;
      }
      if (choice === 5) {
        return sql`update studies set facility_id = ${pick(next, facilityIds)}::uuid
          where id = ${id}::uuid and organisation_id = ${organisationId}::uuid`;
      }
      if (choice === 6) {
        return sql`update studies set modality_group = ${pick(next, MODALITIES)}, priority_tag = ${pick(next, [...PRIORITY_TAGS, null])}
          where id = ${id}::uuid`;
      }
      if (choice === 7) {
        // Two studies to one assignee in one statement, reading unchanged for one of them maybe.
        return sql`update studies set last_assigned_user_id = ${assignee}::uuid, updated_at = now()
          where id = any(${uuids([pick(next, pool), id])}::uuid[])`;
      }
      if (choice === 8) return sql`delete from studies where id = ${id}::uuid`;
      const patient = pick(next, patients);
      return sql`insert into studies (organisation_id, facility_id, patient_id, accession_number, status, modality_group,
          last_assigned_user_id, created_at)
        values (${patient?.organisation_id}::uuid, ${patient?.facility_id}::uuid, ${patient?.id}::uuid,
          ${`R${next().toString(36).slice(2, 12)}`}, ${pick(next, STUDY_STATUSES)}, ${pick(next, MODALITIES)},
          ${assignee}::uuid, ${new Date(NOW.getTime() - next() * 4 * DAY).toISOString()}::timestamptz)`;
    };
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
