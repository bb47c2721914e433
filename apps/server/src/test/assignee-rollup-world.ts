// Factory data of the assignee rollup's tests (features/worklist/list/worklist-assignee-rollup.routes.test.ts),
// at a fixed now: an organisation with three facilities, a reporter (f0, f1), a radiologist (f0, f2)
// and a colleague (f1, f2) as assignees, two studies at each instant around the last days' UTC
// midnights in every facility with random status, modality, priority and assignee (or none), and
// another organisation's studies carrying the same assignees. Also the writers' random study changes
// and the rollups read key by key against count(*).
import { MODALITIES, PRIORITY_TAGS, STUDY_STATUSES } from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../db/client.ts';
import { queryRows } from '../db/rows.ts';
import { buildFacility, buildOrganisation, buildPatient, buildStudy, buildUser } from './factories.ts';

export const NOW = new Date('2024-05-10T12:00:00Z');
export const DAY = 24 * 60 * 60 * 1000;

/** A small deterministic generator (mulberry32), so a failure replays. */
export function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
export const pick = <T>(next: () => number, values: readonly T[]): T =>
  values[Math.floor(next() * values.length)] as T;
/** A uuid[] literal. */
export const uuids = (ids: readonly string[]) => `{${ids.join(',')}}`;

/** Instants around the UTC midnights of the last four days and today: exactly on them and 1 ms off. */
export function boundaryInstants(): Date[] {
  const midnight = Math.floor(NOW.getTime() / DAY) * DAY;
  const instants: Date[] = [];
  for (let day = -4; day <= 0; day += 1) {
    for (const offset of [-1, 0, 1, 5 * 3600_000 + 1800_000, 13 * 3600_000]) {
      instants.push(new Date(midnight + day * DAY + offset));
    }
  }
  return instants.filter((at) => at <= NOW);
}

export type TAssigneeWorld = Awaited<ReturnType<typeof buildAssigneeWorld>>;

export async function buildAssigneeWorld(db: TDb) {
  const organisationId = (await buildOrganisation(db)).id;
  const facilities = await Promise.all([0, 1, 2].map(() => buildFacility(db, { organisationId })));
  const [f0, f1, f2] = facilities;
  if (!f0 || !f1 || !f2) throw new Error('no facilities');
  const users = {
    admin: await buildUser(db, { role: 'ADMIN', organisationId }),
    reporter: await buildUser(db, { facilities: [f0, f1], userType: 'REPORTER' }),
    radiologist: await buildUser(db, { facilities: [f0, f2] }),
    colleague: await buildUser(db, { facilities: [f1, f2] }),
  };
  const assignees = [users.reporter.id, users.radiologist.id, users.colleague.id, null];
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
          lastAssignedUserId: pick(next, assignees),
        });
      }
    }
  }
  // Another organisation's studies carrying the organisation's assignees (no API makes these; a
  // count that forgot the organisation would take them in).
  const foreign = await buildFacility(db);
  for (const createdAt of boundaryInstants()) {
    await buildStudy(db, { facility: foreign, createdAt, lastAssignedUserId: pick(next, assignees) });
  }
  return {
    organisationId,
    foreignOrganisationId: foreign.organisationId,
    facilityIds: facilities.map((facility) => facility.id),
    users,
    assignees,
  };
}

/**
 * A random change of one study (or two), of every kind that moves it between rollup keys: assigned,
 * reassigned, unassigned, a status, a day, a facility, modality and priority, deleted, or a new study.
 */
