// The worklist sorted by a column header other than arrival (patient name, study date, last update,
// modality, patient id, study, status, priority, series count). Past COLLECT_AT_MOST matches a page
// is the first entries of the column's sort index (migrations 0034, 0036) when they hold it; else,
// and below, collected and sorted. Study date and last update oldest first from a range's start, or newest first into a range that ended
// long ago, is collected whatever the total (collectsArrivalLike). Every form must give exactly the
// page ORDER BY … LIMIT … OFFSET gives, ties (and nulls: first descending, last ascending) broken by
// id, and nothing past the end; and the sort indexes must hold every filter a page is walked with.
import type { TWorklistListResponse, TWorklistSortField } from '@ris/domain';
import { sql, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/rows.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildPatient, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { worklistCountCacheOf } from './worklist-list.routes.ts';

/** Half in each facility: more than COLLECT_AT_MOST (2,000) in each. */
const STUDIES = 4_200;
const NOW = new Date('2024-05-10T12:00:00Z');
let server: TTestServer;
let organisationId = '';
let facilityIds: string[] = [];
let otherOrganisationId = '';
const tokens = { admin: '', staff: '', radiologist: '', reporter: '' };
let reporterId = '';

/** The oracle's column for each sort field tested here. */
const COLUMNS = {
  patient_name: 'patient_name',
  datetime: 'study_datetime',
  updated_at: 'updated_at',
  modality: 'modality',
  patient_id: 'patient_identifier',
  study: 'study_description',
  status: 'status',
  priority_tag: 'priority_tag',
  series_count: 'series_count',
} satisfies Partial<Record<TWorklistSortField, string>>;
type TField = keyof typeof COLUMNS;
type TWithId = { id: string };

/**
 * 4,200 studies over two facilities: few distinct values per column (ties), some nulls (modality,
 * study, priority), patient ids by facility (A-… in the first, B-… in the second: one facility's lie
 * together in that order), last updates out of arrival order (every ninth updated days after it
 * arrived, every thirteenth an hour before: a clock behind PostgreSQL's).
 */
async function seed(organisation: string, facilities: TWithId[], patients: TWithId[], prefix: string) {
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, patient_identifier, modality, study_description, series_count, status, modality_group,
      priority_tag, last_assigned_user_id, created_at, updated_at, study_datetime)
    select ${organisation}::uuid, (array[${facilities[0]?.id}::uuid, ${facilities[1]?.id}::uuid])[1 + g % 2],
      (array[${patients[0]?.id}::uuid, ${patients[1]?.id}::uuid])[1 + g % 2], ${prefix} || g,
      'Patient ' || (g % 37), (array['A-', 'B-'])[1 + g % 2] || lpad((g % 97)::text, 3, '0'),
      (array['CT', 'MR', 'CR', null, 'US'])[1 + g % 5], (array['Chest', null, 'Brain'])[1 + g % 3],
      g % 6, (array['TO_READ','ASSIGNED','FINAL','ORDERED','DRAFTED']::study_status[])[1 + g % 5],
      (array['CT','MRI','XRAY']::modality_group[])[1 + g % 3],
      (array['URGENT','EMERGENCY',null,null,null,null,null]::priority_tag[])[1 + g % 7],
      case when g % 4 = 0 then ${reporterId}::uuid end,
      ${NOW.toISOString()}::timestamptz - ((g - g % 3) * interval '7 minutes'),
      ${NOW.toISOString()}::timestamptz - ((g - g % 3) * interval '7 minutes')
        + case when g % 9 = 0 then interval '3 days' when g % 13 = 0 then interval '-1 hour' else interval '0' end,
      case when g % 10 <> 0 then ${NOW.toISOString()}::timestamptz - ((g - g % 3) * interval '7 minutes')
        - (g % 7) * interval '90 minutes' end
    from generate_series(1, ${STUDIES}) g`);
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const cache = worklistCountCacheOf(server.app.deps);
  if (cache) cache.enabled = false;
  const db = server.db;
  organisationId = (await buildOrganisation(db)).id;
  const facilities = await Promise.all([1, 2].map(() => buildFacility(db, { organisationId })));
  facilityIds = facilities.map((facility) => facility.id);
  tokens.admin = await tokenFor(server, await buildUser(db, { role: 'ADMIN', organisationId }));
  tokens.staff = await tokenFor(server, await buildUser(db, { role: 'RADIOLOGIST', facilities }));
  tokens.radiologist = await tokenFor(
    server,
    await buildUser(db, { role: 'RADIOLOGIST', facilities: facilities.slice(0, 1) }),
  );
  const reporter = await buildUser(db, {
    role: 'RADIOLOGIST',
    userType: 'REPORTER',
    facilities: facilities.slice(0, 1),
  });
  reporterId = reporter.id;
  tokens.reporter = await tokenFor(server, reporter);
  const patients = await Promise.all(facilities.map((facility) => buildPatient(db, { facility })));
  await seedingStudies(db, async () => {
    await seed(organisationId, facilities, patients, 'CS');
    // Another organisation's studies interleave in every sort order; none may show.
    otherOrganisationId = (await buildOrganisation(db)).id;
    const others = await Promise.all(
      [1, 2].map(() => buildFacility(db, { organisationId: otherOrganisationId })),
    );
    const otherPatients = await Promise.all(others.map((facility) => buildPatient(db, { facility })));
    await seed(otherOrganisationId, others, otherPatients, 'XO');
  });
});

afterAll(async () => server.close());

type TCase = { who: keyof typeof tokens; query: string; where: ReturnType<typeof sql> };

async function expectedIds(test: TCase, field: TField, direction: 'asc' | 'desc') {
  const rows = await queryRows<{ id: string }>(
    server.db,
    sql`select id from studies where organisation_id = ${organisationId}::uuid and status <> 'DELETED' and ${test.where}
      order by ${sql.raw(`${COLUMNS[field]} ${direction}, id ${direction}`)}`,
  );
  return rows.map((row) => row.id);
}

async function listed(test: TCase, field: TField, direction: string, offset: number) {
  const response = await server.request(
    'GET',
    `/api/v1/worklist?date_range_type=CUSTOM&limit=25&offset=${offset}&sort_by=${field}&sort_order=${direction}&${test.query}`,
    { token: tokens[test.who] },
  );
  expect(response.status, response.text).toBe(200);
  return response.json as TWorklistListResponse;
}

const cases = (): TCase[] => [
  // Past COLLECT_AT_MOST: the sort index's prefix holds the page (4,200; 4,200 within staff's two
  // facilities; 2,100 in one facility, whose patient ids come first ascending and last descending:
  // there the prefix runs out and the page is collected).
  { who: 'admin', query: '', where: sql`true` },
  { who: 'staff', query: '', where: sql`true` },
  { who: 'radiologist', query: '', where: sql`facility_id = ${facilityIds[0]}::uuid` },
  // Filters checked on the prefix: a range and a status tab (~2,180), modality groups (~2,800).
  {
    who: 'admin',
    query:
      'start_date=2024-04-24T00:00:00Z&statuses=TO_READ&statuses=FINAL&statuses=ASSIGNED&statuses=DRAFTED',
    where: sql`created_at >= '2024-04-24T00:00:00Z' and status in ('TO_READ', 'FINAL', 'ASSIGNED', 'DRAFTED')`,
  },
  {
    who: 'staff',
    query: 'modalities=CT&modalities=XRAY',
    where: sql`modality_group in ('CT', 'XRAY')`,
  },
  // Fewer (collected): an assignee, a facility's priority.
  {
    who: 'reporter',
    query: '',
    where: sql`facility_id = ${facilityIds[0]}::uuid and last_assigned_user_id = ${reporterId}::uuid`,
  },
  {
    who: 'admin',
    query: `facility_ids=${facilityIds[1]}&priority_tags=URGENT`,
    where: sql`facility_id = ${facilityIds[1]}::uuid and priority_tag = 'URGENT'`,
  },
];

describe('a worklist sorted by another column header', () => {
  it.each(Object.keys(COLUMNS) as TField[])(
    'gives the pages ORDER BY %s gives, both ways, up to and past the end',
    async (field) => {
      for (const test of cases()) {
        for (const direction of ['asc', 'desc'] as const) {
          const all = await expectedIds(test, field, direction);
          const lastPage = Math.max(0, Math.floor((all.length - 1) / 25) * 25);
          for (const offset of [...new Set([0, 25, 1000, lastPage, all.length + 25])]) {
            const page = await listed(test, field, direction, offset);
            const label = { who: test.who, query: test.query, direction, offset };
            expect({ ...label, total: page.total, ids: page.items.map((item) => item.id) }).toEqual({
              ...label,
              total: all.length,
              ids: all.slice(offset, offset + 25),
            });
          }
        }
      }
    },
  );

  it('gives last updates in order across a range’s edges, collected or walked', async () => {
    // Oldest first from a start (collected), newest first into a range that ended days ago
    // (collected), newest first into a range ending after now (walked).
    const ranged: [TCase, 'asc' | 'desc'][] = [
      [
        {
          who: 'admin',
          query: 'start_date=2024-04-30T00:00:00Z',
          where: sql`created_at >= '2024-04-30T00:00:00Z'`,
        },
        'asc',
      ],
      [
        {
          who: 'staff',
          query: 'end_date=2024-05-09T06:00:00Z',
          where: sql`created_at <= '2024-05-09T06:00:00Z'`,
        },
        'desc',
      ],
      [
        {
          who: 'admin',
          query: 'start_date=2024-04-28T00:00:00Z&end_date=2100-01-01T00:00:00Z',
          where: sql`created_at >= '2024-04-28T00:00:00Z'`,
        },
        'desc',
      ],
    ];
    for (const [test, direction] of ranged) {
      const all = await expectedIds(test, 'updated_at', direction);
      expect(all.length).toBeGreaterThan(2_000);
      for (const offset of [0, 50, all.length - 5]) {
        const page = await listed(test, 'updated_at', direction, offset);
        expect({ query: test.query, offset, ids: page.items.map((item) => item.id) }).toEqual({
          query: test.query,
          offset,
          ids: all.slice(offset, offset + 25),
        });
      }
    }
  });

  it('gives an admin’s study dates and last updates across a range of arrival, a day at a time', async () => {
    // Priors: studies arriving within the range that were performed years before (a PACS import of
    // an old study), and one performed after it arrived; all last updated now, long after they
    // arrived (the clock of the database); the range's edges fall within days.
    await server.db
      .execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
        patient_name, status, modality_group, created_at, study_datetime)
      select ${organisationId}::uuid, s.facility_id, s.patient_id, 'CS-PRIOR' || g, 'Prior ' || g, s.status,
        s.modality_group, ${NOW.toISOString()}::timestamptz - g * interval '5 hours 7 minutes',
        case when g % 5 = 0 then ${NOW.toISOString()}::timestamptz + interval '1 day'
          else timestamptz '2010-01-01' + (g % 4) * interval '300 days' end
      from generate_series(1, 60) g
      cross join lateral (select facility_id, patient_id, status, modality_group from studies
        where organisation_id = ${organisationId}::uuid offset g limit 1) s`);
    try {
      const range = `created_at >= '2024-04-28T05:30:00Z' and created_at <= '2024-05-06T17:45:00Z'`;
      const dates = 'start_date=2024-04-28T05:30:00Z&end_date=2024-05-06T17:45:00Z';
      const ranged: [TCase, 'asc' | 'desc'][] = [
        [{ who: 'admin', query: dates, where: sql.raw(range) }, 'asc'],
        [{ who: 'admin', query: dates, where: sql.raw(range) }, 'desc'],
        [
          {
            who: 'admin',
            query: `${dates}&statuses=TO_READ&statuses=ASSIGNED&modalities=CT&modalities=XRAY`,
            where: sql.raw(
              `${range} and status in ('TO_READ', 'ASSIGNED') and modality_group in ('CT', 'XRAY')`,
            ),
          },
          'asc',
        ],
        // Open at an end: walked from the organisation's first arrival, or to its last.
        [
          {
            who: 'admin',
            query: 'end_date=2024-05-06T17:45:00Z',
            where: sql.raw(range.split(' and ')[1] ?? ''),
          },
          'desc',
        ],
        [
          {
            who: 'admin',
            query: 'start_date=2024-04-28T05:30:00Z',
            where: sql.raw(range.split(' and ')[0] ?? ''),
          },
          'asc',
        ],
      ];
      for (const [[test, direction], field] of ranged.flatMap((one) =>
        (['datetime', 'updated_at'] as const).map((field) => [one, field] as const),
      )) {
        const all = await expectedIds(test, field, direction);
        expect(all.length).toBeGreaterThan(100);
        const lastPage = Math.floor((all.length - 1) / 25) * 25;
        for (const offset of [...new Set([0, 25, 50, Math.min(1_000, lastPage), lastPage, all.length])]) {
          const page = await listed(test, field, direction, offset);
          expect({
            query: test.query,
            field,
            direction,
            offset,
            total: page.total,
            ids: page.items.map((item) => item.id),
          }).toEqual({
            query: test.query,
            field,
            direction,
            offset,
            total: all.length,
            ids: all.slice(offset, offset + 25),
          });
        }
      }
    } finally {
      await server.db.execute(sql`delete from studies where accession_number like 'CS-PRIOR%'`);
    }
  });
});

