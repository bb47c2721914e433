// The worklist's counts come from the day rollup (migration 0014) plus the partial days at a range's
// edges: they must equal count(*) over `studies` for any range (midnights, a millisecond either side,
// dates in any time zone, open ends), scope and filter, before and after compaction, and stay exact
// under concurrent writes of every kind.
import {
  MODALITIES,
  PRIORITY_TAGS,
  STUDY_STATUSES,
  type TWorklistListResponse,
  type TWorklistStatusCounts,
} from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { compactWorklistCounts } from './worklist-rollup-compaction.ts';
import { worklistCountCacheOf } from './worklist-list.routes.ts';
import {
  countedDirectly,
  worklistFiltersQuery,
  type TWorklistTestFilters,
} from '../../../test/worklist-filters-query.ts';

const NOW = new Date('2024-05-10T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
let server: TTestServer;
let organisationId = '';
let facilityIds: string[] = [];
const tokens = { admin: '', radiologist: '' };

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

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const cache = worklistCountCacheOf(server.app.deps);
  if (cache) cache.enabled = false;
  const db = server.db;
  const organisation = await buildOrganisation(db);
  organisationId = organisation.id;
  const facilities = await Promise.all([1, 2, 3].map(() => buildFacility(db, { organisationId })));
  facilityIds = facilities.map((facility) => facility.id);
  const admin = await buildUser(db, { role: 'ADMIN', organisationId });
  const radiologist = await buildUser(db, { role: 'RADIOLOGIST', facilities: facilities.slice(0, 2) });
  tokens.admin = await tokenFor(server, admin);
  tokens.radiologist = await tokenFor(server, radiologist);
  const next = random(15);
  const instants = boundaryInstants();
  for (const facility of facilities) {
    const patient = await buildPatient(db, { facility });
    for (const createdAt of instants) {
      await buildStudy(db, {
        facility,
        patient,
        createdAt,
        updatedAt: createdAt,
        status: pick(next, STUDY_STATUSES),
        modality: pick(next, ['CT', 'MR', 'CR', 'US', 'OT']),
        priorityTag: next() < 0.3 ? pick(next, PRIORITY_TAGS) : null,
      });
    }
  }
});

afterAll(async () => server.close());

type TFilters = TWorklistTestFilters;

async function viaApi(token: string, filters: TFilters) {
  const query = worklistFiltersQuery(filters);
  const counts = await server.request('GET', `/api/v1/worklist/status/count?${query}`, { token });
  expect(counts.status, counts.text).toBe(200);
  const list = await server.request(
    'GET',
    `/api/v1/worklist?${query}&statuses=FINAL&statuses=TO_READ&limit=1`,
    {
      token,
    },
  );
  expect(list.status, list.text).toBe(200);
  return {
    statuses: (counts.json as TWorklistStatusCounts).statuses,
    total: (list.json as TWorklistListResponse).total,
  };
}

/** Every range the test asks about: boundary pairs, open ends, zone dates. */
function ranges(): TFilters[] {
  const instants = boundaryInstants().map((at) => at.toISOString());
  const out: TFilters[] = [{}];
  for (let i = 0; i < instants.length; i += 2) {
    for (let j = i; j < instants.length; j += 3) out.push({ from: instants[i], to: instants[j] });
    out.push({ from: instants[i] }, { to: instants[i] });
  }
  out.push(
    { from: '2024-05-07', to: '2024-05-09', zoneDates: true },
    { from: '2024-05-10', zoneDates: true },
  );
  return out;
}

async function expectAllExact(): Promise<number> {
  let checked = 0;
  const staff = [facilityIds[0] ?? '', facilityIds[1] ?? ''];
  for (const range of ranges()) {
    const variants: [keyof typeof tokens, TFilters, string[] | null][] = [
      ['admin', range, null],
      ['admin', { ...range, modalities: ['CT', 'MRI'] }, null],
      ['admin', { ...range, facilityIds: [facilityIds[2] ?? ''] }, null],
      ['radiologist', range, staff],
      ['radiologist', { ...range, modalities: ['XRAY'], facilityIds: [staff[1] ?? ''] }, staff],
      ['admin', { ...range, priorityTags: ['EMERGENCY', 'URGENT'] }, null],
      ['radiologist', { ...range, priorityTags: ['ONCO'], modalities: ['CT'] }, staff],
    ];
    for (const [who, filters, visible] of variants) {
      const expected = await countedDirectly(
        server.db,
        { organisationId, visible, assignees: null },
        filters,
      );
      const { statuses, total } = await viaApi(tokens[who], filters);
      const shown = who === 'admin' ? expected : { ...expected, DELETED: 0 };
      expect({ who, filters, statuses }).toEqual({ who, filters, statuses: shown });
      expect({ who, filters, total }).toEqual({
        who,
        filters,
        total: (expected.FINAL ?? 0) + (expected.TO_READ ?? 0),
      });
      checked += 1;
    }
  }
  return checked;
}

type TKeyCount = { key: string; count: number };

