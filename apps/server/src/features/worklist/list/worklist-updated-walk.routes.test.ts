// A search sorted by last update, oldest first, from a range's start (worklist-page-walk.ts,
// prefixStartOf): the last-update sort index is walked from the start, and the range's studies last
// updated before it began (a server clock behind PostgreSQL's) are read apart from the partial index
// studies_organisation_updated_before_arrival_idx. The pages are the oracle's, those studies first,
// for an admin, a radiologist's facility and another organisation's radiologist.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScope } from '../../../access/scope.ts';
import { compileSql } from '../../../db/compile-sql.ts';
import { queryRows } from '../../../db/rows.ts';
import { adminPrincipal, tokenFor } from '../../../test/auth-helpers.ts';
import {
  buildFacilities,
  buildFacility,
  buildOrganisation,
  buildPatient,
  buildUser,
} from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { worklistFiltersOf } from '../../../test/worklist-criteria.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { listWorklist } from '../../../test/worklist-requests.ts';
import { resolveWorklistCriteria } from './worklist-criteria.ts';
import { prefixWalkSql } from './worklist-page-walk.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
/** The range's start: study 2,880 arrived then; 2,877-2,879 just after, and were updated before it. */
const START = new Date(NOW.getTime() - 20 * 86_400_000);
const STUDIES = 5_000;
const BEFORE_ARRIVAL = ['UW2879', 'UW2878', 'UW2877'];

let server: TTestServer;
let organisationId = '';
let facilityIds: string[] = [];
const tokens = { admin: '', radiologist: '', foreign: '' };
let foreignFacilityId = '';
let adminId = '';

/**
 * Studies 1..count of `facilities` in turn, one every 10 minutes back from NOW, every patient an
 * "Abbott": last updated as they arrived, every eleventh three days later, and 2,877-2,879 two hours
 * before they arrived. Every 97th is deleted.
 */
type TFacility = Awaited<ReturnType<typeof buildFacility>>;