describe('a search without trigram keys sorted by a column, past the cap', () => {
  /** The first pages of a keyless search sorted by a column: ORDER BY's, the total capped. */
  async function expectPages(text: string, field: TField, direction: 'asc' | 'desc') {
    const rows = await queryRows<{ id: string }>(
      server.db,
      sql`select id from studies where organisation_id = ${organisationId}::uuid and status <> 'DELETED'
        and strpos(search_text, lower(ris_unaccent(${text}))) > 0
        order by ${sql.raw(`${COLUMNS[field]} ${direction}, id ${direction}`)}`,
    );
    const all = rows.map((row) => row.id);
    expect(all.length).toBeGreaterThan(1_000);
    for (const offset of [0, 25, 1_000]) {
      const page = await listed(
        { who: 'admin', query: `search=${encodeURIComponent(text)}`, where: sql`true` },
        field,
        direction,
        offset,
      );
      const label = { text, field, direction, offset };
      expect({ ...label, ids: page.items.map((item) => item.id), capped: page.total_capped }).toEqual({
        ...label,
        ids: all.slice(offset, offset + 25),
        capped: true,
      });
    }
  }

  it('reads every match once where PostgreSQL expects few (by their pairs of characters)', async () => {
    // "ch" is in every third study ("Chest"): 1,400, past the cap, estimated below FEW_KEYLESS_MATCHES
    // from the pair index's statistics.
    await server.db.execute(sql`analyze studies`);
    await expectPages('ch', 'patient_name', 'asc');
    await expectPages('ch', 'series_count', 'desc');
  });

  it('gives the pages ORDER BY gives, walked where the first entries hold them and collected where not', async () => {
    // "a" is in every name ("Patient …"): the sort index's first entries hold any page. "t 1" is in
    // "Patient 1" and "Patient 10"-"Patient 19" (about 1,250 studies, past the cap of 1,000): first
    // by name ascending (walked), behind 2,700 other names descending (collected).
    for (const [text, field, direction] of [
      ['a', 'study', 'desc'],
      ['a', 'patient_name', 'asc'],
      ['t 1', 'patient_name', 'asc'],
      ['t 1', 'patient_name', 'desc'],
      ['t 1', 'series_count', 'asc'],
    ] as const) {
      await expectPages(text, field, direction);
    }
  });
});