/** The rollup plus the deltas per key, and count(*) per key, for the test's organisation. */
async function rollupAgainstStudies(): Promise<{
  rollup: TKeyCount[];
  studies: TKeyCount[];
  organisation: TKeyCount[];
}> {
  const keyOf = sql.raw(`concat_ws('|', facility_id, day, status, modality_group, priority_tag)`);
  const orgKeyOf = sql.raw(`concat_ws('|', day, status, modality_group, priority_tag)`);
  const read = (query: ReturnType<typeof sql>) => queryRows<TKeyCount>(server.db, query);
  const facilityRows = await read(sql`select key, sum(count)::int as count from (
      select ${keyOf} as key, study_count as count from study_facility_day_counts where organisation_id = ${organisationId}::uuid
      union all select ${keyOf}, study_count from study_count_deltas where organisation_id = ${organisationId}::uuid
    ) k group by key having sum(count) <> 0 order by key`);
  const organisationRows = await read(sql`select key, sum(count)::int as count from (
      select ${orgKeyOf} as key, study_count as count from study_organisation_day_counts where organisation_id = ${organisationId}::uuid
      union all select ${orgKeyOf}, study_count from study_count_deltas where organisation_id = ${organisationId}::uuid
    ) k group by key having sum(count) <> 0 order by key`);
  const direct =
    await read(sql`select ${sql.raw(`concat_ws('|', facility_id, ris_count_day(created_at), status, modality_group, priority_tag)`)} as key,
      count(*)::int as count from studies where organisation_id = ${organisationId}::uuid group by 1 order by 1`);
  const directOrg =
    await read(sql`select ${sql.raw(`concat_ws('|', ris_count_day(created_at), status, modality_group, priority_tag)`)} as key,
      count(*)::int as count from studies where organisation_id = ${organisationId}::uuid group by 1 order by 1`);
  expect(organisationRows).toEqual(directOrg);
  return { rollup: facilityRows, studies: direct, organisation: organisationRows };
}

describe('worklist counts from the day rollup', () => {
  it('equal count(*) for every range, scope and filter, before and after compaction', async () => {
    expect(await expectAllExact()).toBeGreaterThan(100);
    await compactWorklistCounts(server.db);
    const [left] = await queryRows<{ n: number }>(
      server.db,
      sql`select count(*)::int as n from study_count_deltas where organisation_id = ${organisationId}::uuid`,
    );
    expect(left?.n).toBe(0);
    await expectAllExact();
    // About 2,000 requests and direct counts, one after the other: bounded in work, not in time.
  }, 60_000);

  it('stay exact under concurrent inserts, updates of every counted column, deletes and compactions', async () => {
    const next = random(42);
    const ids = await queryRows<{ id: string }>(
      server.db,
      sql`select id from studies where organisation_id = ${organisationId}::uuid order by id`,
    );
    const pool = ids.map((row) => row.id);
    const patients = await queryRows<{ id: string; facility_id: string }>(
      server.db,
      sql`select id, facility_id from patients where organisation_id = ${organisationId}::uuid`,
    );
    // Each writer runs transactions of two to four statements over random studies, in random order.
    const statement = () => {
      const id = pick(next, pool);
      const choice = Math.floor(next() * 7);
      if (choice === 0)
        return sql`update studies set status = ${pick(next, STUDY_STATUSES)} where id = ${id}::uuid`;
      if (choice === 1)
        return sql`update studies set modality_group = ${pick(next, MODALITIES)} where id = ${id}::uuid`;
      if (choice === 2)
        return sql`update studies set facility_id = ${pick(next, facilityIds)}::uuid where id = ${id}::uuid`;
      if (choice === 3) {
        return sql`update studies set created_at = created_at + ${Math.round((next() - 0.5) * 3 * DAY)} * interval '1 millisecond'
          where id = ${id}::uuid`;
      }
      if (choice === 4)
        return sql`update studies set priority_tag = ${pick(next, [...PRIORITY_TAGS, null])} where id = ${id}::uuid`;
      if (choice === 5) {
        return sql`update studies set status = 'FINAL', updated_at = now() where id = any(${`{${pick(next, pool)},${id}}`}::uuid[])`;
      }
      const patient = pick(next, patients);
      return sql`insert into studies (organisation_id, facility_id, patient_id, accession_number, status, modality_group, created_at)
        values (${organisationId}::uuid, ${patient?.facility_id}::uuid, ${patient?.id}::uuid, ${`R${next().toString(36).slice(2, 12)}`},
          ${pick(next, STUDY_STATUSES)}, ${pick(next, MODALITIES)}, ${new Date(NOW.getTime() - next() * 4 * DAY).toISOString()}::timestamptz)`;
    };
    // Two writers that update the same studies in opposite orders deadlock, and PostgreSQL rolls one
    // back (40P01): it left nothing behind, which the comparison below checks, and is run again.
    const deadlocked = (error: unknown): boolean =>
      error instanceof Error &&
      ((error as Error & { code?: unknown }).code === '40P01' || deadlocked(error.cause));
    const writer = async () => {
      for (let round = 0; round < 12; round += 1) {
        const statements = Array.from({ length: 2 + Math.floor(next() * 3) }, statement);
        for (let attempt = 1; ; attempt += 1) {
          try {
            await server.db.transaction(async (tx) => {
              for (const query of statements) await tx.execute(query);
            });
            break;
          } catch (error) {
            if (!deadlocked(error) || attempt === 5) throw error;
          }
        }
      }
    };
    const compactions = async () => {
      for (let round = 0; round < 6; round += 1) await compactWorklistCounts(server.db);
    };
    await Promise.all([writer(), writer(), writer(), writer(), compactions()]);
    // A deleted study leaves its keys too.
    await server.db.execute(
      sql`delete from studies where organisation_id = ${organisationId}::uuid and accession_number like 'R%'
        and id in (select id from studies where organisation_id = ${organisationId}::uuid and accession_number like 'R%' limit 3)`,
    );
    const before = await rollupAgainstStudies();
    expect(before.rollup).toEqual(before.studies);
    await compactWorklistCounts(server.db);
    const after = await rollupAgainstStudies();
    expect(after.rollup).toEqual(after.studies);
    // Key by key equal to count(*): every count the API reads from these keys is then exact (the
    // first test shows the reading itself).
  }, 60_000);
});