export async function studyChanges(db: TDb, world: TAssigneeWorld, next: () => number): Promise<() => SQL> {
  const pool = (await queryRows<{ id: string }>(db, sql`select id from studies order by id`)).map(
    (row) => row.id,
  );
  const patients = await queryRows<{ id: string; organisation_id: string; facility_id: string }>(
    db,
    sql`select id, organisation_id, facility_id from patients order by id`,
  );
  return () => {
    const id = pick(next, pool);
    const choice = Math.floor(next() * 10);
    const assignee = pick(next, world.assignees);
    if (choice === 0) {
      return sql`update studies set last_assigned_user_id = ${assignee}::uuid, status = 'ASSIGNED' where id = ${id}::uuid`;
    }
    if (choice === 1) {
      return sql`update studies set last_assigned_user_id = ${assignee}::uuid where id = ${id}::uuid`;
    }
    if (choice === 2) return sql`update studies set last_assigned_user_id = null where id = ${id}::uuid`;
    if (choice === 3) {
      return sql`update studies set status = ${pick(next, STUDY_STATUSES)} where id = ${id}::uuid`;
    }
    if (choice === 4) {
      return sql`update studies set created_at = created_at + ${Math.round((next() - 0.5) * 3 * DAY)} * interval '1 millisecond'
        where id = ${id}::uuid`;
    }
    if (choice === 5) {
      return sql`update studies set facility_id = ${pick(next, world.facilityIds)}::uuid
        where id = ${id}::uuid and organisation_id = ${world.organisationId}::uuid`;
    }
    if (choice === 6) {
      return sql`update studies set modality_group = ${pick(next, MODALITIES)},
          priority_tag = ${pick(next, [...PRIORITY_TAGS, null])}
        where id = ${id}::uuid`;
    }
    if (choice === 7) {
      // Two studies to one assignee in one statement (either may have it already).
      return sql`update studies set last_assigned_user_id = ${assignee}::uuid, updated_at = now()
        where id = any(${uuids([pick(next, pool), id])}::uuid[])`;
    }
    if (choice === 8) return sql`delete from studies where id = ${id}::uuid`;
    const patient = pick(next, patients);
    return sql`insert into studies (organisation_id, facility_id, patient_id, accession_number, status,
        modality_group, last_assigned_user_id, created_at)
      values (${patient?.organisation_id}::uuid, ${patient?.facility_id}::uuid, ${patient?.id}::uuid,
        ${`R${next().toString(36).slice(2, 12)}`}, ${pick(next, STUDY_STATUSES)}, ${pick(next, MODALITIES)},
        ${assignee}::uuid, ${new Date(NOW.getTime() - next() * 4 * DAY).toISOString()}::timestamptz)`;
  };
}

type TKeyCount = { key: string; count: number };

/**
 * Each rollup plus its deltas per key, and count(*) per key over `studies`, for every organisation:
 * `assignee` must equal `assigned`, `facility` must equal `studies`.
 */
export async function rollupsAgainstStudies(db: TDb) {
  const read = (query: SQL) => queryRows<TKeyCount>(db, query);
  const summed = (key: string, rollup: string, deltas: string) =>
    read(sql`select key, sum(count)::int as count from (
        select ${sql.raw(key)} as key, study_count as count from ${sql.raw(rollup)}
        union all select ${sql.raw(key)}, study_count from ${sql.raw(deltas)}
      ) k group by key having sum(count) <> 0 order by key`);
  const counted = (key: string, where: string) =>
    read(
      sql`select ${sql.raw(key)} as key, count(*)::int as count from studies ${sql.raw(where)} group by 1 order by 1`,
    );
  const assigneeKey = (day: string) =>
    `concat_ws('|', organisation_id, last_assigned_user_id, facility_id, ${day}, status, modality_group, priority_tag)`;
  const facilityKey = (day: string) =>
    `concat_ws('|', organisation_id, facility_id, ${day}, status, modality_group, priority_tag)`;
  return {
    assignee: await summed(assigneeKey('day'), 'study_assignee_day_counts', 'study_assignee_count_deltas'),
    assigned: await counted(
      assigneeKey('ris_count_day(created_at)'),
      'where last_assigned_user_id is not null',
    ),
    facility: await summed(facilityKey('day'), 'study_facility_day_counts', 'study_count_deltas'),
    studies: await counted(facilityKey('ris_count_day(created_at)'), ''),
  };
}