describe('the column sort indexes', () => {
  it('take a study whose texts are as long as an order or a PACS import allows, in 4-byte characters', async () => {
    // Orders cap a name and a study at 200 characters, an MRN at 64, a modality at 32; the PACS
    // import a DICOM text at 256. A btree entry holds at most 2,704 bytes.
    const [patient] = await queryRows<{ id: string }>(
      server.db,
      sql`select id from patients where facility_id = ${facilityIds[0]}::uuid limit 1`,
    );
    await server.db
      .execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
        patient_name, patient_identifier, modality, study_description, status, created_at)
      values (${organisationId}::uuid, ${facilityIds[0]}::uuid, ${patient?.id}::uuid, 'CS-LONG',
        repeat('𝔄', 256), repeat('𝔅', 64), repeat('𝔇', 32), repeat('𝔈', 256), 'ASSIGNED', ${NOW.toISOString()}::timestamptz)`);
    const page = await listed(
      { who: 'admin', query: 'search=CS-LONG', where: sql`true` },
      'study',
      'desc',
      0,
    );
    expect(page.items.map((item) => item.study)).toEqual(['𝔈'.repeat(256)]);
    await server.db.execute(sql`delete from studies where accession_number = 'CS-LONG'`);
  });

  /** The plan of a page walked in `column` order, with sorting and sequential scans priced out. */
  async function plan(column: string, where: ReturnType<typeof sql>): Promise<string> {
    let text = '';
    await server.db
      .transaction(async (tx) => {
        await tx.execute(sql`set local enable_sort = off`);
        await tx.execute(sql`set local enable_seqscan = off`);
        await tx.execute(sql`set local enable_bitmapscan = off`);
        const rows = await queryRows<{ 'QUERY PLAN': string }>(
          tx,
          sql`explain select id from studies where organisation_id = ${organisationId}::uuid and ${where}
            order by ${sql.raw(`${column} desc, id desc`)} limit 25`,
        );
        text = rows.map((row) => row['QUERY PLAN']).join('\n');
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    return text;
  }

  it('walk each day of arrival in study date or last update order, every filter checked on the index alone', async () => {
    const filters = sql`ris_arrival_day(created_at) = ris_arrival_day('2024-05-03T00:00:00Z')
      and facility_id in (${facilityIds[0]}::uuid, ${facilityIds[1]}::uuid)
      and created_at >= '2024-05-03T06:00:00Z' and status in ('TO_READ', 'FINAL') and modality_group = 'CT'`;
    for (const column of ['study_datetime', 'updated_at']) {
      const text = await plan(column, filters);
      expect(text.split('\n')[1]?.trim().split(' on ')[0]).toBe(
        `->  Index Only Scan Backward using studies_organisation_arrival_day_${column}_idx`,
      );
    }
  });

  it('walk each column’s order within the organisation, every filter checked on the index alone', async () => {
    const filters = sql`facility_id in (${facilityIds[0]}::uuid, ${facilityIds[1]}::uuid)
      and created_at >= '2024-05-01T00:00:00Z' and created_at <= '2024-05-09T00:00:00Z'
      and status in ('TO_READ', 'FINAL') and modality_group = 'CT' and priority_tag = 'URGENT'
      and last_assigned_user_id = ${reporterId}::uuid`;
    for (const column of Object.values(COLUMNS)) {
      const text = await plan(column, filters);
      expect({ column, plan: text.split('\n')[1]?.trim().split(' on ')[0] }).toEqual({
        column,
        plan: `->  Index Only Scan Backward using studies_organisation_${column}_sort_idx`,
      });
    }
  });
});
