// Generator of the worklist benchmark's data: one organisation, 100 facilities, 40 radiologists,
// 200,000 patients and N studies over the last 90 days, all server-side (INSERT … SELECT over
// generate_series), studies in created_at order. The studies' secondary indexes are dropped for the
// load and rebuilt after it.
import { sql } from 'drizzle-orm';
import type { TDb } from '../db/client.ts';
import { queryRows } from '../db/rows.ts';
import { loadTurnaroundTargets, overdueSql } from '../features/home/turnaround-targets.ts';

export const FACILITY_COUNT = 100;
export const RADIOLOGIST_COUNT = 40;
const PATIENT_COUNT = 200_000;
/** Masks that make a hash (hashint4, hashint8) non-negative, for modulo. */
const MAX_INT = sql.raw('2147483647');
const MAX_BIGINT = sql.raw('9223372036854775807');
/**
 * Added to a number before hashint8 to draw a second hash of it: hashint8 of a value in int4's range
 * equals hashint4 of it (PostgreSQL hashes the two alike for cross-type joins), so hashint4(g) and
 * hashint8(g) are one draw. They were: a patient's first name followed their surname (80 names for
 * 200,000 patients, each name on 12,500 studies in one block of the name order), and a study's series
 * count, image count and referrer followed its patient.
 */
const HASH_APART = sql.raw('4294967296');

const FIRST_NAMES = [
  'José',
  'María',
  'François',
  'Zoë',
  'Jürgen',
  'Ana',
  'Luis',
  'Émilie',
  'Søren',
  'Chloé',
  'Ahmed',
  'Priya',
  'Wei',
  'Olga',
  'Renée',
  'Nuño',
  'Åsa',
  'Björn',
  'Inés',
  'Raúl',
  'Ravi',
  'Anjali',
  'John',
  'Mary',
  'Peter',
  'Sofía',
  'Łukasz',
  'Małgorzata',
  'Ioana',
  'Dmitri',
  'Yuki',
  'Hana',
  'Omar',
  'Fatma',
  'Kemal',
  'Noémie',
  'Hélène',
  'Ádám',
  'Zsófia',
  'Tomás',
];
const LAST_NAMES = [
  'García',
  'Fernández',
  'González',
  'Rodríguez',
  'López',
  'Martínez',
  'Sánchez',
  'Pérez',
  'Müller',
  'Schröder',
  'Dupont',
  'Lefèvre',
  'Nowak',
  'Kowalski',
  'Smith',
  'Johnson',
  'Patel',
  'Sharma',
  'Kumar',
  'Singh',
  'Nguyen',
  'Tran',
  'Kim',
  'Lee',
  'Ødegaard',
  'Çelik',
  'Yılmaz',
  'Öztürk',
  'Silva',
  'Santos',
  'Costa',
  'Rossi',
  'Bianchi',
  'Ferrari',
  'Novák',
  'Dvořák',
  'Horváth',
  'Nagy',
  'Andersson',
  'Johansson',
  'Hansen',
  'Jensen',
  'Brown',
  'Wilson',
  'Taylor',
  'Moreau',
  'Girard',
  'Bernard',
  'Fischer',
  'Weber',
  'Wagner',
  'Becker',
  'Hoffmann',
  'Schäfer',
  'Ivanov',
  'Popescu',
  'Papadopoulos',
  'Nakamura',
  'Tanaka',
  'Sato',
  'Chen',
  'Wang',
  'Zhang',
  'Liu',
  'Yang',
  'Huang',
  'Zhao',
  'Wu',
  'Zhou',
  'Xu',
  'Sun',
  'Ma',
  'Hu',
  'Guo',
  'He',
  'Lin',
  'Luo',
  'Gao',
  'Reddy',
  'Iyer',
];

const arrayLiteral = (values: readonly string[]) =>
  sql.raw(`array[${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(',')}]`);

export type TBenchIds = {
  organisationId: string;
  adminId: string;
  /** Works at 5 facilities. */
  radiologistId: string;
  /** A radiologist typed REPORTER, at 10 facilities. */
  reporterId: string;
};

async function one<T>(db: TDb, query: ReturnType<typeof sql>): Promise<T> {
  const [row] = await queryRows<T>(db, query);
  if (!row) throw new Error('no row');
  return row;
}

