// GET /worklist search over date ranges: the week-keyed trigram index (migration 0005) must find
// exactly what the plain LIKE on search_text finds, at week edges, for texts with and without an
// ASCII trigram, over short, long and open ranges; and a bounded search must be planned on it.
import type { TWorklistListResponse, TWorklistStatusCounts } from '@ris/domain';
import { sql, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScope } from '../../../access/scope.ts';
import type { TPrincipal } from '../../../auth/principal.ts';
import { queryRows } from '../../../db/rows.ts';
import { adminPrincipal, tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { worklistFiltersOf } from '../../../test/worklist-criteria.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import {
  MAX_SEARCH_WEEKS,
  resolveWorklistCriteria,
  searchWeekOf,
  worklistWhere,
} from './worklist-criteria.ts';
import { SEARCH_IN_RANGE_AT_MOST } from './worklist-search-in-range.ts';

const WEEK_MS = 7 * 24 * 3_600_000;
const NOW = new Date('2026-11-19T12:00:00Z');
/** The start of NOW's week as ris_search_week() counts weeks (a Thursday, 00:00 UTC). */
const WEEK_START = new Date(searchWeekOf(NOW) * WEEK_MS);
const before = (ms: number) => new Date(NOW.getTime() - ms);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let server: TTestServer;
let token = '';
let organisationId = '';
let principal: TPrincipal;
/** A radiologist of two of the organisation's three facilities (the facility-keyed index). */
let staffToken = '';
let staffFacilityIds: string[] = [];
let staffPrincipal: TPrincipal;

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const db = server.db;
  const organisation = await buildOrganisation(db);
  organisationId = organisation.id;
  const facility = await buildFacility(db, { organisationId });
  const admin = await buildUser(db, { role: 'ADMIN', organisationId });
  token = await tokenFor(server, admin);
  principal = adminPrincipal(admin, organisationId);
  // Another organisation's Fernández, in the same weeks: never found.
  const foreign = await buildFacility(db);
  const names = [
    'José Fernández',
    'Ana FERNANDEZ García',
    'Lucía Hernández',
    'Peter O’Brien',
    'सीता देवी',
    'Zoë Müller',
    'Fernando Ruiz',
    'Мария Гаврилова',
    'Дмитрий Ск',
  ];
  const instants = [
    before(HOUR),
    WEEK_START,
    new Date(WEEK_START.getTime() - 1),
    before(3 * DAY),
    before(8 * DAY),
    before(20 * DAY),
    before(29 * DAY),
    before(31 * DAY),
    before(40 * DAY),
    before(20 * WEEK_MS),
    before(60 * WEEK_MS),
  ];
  let n = 0;
  for (const createdAt of instants) {
    for (const patientName of names) {
      n += 1;
      await buildStudy(db, {
        facility,
        patientName,
        patientIdentifier: `MRN-${String(n).padStart(4, '0')}`,
        accessionNumber: `ACC_${n}%`,
        studyDescription: ['CT Brain', 'MR Knee', 'MRT придаточных пазух', 'ct_brain 50%'][n % 4],
        createdAt,
        updatedAt: createdAt,
      });
    }
  }
  await buildStudy(db, { facility: foreign, patientName: 'José Fernández', createdAt: before(HOUR) });
  // The staff caller's second facility, a facility of theirs they are not at, and another
  // organisation's facility whose id ends as the first's (the facility index's key tag): each holds
  // the same names at a few instants, found only in the first two.
  const second = await buildFacility(db, { organisationId });
  const notTheirs = await buildFacility(db, { organisationId });
  const twin = await buildFacility(db, {
    id: `00000000-0000-4000-8000-${facility.id.slice(-12)}`,
  });
  for (const other of [second, notTheirs, twin]) {
    for (const createdAt of [before(HOUR), before(20 * DAY), before(60 * WEEK_MS)]) {
      for (const patientName of names) {
        n += 1;
        await buildStudy(db, { facility: other, patientName, patientIdentifier: `MRN-${n}`, createdAt });
      }
    }
  }
  // More studies than SEARCH_IN_RANGE_AT_MOST at the week's start, in every range below but the
  // last two hours, of the staff member's first facility: the keyed indexes find candidates there.
  // Their text holds none of the terms' characters.
  await seedingStudies(db, async () => {
    await db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
        patient_name, status, created_at, updated_at)
      select ${organisationId}::uuid, ${facility.id}::uuid,
        (select id from patients where facility_id = ${facility.id}::uuid limit 1),
        'yv' || translate(g::text, '0123456789', 'qwrtyupsdg'), 'Yyy Vvv', 'TO_READ',
        ${WEEK_START.toISOString()}::timestamptz, ${WEEK_START.toISOString()}::timestamptz
      from generate_series(1, ${SEARCH_IN_RANGE_AT_MOST + 1}) g`);
  });
  // 30 more facilities without studies: the staff member's 2 of 33 hold fewer studies over the 60
  // weeks than the organisation over a month, as facilities go on average, so a month is searched
  // by facility keys and a week by week keys (fewerInFacilities).
  for (let i = 0; i < 30; i++) await buildFacility(db, { organisationId });
  staffFacilityIds = [facility.id, second.id];
  const radiologist = await buildUser(db, { role: 'RADIOLOGIST', facilities: [facility, second] });
  staffToken = await tokenFor(server, radiologist);
  staffPrincipal = {
    ...principal,
    userId: radiologist.id,
    role: 'RADIOLOGIST',
    facilityIds: staffFacilityIds,
  };
});

afterAll(async () => server.close());

const RANGES = {
  today: 'date_range_type=TODAY&time_zone=UTC',
  week: 'date_range_type=LAST_1_WEEK',
  month: 'date_range_type=LAST_1_MONTH',
  'week edge': `date_range_type=CUSTOM&start_date=${new Date(WEEK_START.getTime() - 1).toISOString()}&end_date=${WEEK_START.toISOString()}`,
  '16 weeks': `date_range_type=CUSTOM&start_date=${before((MAX_SEARCH_WEEKS - 1) * WEEK_MS).toISOString()}&end_date=${NOW.toISOString()}`,
  '30 weeks (plain index)': `date_range_type=CUSTOM&start_date=${before(30 * WEEK_MS).toISOString()}&end_date=${NOW.toISOString()}`,
  'open start (plain index)': `date_range_type=CUSTOM&end_date=${NOW.toISOString()}`,
  'open end (plain index)': `date_range_type=CUSTOM&start_date=${before(10 * DAY).toISOString()}`,
  '2 hours (each text tested)': `date_range_type=CUSTOM&start_date=${before(2 * HOUR).toISOString()}&end_date=${NOW.toISOString()}`,
} as const;

const TERMS = [
  'fernand',
  'FERNÁND',
  'fernandez jos',
  'ernánd',
  'fer',
  'o’brien',
  'mrn-00',
  'acc_1',
  '1%',
  'सीता',
  'zoë m',
  'ct brain',
  'no such patient',
  // Mixed scripts: a word cut off at the text's edge hashes to trigrams that can print as three
  // ASCII letters ("ри " prints as "qxi"); none of them may be required of a study.
  'MRT при',
  'mrt придаточных пазух',
  'acc_1 Мари',
  'mrn-00 Гаври',
  'knee Дмитри',
  'acc Ск',
  // LIKE's metacharacters, typed or produced by folding (＿ → _, ％ → %): literal.
  'ct_brain',
  'ct＿brain',
  'brain 50%',
  'n 50％',
  // Without three ASCII letters or digits in a row: the pair-keyed index (migration 0031) finds them.
  'ez',
  'EZ',
  'e f',
  'o’b',
  'Ск',
  'ри п',
  'ता दे',
  '_1',
  '0%',
  '-0',
  'zq',
  'i w',
  '12',
  '4 5',
  // One character, or one that folds to two (Æ → ae) or to one (k + a combining acute accent): the
  // pair-keyed index finds a text without pairs by its single characters (migration 0045).
  'Я',
  'Æ',
  'k\u0301',
  'j',
  'J',
  'д',
  '李',
  '’',
  'Ö',
  '7 j',
];

/** The worklist criteria of a query string, as the route resolves them for the admin. */
async function criteriaOf(query: string, caller: TPrincipal = principal) {
  const filters = worklistFiltersOf(query);
  return resolveWorklistCriteria(server.db, await loadScope(server.db, caller), filters, NOW);
}

/**
 * The oracle: the organisation's listed studies in the range whose search_text contains the folded
 * term (strpos: no pattern language, no index).
 */
async function expected(term: string, range: string, facilityIds?: string[]): Promise<string[]> {
  const criteria = await criteriaOf(range);
  const from = criteria.from?.toISOString() ?? '-infinity';
  const to = criteria.to?.at.toISOString() ?? 'infinity';
  const facilities = facilityIds
    ? sql`and facility_id in (${sql.join(
        facilityIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`
    : sql``;
  const rows = await queryRows<{ id: string }>(
    server.db,
    sql`select id from studies where organisation_id = ${organisationId} and status <> 'DELETED'
      and created_at >= ${from}::timestamptz and created_at <= ${to}::timestamptz ${facilities}
      and strpos(search_text, lower(ris_unaccent(${term}))) > 0`,
  );
  return rows.map((row) => row.id).sort();
}

async function found(term: string, range: string, caller = token) {
  const query = `${range}&search=${encodeURIComponent(term)}&limit=100`;
  const list = await server.request('GET', `/api/v1/worklist?${query}`, { token: caller });
  const counts = await server.request('GET', `/api/v1/worklist/status/count?${query}`, {
    token: caller,
  });
  expect(list.status, list.text).toBe(200);
  expect(counts.status, counts.text).toBe(200);
  const body = list.json as TWorklistListResponse;
  return {
    ids: body.items.map((item) => item.id).sort(),
    total: body.total,
    counted: (counts.json as TWorklistStatusCounts).groups.ALL,
  };
}

describe('GET /worklist search within date ranges', () => {
  for (const [name, range] of Object.entries(RANGES)) {
    it(`finds what LIKE finds over ${name}`, async () => {
      for (const term of TERMS) {
        const want = await expected(term, range);
        const got = await found(term, range);
        expect({ term, ids: got.ids }).toEqual({ term, ids: want });
        expect({ term, total: got.total, counted: got.counted }).toEqual({
          term,
          total: want.length,
          counted: want.length,
        });
      }
    });
  }

  it('finds what LIKE finds for random fragments of the studies’ texts (seeded)', async () => {
    const texts = await queryRows<{ text: string }>(
      server.db,
      sql`select distinct search_text as text from studies where organisation_id = ${organisationId}
        and patient_name <> 'Yyy Vvv'`,
    );
    let seed = 20261121;
    const random = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % below;
    };
    for (let i = 0; i < 60; i++) {
      const text = [...(texts[random(texts.length)]?.text ?? '')];
      const start = random(text.length);
      const fragment = text
        .slice(start, start + 3 + random(10))
        .map((character) => (random(2) ? character.toUpperCase() : character))
        .join('')
        .trim();
      if (fragment === '') continue;
      const want = await expected(fragment, RANGES.month);
      expect({ fragment, ids: (await found(fragment, RANGES.month)).ids }).toEqual({ fragment, ids: want });
    }
  });

  it('finds for a staff member what LIKE finds in their facilities only, over every range', async () => {
    for (const range of Object.values(RANGES)) {
      for (const term of TERMS) {
        const want = await expected(term, range, staffFacilityIds);
        const got = await found(term, range, staffToken);
        expect({ term, range, ids: got.ids }).toEqual({ term, range, ids: want });
        expect({ term, range, total: got.total, counted: got.counted }).toEqual({
          term,
          range,
          total: want.length,
          counted: want.length,
        });
      }
    }
    // The twin facility's and the unassigned facility's Fernándezes are there, and never found.
    expect((await expected('fernand', RANGES['open start (plain index)'])).length).toBe(3 * 11 + 3 * 2 * 3);
    expect((await found('fernand', RANGES['open start (plain index)'], staffToken)).total).toBe(
      3 * 11 + 3 * 3,
    );
  });

  it('finds a common name in every week of a month, and at both sides of a week edge', async () => {
    // 3 names (two Fernández, one Fernando) × the 7 instants of the last month: 1 h ago, the week's
    // start, 1 ms before it, 3, 8, 20 and 29 days ago; 2 of the instants at the week edge.
    // The two other facilities of the organisation add theirs of 1 h and 20 days ago.
    const month = await found('fernand', RANGES.month);
    expect(month.total).toBe(3 * 7 + 2 * 2 * 3);
    const edge = await found('fernand', RANGES['week edge']);
    expect(edge.total).toBe(3 * 2);
  });
});

describe('the search plan', () => {
  /**
   * The plan of the worklist's WHERE clause with only the two search indexes to choose from (the
   * others but the primary key dropped in a transaction that is rolled back): a few dozen rows would otherwise be read
   * through the created_at index or in sequence, whatever the search.
   */
  async function plan(term: string, range: string, caller: TPrincipal = principal): Promise<string> {
    const criteria = await criteriaOf(`${range}&search=${encodeURIComponent(term)}`, caller);
    const where = worklistWhere(server.db, criteria, criteria.statuses);
    let text = '';
    await server.db
      .transaction(async (tx) => {
        const others = await queryRows<{ name: string }>(
          tx,
          sql`select indexname as name from pg_indexes where tablename = 'studies'
            and indexname not in ('studies_pkey', 'studies_search_trgm_idx', 'studies_search_week_idx',
              'studies_search_facility_idx', 'studies_search_pair_idx')`,
        );
        for (const { name } of others) await tx.execute(sql.raw(`drop index "${name}" cascade`));
        // With statistics, as autovacuum keeps them: the planner weighs the keys' frequencies.
        await tx.execute(sql`analyze studies`);
        await tx.execute(sql`set local enable_seqscan = off`);
        const rows = await queryRows<{ 'QUERY PLAN': string }>(
          tx,
          sql`explain select id from studies where ${where}`,
        );
        text = rows.map((row) => row['QUERY PLAN']).join('\n');
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    return text;
  }

  it('reads the week-keyed index for a bounded range of a few weeks, the trigram index otherwise', async () => {
    expect(await plan('fernand', RANGES.month)).toContain('studies_search_week_idx');
    expect(await plan('fernand', RANGES['30 weeks (plain index)'])).not.toContain('studies_search_week_idx');
    expect(await plan('fernand', RANGES['open start (plain index)'])).not.toContain(
      'studies_search_week_idx',
    );
    // No three ASCII letters or digits in a row: no keys to look up.
    expect(await plan('सीता', RANGES.month)).not.toContain('studies_search_week_idx');
  });

  it('reads the facility-keyed index for a staff member over all dates, many weeks or weeks holding more, not for an admin', async () => {
    const staff = (range: string, term = 'fernand') => plan(term, range, staffPrincipal);
    expect(await staff(RANGES['open start (plain index)'])).toContain('studies_search_facility_idx');
    expect(await staff(RANGES['30 weeks (plain index)'])).toContain('studies_search_facility_idx');
    expect(await staff(RANGES.month)).toContain('studies_search_facility_idx');
    expect(await staff(RANGES.week)).toContain('studies_search_week_idx');
    expect(await staff(RANGES['open start (plain index)'], 'सीता')).not.toContain(
      'studies_search_facility_idx',
    );
    expect(await plan('fernand', RANGES['open start (plain index)'])).not.toContain(
      'studies_search_facility_idx',
    );
  });

  it('tests each text of a range holding few studies, whatever the text’s keys', async () => {
    const recent = RANGES['2 hours (each text tested)'];
    for (const caller of [principal, staffPrincipal]) {
      for (const term of ['mrn', 'fernand']) {
        expect((await criteriaOf(`${recent}&search=${term}`, caller)).searchInRange).toBe(true);
        expect(await plan(term, recent, caller)).not.toMatch(/studies_search_(trgm|week|facility|pair)_idx/);
        expect((await criteriaOf(`${RANGES.month}&search=${term}`, caller)).searchInRange).toBe(false);
      }
    }
  });

  it('reads the pair-keyed index for a text without trigram keys, never the trigram index', async () => {
    const open = RANGES['open start (plain index)'];
    for (const [term, range, caller] of [
      ['zq', open, principal],
      ['Ск', RANGES.month, principal],
      ['ता दे', open, staffPrincipal],
      ['o’b', RANGES.week, staffPrincipal],
    ] as const) {
      const text = await plan(term, range, caller);
      expect({ term, uses: text.includes('studies_search_pair_idx') }).toEqual({ term, uses: true });
      // pg_trgm finds no trigram in such a text and would read all of its index.
      expect({ term, uses: text.includes('studies_search_trgm_idx') }).toEqual({ term, uses: false });
    }
    // A text without pairs (one character, or pairs holding a space) is looked up by its single
    // characters (migration 0045); one of digits and spaces has no key (the index leaves them out);
    // a text with keys reads the trigram indexes.
    for (const [term, uses] of [
      ['Я', true],
      ['q', true],
      ['i w', true],
      ['12', false],
      ['4 5', false],
    ] as const) {
      expect({ term, uses: (await plan(term, open)).includes('studies_search_pair_idx') }).toEqual({
        term,
        uses,
      });
    }
    expect(await plan('fernand', open)).not.toContain('studies_search_pair_idx');
  });
});