async function seed(facilities: readonly TFacility[], prefix: string, count: number) {
  const organisation = facilities[0]?.organisationId ?? '';
  const patients = await Promise.all(
    facilities.map(async (facility) => (await buildPatient(server.db, { facility })).id),
  );
  const facilityArray = sql.raw(
    `array[${facilities.map((facility) => `'${facility.id}'`).join(',')}]::uuid[]`,
  );
  const patientArray = sql.raw(`array[${patients.map((id) => `'${id}'`).join(',')}]::uuid[]`);
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, patient_identifier, study_description, modality, modality_group, status, created_at,
      updated_at)
    select ${organisation}::uuid, (${facilityArray})[g % ${facilities.length}::int + 1],
      (${patientArray})[g % ${facilities.length}::int + 1], ${prefix} || g, 'Abbott ' || g, 'P' || g,
      'CT Head', 'CT', 'CT',
      (case when g % 97 = 0 then 'DELETED'
        else (array['ORDERED','TO_READ','ASSIGNED','IN_REVIEW','DRAFTED','FINAL'])[g % 6 + 1] end)::study_status,
      ${NOW.toISOString()}::timestamptz - g * interval '10 minutes',
      ${NOW.toISOString()}::timestamptz - g * interval '10 minutes'
        + case when g between 2877 and 2879 then interval '-2 hours'
          when g % 11 = 0 then interval '3 days' else interval '0' end
    from generate_series(1, ${count}::int) g`);
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  organisationId = (await buildOrganisation(server.db)).id;
  const facilities = await buildFacilities(server.db, organisationId, 2);
  facilityIds = facilities.map((facility) => facility.id);
  const foreignFacility = await buildFacility(server.db);
  foreignFacilityId = foreignFacility.id;
  await seedingStudies(server.db, async () => {
    await seed(facilities, 'UW', STUDIES);
    await seed([foreignFacility], 'XW', 3_000);
  });
  const admin = await buildUser(server.db, { role: 'ADMIN', organisationId });
  adminId = admin.id;
  tokens.admin = await tokenFor(server, admin);
  tokens.radiologist = await tokenFor(
    server,
    await buildUser(server.db, { role: 'RADIOLOGIST', facilities: facilities.slice(0, 1) }),
  );
  tokens.foreign = await tokenFor(
    server,
    await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [foreignFacility] }),
  );
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

/** The oracle: the range's studies (of `facility`) holding `text`, oldest update first. */
async function oracle(text: string, facility: string | null) {
  const rows = await queryRows<{ id: string }>(
    server.db,
    sql`select id from studies where organisation_id = (select organisation_id from facilities
        where id = ${facility ?? facilityIds[0]}::uuid)
      and (${facility}::uuid is null or facility_id = ${facility}::uuid)
      and status <> 'DELETED' and created_at >= ${START.toISOString()}::timestamptz
      and strpos(search_text, lower(ris_unaccent(${text}))) > 0
      order by updated_at asc, id asc`,
  );
  return rows.map((row) => row.id);
}

const query = (text: string, offset: number) =>
  `date_range_type=CUSTOM&start_date=${START.toISOString()}&search=${text}&sort_by=updated_at&sort_order=asc&limit=25&offset=${offset}`;

describe('a search sorted by last update, oldest first, from a range start', () => {
  const callers = [
    { who: 'admin', facility: () => null },
    { who: 'radiologist', facility: () => facilityIds[0] ?? null },
    { who: 'foreign', facility: () => foreignFacilityId },
  ] as const;
  // "ab" has no trigram key (walked after the capped count); "abbott" has (its dense, sorted walk).
  for (const text of ['ab', 'abbott']) {
    for (const caller of callers) {
      it(`gives the oracle's pages to the ${caller.who} for "${text}", studies updated before they arrived first`, async () => {
        const expected = await oracle(text, caller.facility());
        expect(expected.length).toBeGreaterThan(25);
        for (const offset of [0, 25, 500]) {
          const page = await listWorklist(server, tokens[caller.who], query(text, offset));
          expect(page.items.map((item) => item.id)).toEqual(expected.slice(offset, offset + 25));
          expect(page.items.every((item) => item.created_at >= START.toISOString())).toBe(true);
          if (caller.who !== 'foreign') {
            expect(page.items.every((item) => facilityIds.includes(item.facility_fk))).toBe(true);
          }
        }
        const first = await listWorklist(server, tokens[caller.who], query(text, 0));
        const accessions = first.items.map((item) => item.accession_number);
        if (caller.who === 'admin') expect(accessions.slice(0, 3)).toEqual(BEFORE_ARRIVAL);
        if (caller.who === 'radiologist') expect(accessions[0]).toBe('UW2878');
        if (caller.who === 'foreign') expect(accessions.slice(0, 3)).toEqual(['XW2879', 'XW2878', 'XW2877']);
      });
    }
  }

  it('walks the sort index from the start and reads the studies updated before arrival from their index', async () => {
    const filters = worklistFiltersOf(`date_range_type=CUSTOM&start_date=${START.toISOString()}`);
    const principal = adminPrincipal({ id: adminId, email: 'admin@example.test' }, organisationId);
    const criteria = await resolveWorklistCriteria(
      server.db,
      await loadScope(server.db, principal),
      filters,
      NOW,
    );
    const page = { limit: 25, offset: 0, sort_by: 'updated_at', sort_order: 'asc' } as const;
    const walk = prefixWalkSql(server.db, criteria, page, 'updated_at', sql`2000::bigint`);
    if (!walk) throw new Error('no prefix walk');
    const { sql: text, params } = compileSql(walk);
    let plan = '';
    await server.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const explained = await queryRows<{ 'QUERY PLAN': string }>(
        tx,
        sql.raw(
          `explain (costs off) ${text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]))}`,
        ),
      );
      plan = explained.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('studies_organisation_updated_before_arrival_idx');
    expect(plan).toMatch(
      /studies_organisation_updated_at_sort_idx[^\n]*\n\s*Index Cond: \(\(organisation_id = [^\n]*updated_at >= /,
    );
  });
});

/** A parameter as an SQL literal, for EXPLAIN of a compiled statement. */
function literal(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return `'${String(value).replaceAll("'", "''")}'`;
}