/** Loads the data; returns the ids the measurements sign in as. */
export async function generateWorklistData(db: TDb, studyCount: number): Promise<TBenchIds> {
  const { id: organisationId } = await one<{ id: string }>(
    db,
    sql`insert into organisations (name, slug) values ('Bench', 'bench') returning id`,
  );
  await db.execute(sql`
    insert into facilities (organisation_id, name, code)
    select ${organisationId}, 'Facility ' || f, 'F' || lpad(f::text, 3, '0') from generate_series(1, ${FACILITY_COUNT}) f`);
  await db.execute(sql`create temp table bench_facilities as
    select row_number() over (order by code) as n, id from facilities where organisation_id = ${organisationId}`);
  const user = (email: string, role: string, name: string) => sql`
    insert into users (email, role, organisation_id, first_name, last_name, display_name)
    values (${email}, ${role}, ${organisationId}, 'Bench', ${name}, ${name}) returning id`;
  const { id: adminId } = await one<{ id: string }>(db, user('admin@bench.test', 'ADMIN', 'Admin'));
  await db.execute(sql`
    insert into users (email, role, organisation_id, first_name, last_name, display_name)
    select 'rad' || r || '@bench.test', 'RADIOLOGIST', ${organisationId}, 'Dr', 'Rad ' || r, 'Dr Rad ' || r
    from generate_series(1, ${RADIOLOGIST_COUNT}) r`);
  await db.execute(sql`create temp table bench_rads as
    select row_number() over (order by email) - 1 as n, id from users
    where organisation_id = ${organisationId} and role = 'RADIOLOGIST'`);
  await db.execute(sql`insert into radiologist_details (user_id, user_type)
    select id, case when n = 1 then 'REPORTER'::radiologist_user_type else 'RADIOLOGIST' end from bench_rads`);
  // Radiologist k works at 10 facilities (k*10 .. k*10+9 modulo 100); rad 0 only at 5 of them.
  await db.execute(sql`insert into user_facilities (user_id, facility_id)
    select r.id, f.id from bench_rads r join bench_facilities f
      on (f.n - 1) between (r.n * 10) % 100 and (r.n * 10) % 100 + (case when r.n = 0 then 4 else 9 end)`);
  const rad = (n: number) => one<{ id: string }>(db, sql`select id from bench_rads where n = ${n}`);
  const radiologistId = (await rad(0)).id;
  const reporterId = (await rad(1)).id;

  await db.execute(sql`
    insert into patients (organisation_id, facility_id, patient_identifier, name, sex, birth_date)
    select ${organisationId}, f.id, 'MRN' || lpad(p::text, 7, '0'),
      (${arrayLiteral(LAST_NAMES)})[1 + (hashint8(p) & ${MAX_BIGINT}) % ${LAST_NAMES.length}] || ' ' ||
      (${arrayLiteral(FIRST_NAMES)})[1 + (hashint8(p + ${HASH_APART}) & ${MAX_BIGINT}) % ${FIRST_NAMES.length}],
      case when p % 2 = 0 then 'F' else 'M' end, date '1940-01-01' + ((p * 37) % 30000)::int
    from generate_series(1::bigint, ${PATIENT_COUNT}) p
    join bench_facilities f on f.n = 1 + (hashint4(-p::int) & ${MAX_INT}) % ${FACILITY_COUNT}`);
  await db.execute(sql`create temp table bench_patients as
    select row_number() over (order by p.patient_identifier) as n, p.id, p.facility_id, f.n as facility_n,
      p.name, p.patient_identifier, p.sex, p.birth_date
    from patients p join bench_facilities f on f.id = p.facility_id where p.organisation_id = ${organisationId}`);
  await db.execute(sql`alter table bench_patients add primary key (n)`);

  // Drop the studies' secondary indexes for the load, rebuild them after it.
  const indexes = await queryRows<{ name: string; definition: string }>(
    db,
    sql`select indexname as name, indexdef as definition from pg_indexes
        where tablename = 'studies' and indexname <> 'studies_pkey'`,
  );
  for (const index of indexes) await db.execute(sql.raw(`drop index "${index.name}"`));
  await db.execute(sql`
    insert into studies (organisation_id, facility_id, patient_id, study_uid, accession_number,
      patient_name, patient_identifier, patient_sex, patient_birth_date, modality, modality_group,
      study_description, study_datetime, series_count, instance_count, status, priority_tag,
      last_assigned_user_id, assigned_at, referring_physician_name, created_at, updated_at)
    select ${organisationId}, p.facility_id, p.id, '1.2.826.0.1.3680043.8.498.' || s.g, 'A' || lpad(s.g::text, 9, '0'),
      p.name, p.patient_identifier, p.sex, p.birth_date, s.modality, s.modality_group::modality_group,
      s.description, s.created_at - interval '20 minutes', 1 + s.h3 % 6, 20 + (s.h3 / 6) % 400,
      s.status::study_status,
      case when s.h2 % 20 = 0 then (array['URGENT','ROUTINE','EMERGENCY','FOLLOW_UP'])[1 + (s.h2 / 20) % 4]::priority_tag end,
      case when s.status in ('ASSIGNED','IN_REVIEW','DRAFTED','FINAL') then r.id end,
      case when s.status in ('ASSIGNED','IN_REVIEW','DRAFTED','FINAL') then s.created_at + interval '1 hour' end,
      'Dr Referrer ' || (s.h3 / 2400) % 300, s.created_at, s.created_at
    from (
      select g, h1, h2, h3, created_at, age_days, r_status, m.*
      from (
        -- each attribute drawn from its own hash of the study's number, so that none follows another
        -- (patient, assignee, priority, series): a study's number modulo small numbers made them
        -- correlate (no series count of 6 for a reporter, every priority tag for 10 radiologists)
        select g, hashint4(g) & ${MAX_INT} as h1, hashint4(-g) & ${MAX_INT} as h2,
          hashint8(g + ${HASH_APART}) & ${MAX_BIGINT} as h3, now() - (1 - g::float8 / ${studyCount}) * interval '90 days' as created_at,
          90 * (1 - g::float8 / ${studyCount}) as age_days, random() as r_status, random() as r_modality
        from generate_series(1, ${studyCount}) g
      ) base
      cross join lateral (
        select
          case when r_modality < 0.35 then (case when g % 2 = 0 then 'XRAY' else 'X-RAY' end)
               when r_modality < 0.55 then 'USG'
               when r_modality < 0.80 then (case when g % 3 = 0 then 'CT,SR' else 'CT' end)
               when r_modality < 0.95 then (case when g % 3 = 0 then 'MR,SR' else 'MR' end)
               else 'NM' end as modality,
          case when r_modality < 0.35 then 'XRAY' when r_modality < 0.55 then 'USG'
               when r_modality < 0.80 then 'CT' when r_modality < 0.95 then 'MRI' else 'NM' end as modality_group,
          case when r_modality < 0.35 then 'X-Ray Chest PA' when r_modality < 0.55 then 'USG Abdomen and Pelvis'
               when r_modality < 0.80 then 'CT Brain Plain' when r_modality < 0.95 then 'MRI Lumbar Spine'
               else 'NM Bone Scan' end as description,
          case when age_days < 2 then
                 case when r_status < 0.15 then 'ORDERED' when r_status < 0.45 then 'TO_READ'
                      when r_status < 0.65 then 'ASSIGNED' when r_status < 0.75 then 'IN_REVIEW'
                      when r_status < 0.85 then 'DRAFTED' when r_status < 0.99 then 'FINAL' else 'DELETED' end
               else
                 case when r_status < 0.01 then 'ORDERED' when r_status < 0.02 then 'TO_READ'
                      when r_status < 0.03 then 'ASSIGNED' when r_status < 0.04 then 'DRAFTED'
                      when r_status < 0.98 then 'FINAL' else 'DELETED' end
          end as status
      ) m
    ) s
    join bench_patients p on p.n = 1 + s.h1 % ${PATIENT_COUNT}
    -- assigned to one of the 4 radiologists working at the study's facility
    join bench_rads r on r.n = (p.facility_n - 1) / 10 + 10 * ((s.h2 / 80) % 4)
    -- in arrival order, as a live table fills (the hash joins above scatter each day's studies over
    -- the whole heap: an index-only count of today's 6,300 studies then touched 3,179 buffers, 55 now)
    order by s.g`);
  await db.execute(sql`set maintenance_work_mem = '256MB'`);
  for (const index of indexes) await db.execute(sql.raw(index.definition));
  await db.execute(sql`vacuum (analyze) studies`);
  await db.execute(sql`analyze`);
  return { organisationId, adminId, radiologistId, reporterId };
}

/** The ids of a database loaded by an earlier run (BENCH_REUSE_DB=1), found as generateWorklistData names them. */
export async function loadedBenchIds(db: TDb): Promise<TBenchIds> {
  const { id: organisationId } = await one<{ id: string }>(
    db,
    sql`select id from organisations where slug = 'bench'`,
  );
  const { id: adminId } = await one<{ id: string }>(
    db,
    sql`select id from users where email = 'admin@bench.test'`,
  );
  const rad = (n: number) =>
    one<{ id: string }>(
      db,
      sql`select id from users where organisation_id = ${organisationId} and role = 'RADIOLOGIST'
          order by email offset ${n} limit 1`,
    );
  return { organisationId, adminId, radiologistId: (await rad(0)).id, reporterId: (await rad(1)).id };
}

/**
 * Marks every study already past its turnaround target as notified, as a server that has been running
 * has them. A freshly loaded archive (or one reused after days) holds tens of thousands of breaches
 * nobody was told about: the app's breach job works through them 500 a pass, each pass a 1 s update of
 * 500 rows and every index of `studies`, at each start and every minute, in the bench server and the
 * bench's own app, which landed in the measured requests' tail. Returns how many were marked.
 */
export async function markPastTurnaroundBreaches(db: TDb, now: Date): Promise<number> {
  const organisations = await queryRows<{ id: string }>(db, sql`select id from organisations`);
  let marked = 0;
  for (const { id } of organisations) {
    const { targets } = await loadTurnaroundTargets(db, id);
    const rows = await queryRows<{ n: number }>(
      db,
      sql`with m as (update studies set turnaround_breach_notified_at = ${now.toISOString()}::timestamptz
          where "studies"."organisation_id" = ${id}::uuid and "studies"."turnaround_breach_notified_at" is null
            and ${overdueSql(targets, now)} returning 1)
        select count(*)::int as n from m`,
    );
    marked += rows[0]?.n ?? 0;
  }
  return marked;
}
