// GET /worklist for a search sorted by a column header other than arrival (worklist-sorted-search.ts)
// whose text one study in ten holds: an admin's matches over all dates are counted up to the cap and
// the page is walked in the column's sort index, as far as the page's end needs (prefixRowsFor), also
// at an offset of 500, and sorted by their own description over the one modality group holding them;
// where the caller is a staff member, they are collected and sorted. A text only an older block of
// studies holds is walked too where the column's first entries hold it. Every page is ORDER BY's.
import { WORKLIST_SEARCH_COUNT_CAP } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/rows.ts';
import { loadScope } from '../../../access/scope.ts';
import { adminPrincipal, tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildPatient, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { worklistFiltersOf } from '../../../test/worklist-criteria.ts';
import { listWorklist } from '../../../test/worklist-requests.ts';
import { resolveWorklistCriteria } from './worklist-criteria.ts';
import { keyedMatchesOf } from './worklist-prefix-budget.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const STUDIES = 15_000;
const ALL_DATES = 'date_range_type=CUSTOM';

let server: TTestServer;
let organisationId = '';
let otherId = '';
let facilityId = '';
let admin = { id: '', email: '' };
const tokens = { admin: '', staff: '', otherAdmin: '' };

/**
 * `count` studies 7 minutes apart in two facilities (ten at a time): every tenth an MRI "Lumbar
 * Spine", the others X-rays; names, patient ids and last updates in no order of theirs.
 */
async function insertStudies(organisation: string, count: number) {
  const facilities = [
    await buildFacility(server.db, { organisationId: organisation }),
    await buildFacility(server.db, { organisationId: organisation }),
  ];
  const patient = await buildPatient(server.db, { facility: facilities[0] });
  const [a, b] = facilities.map((facility) => facility.id);
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, patient_identifier, study_description, modality, modality_group, status, created_at,
      updated_at)
    select ${organisation}::uuid, (array[${a}::uuid, ${b}::uuid])[1 + (g / 10) % 2], ${patient.id}::uuid, 'LS' || g,
      'Name ' || lpad(((g * 7919) % 100003)::text, 6, '0'), 'P' || lpad(((g * 104729) % 1000003)::text, 7, '0'),
      case when g % 10 = 0 then 'MRI Lumbar Spine' else 'X-Ray Hand' end,
      case when g % 10 = 0 then 'MR' else 'DX' end,
      (case when g % 10 = 0 then 'MRI' else 'XRAY' end)::modality_group,
      (array['TO_READ','FINAL','ORDERED','FINAL','DELETED','IN_REVIEW']::study_status[])[1 + (g / 10) % 6],
      ${NOW.toISOString()}::timestamptz - g * interval '7 minutes',
      ${NOW.toISOString()}::timestamptz - g * interval '7 minutes' + (g % 97) * interval '1 minute'
    from generate_series(1, ${count}) g`);
  return facilities;
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  organisationId = (await buildOrganisation(server.db)).id;
  admin = await buildUser(server.db, { role: 'ADMIN', organisationId });
  tokens.admin = await tokenFor(server, admin);
  await seedingStudies(server.db, async () => {
    const [facility] = await insertStudies(organisationId, STUDIES);
    if (!facility) throw new Error('no facility');
    facilityId = facility.id;
    tokens.staff = await tokenFor(
      server,
      await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [facility] }),
    );
    otherId = (await buildOrganisation(server.db)).id;
    tokens.otherAdmin = await tokenFor(
      server,
      await buildUser(server.db, { role: 'ADMIN', organisationId: otherId }),
    );
    await insertStudies(otherId, 600);
    // A protocol new these two days at the staff member's facility: dense among their newest studies,
    // absent from their older ones.
    await server.db.execute(sql`update studies set study_description = 'X-Ray Knee Protocol'
      where facility_id = ${facilityId}::uuid and study_description = 'X-Ray Hand'
        and created_at > ${NOW.toISOString()}::timestamptz - interval '2 days'`);
    // An accession block weeks back (studies 6,000-8,499: 29-41 days old), as a PACS numbers a year's
    // studies: none of the newest studies holds its text, one in six of every column's order does.
    await server.db.execute(sql`update studies set accession_number = 'FARBLK' || id_g.g
      from (select id, row_number() over (order by created_at desc) - 1 as g from studies
        where organisation_id = ${organisationId}::uuid) id_g
      where studies.id = id_g.id and id_g.g between 6000 and 8499`);
  });
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

/** ORDER BY's page of the organisation's (or the facility's) studies holding `text`, and their number. */
async function oracle(
  text: string,
  by: string,
  asc: boolean,
  offset: number,
  facility?: string,
  organisation = organisationId,
) {
  const direction = sql.raw(asc ? 'asc' : 'desc');
  const where = sql`organisation_id = ${organisation}::uuid and status <> 'DELETED'
    and (${facility ?? null}::uuid is null or facility_id = ${facility ?? null}::uuid)
    and strpos(search_text, lower(ris_unaccent(${text}))) > 0`;
  const page = await queryRows<{ id: string }>(
    server.db,
    sql`select id from studies where ${where}
      order by ${sql.raw(by)} ${direction}, id ${direction} limit 25 offset ${offset}`,
  );
  const [count] = await queryRows<{ n: number }>(
    server.db,
    sql`select count(*)::int as n from studies where ${where}`,
  );
  return { ids: page.map((row) => row.id), matches: count?.n ?? 0 };
}

async function pageOf(token: string, text: string, by: string, asc: boolean, offset: number) {
  const page = await listWorklist(
    server,
    token,
    `${ALL_DATES}&search=${encodeURIComponent(text)}&sort_by=${by}&sort_order=${asc ? 'asc' : 'desc'}` +
      `&limit=25&offset=${offset}`,
  );
  return { ids: page.items.map((item) => item.id), total: page.total, capped: page.total_capped };
}

/** The page an oracle's matches give where they are all counted: ORDER BY's, the total exact. */
function exactly(want: { ids: string[]; matches: number }) {
  return { ids: want.ids, total: want.matches, capped: false };
}

/** A page's total, whether it is capped, and the next page's offset. */
function totalOf(page: { total: number; total_capped?: boolean; next_offset: number | null }) {
  return { total: page.total, capped: page.total_capped, next: page.next_offset };
}

/**
 * An admin's page of `text` over all dates for each case (sort_by, its column, ascending, offset):
 * ORDER BY's, with more matches than the cap and the total capped.
 */
async function expectCappedPages(
  text: string,
  cases: readonly (readonly [by: string, column: string, asc: boolean, offset: number])[],
) {
  for (const [by, column, asc, offset] of cases) {
    const want = await oracle(text, column, asc, offset);
    expect(want.matches).toBeGreaterThan(WORKLIST_SEARCH_COUNT_CAP);
    expect({ by, offset, ...(await pageOf(tokens.admin, text, by, asc, offset)) }).toEqual({
      by,
      offset,
      ids: want.ids,
      total: WORKLIST_SEARCH_COUNT_CAP,
      capped: true,
    });
  }
}

describe('a search one study in ten holds, sorted by another column', () => {
  it('walks an admin’s page in the column’s order, near the start and at an offset of 500', async () => {
    await expectCappedPages('Lumbar', [
      ['patient_name', 'patient_name', true, 0],
      ['patient_name', 'patient_name', true, 500],
      ['patient_id', 'patient_identifier', false, 500],
      ['updated_at', 'updated_at', true, 250],
    ]);
  });

  it('walks the pages at the cap and past it, counted one past the page’s end', async () => {
    // Nine studies in ten hold "hand": the last page before the cap and the one after it lie in the
    // sort index's first entries. Collected, they were counted exactly (11,000 matches sorted).
    for (const [by, column, asc, offset] of [
      ['patient_name', 'patient_name', true, 975],
      ['patient_name', 'patient_name', true, 1000],
      ['updated_at', 'updated_at', false, 975],
      ['patient_id', 'patient_identifier', true, 1500],
    ] as const) {
      const want = await oracle('hand', column, asc, offset);
      expect(want.matches).toBeGreaterThan(offset + 26);
      const page = await listWorklist(
        server,
        tokens.admin,
        `${ALL_DATES}&search=hand&sort_by=${by}&sort_order=${asc ? 'asc' : 'desc'}&limit=25&offset=${offset}`,
      );
      expect({ by, offset, ids: page.items.map((item) => item.id), ...totalOf(page) }).toEqual({
        by,
        offset,
        ids: want.ids,
        total: offset + 26,
        capped: true,
        next: offset + 25,
      });
    }
    // A staff member's facility (half the studies, 4,400 matches) is collected there: counted exactly.
    const staff = await oracle('hand', 'patient_name', false, 975, facilityId);
    expect(staff.matches).toBeGreaterThan(1026);
    const page = await listWorklist(
      server,
      tokens.staff,
      `${ALL_DATES}&search=hand&sort_by=patient_name&sort_order=desc&limit=25&offset=975`,
    );
    expect({ ids: page.items.map((item) => item.id), ...totalOf(page) }).toEqual({
      ...exactly(staff),
      next: 1000,
    });
  });

  it('walks an admin’s page for a text only older studies hold, where the column’s first entries hold it', async () => {
    // The newest studies' probe meets none of the block (its matches were every one collected and
    // sorted); the first entries of each column's sort index hold one in six (sortPrefixDensity).
    await expectCappedPages('FarBlk', [
      ['status', 'status', true, 0],
      ['patient_name', 'patient_name', true, 0],
      ['patient_id', 'patient_identifier', false, 300],
      ['series_count', 'series_count', false, 50],
    ]);
    // A text the block holds but few of the column's first entries: collected, counted exactly.
    const few = await oracle('farblk8', 'patient_name', true, 0);
    expect(few.matches).toBeGreaterThan(25);
    expect(await pageOf(tokens.admin, 'FarBlk8', 'patient_name', true, 0)).toEqual(exactly(few));
  });

  it('walks the one group holding matches that lie behind another’s, and collects a staff member’s', async () => {
    // By description, descending: every "X-Ray Hand" comes before the matches, but no X-ray holds
    // "lumbar" (groupsHoldingText): the MRI entries alone are walked (they were collected).
    const together = await oracle('lumbar', 'study_description', false, 100);
    expect(together.matches).toBeGreaterThan(WORKLIST_SEARCH_COUNT_CAP);
    expect(await pageOf(tokens.admin, 'lumbar', 'study', false, 100)).toEqual({
      ids: together.ids,
      total: WORKLIST_SEARCH_COUNT_CAP,
      capped: true,
    });
    const staff = await oracle('lumbar', 'patient_name', true, 500, facilityId);
    expect(staff.matches).toBeGreaterThan(0);
    expect(await pageOf(tokens.staff, 'lumbar', 'patient_name', true, 500)).toEqual(exactly(staff));
  });

  it('collects a staff member’s month by walking it where the sort index does not hold the page', async () => {
    // Dense among the newest studies, fewer than the cap over the month: every match of the month.
    const since = new Date(NOW.getTime() - 30 * 86_400_000);
    for (const [by, column, asc, offset] of [
      ['patient_name', 'patient_name', true, 25],
      ['study', 'study_description', false, 0],
      ['patient_id', 'patient_identifier', false, 50],
    ] as const) {
      const want = await queryRows<{ id: string }>(
        server.db,
        sql`select id from studies where facility_id = ${facilityId}::uuid and status <> 'DELETED'
          and created_at >= ${since.toISOString()}::timestamptz and strpos(search_text, 'knee protocol') > 0
          order by ${sql.raw(`${column} ${asc ? 'asc' : 'desc'}, id ${asc ? 'asc' : 'desc'}`)}`,
      );
      expect(want.length).toBeGreaterThan(100);
      const page = await listWorklist(
        server,
        tokens.staff,
        `date_range_type=LAST_1_MONTH&search=Knee%20Protocol&sort_by=${by}` +
          `&sort_order=${asc ? 'asc' : 'desc'}&limit=25&offset=${offset}`,
      );
      expect({
        by,
        ids: page.items.map((item) => item.id),
        total: page.total,
        capped: page.total_capped,
      }).toEqual({
        by,
        ids: want.slice(offset, offset + 25).map((row) => row.id),
        total: want.length,
        capped: false,
      });
    }
    // Another organisation's admin holds no such study.
    const theirs = await listWorklist(
      server,
      tokens.otherAdmin,
      'date_range_type=LAST_1_MONTH&search=knee%20protocol&sort_by=patient_name',
    );
    expect(theirs.total).toBe(0);
  });

  it('estimates a text’s share and its range’s matches from the keyed index’s statistics', async () => {
    const scope = await loadScope(server.db, adminPrincipal(admin, organisationId));
    const estimateOf = async (query: string) => {
      const criteria = await resolveWorklistCriteria(server.db, scope, worklistFiltersOf(query), NOW);
      const page = { limit: 25, offset: 0, sort_by: 'patient_id', sort_order: 'asc' } as const;
      return keyedMatchesOf(server.database, criteria, page);
    };
    const estimate = async (query: string) => {
      const found = await estimateOf(query);
      if (!found) throw new Error(`no estimate for ${query}`);
      return found;
    };
    // A text whose keys the statistics do not list: no estimate, not the unlisted keys' default.
    expect(await estimateOf(`${ALL_DATES}&search=zzyqx`)).toBeNull();
    // One study in ten of 15,000 over 73 days.
    const all = await estimate(`${ALL_DATES}&search=${encodeURIComponent('lumbar spine')}`);
    expect(all.share).toBeGreaterThan(0.07);
    expect(all.share).toBeLessThan(0.14);
    expect(all.matches).toBeCloseTo(all.share * STUDIES, 0);
    // The last month of them: 30 of the 73 days.
    const month = await estimate(`date_range_type=LAST_1_MONTH&search=${encodeURIComponent('lumbar spine')}`);
    expect(month.share).toBe(all.share);
    expect(month.matches / all.matches).toBeGreaterThan(0.35);
    expect(month.matches / all.matches).toBeLessThan(0.48);
  });

  it('finds nothing of another organisation', async () => {
    const theirs = await pageOf(tokens.otherAdmin, 'lumbar', 'patient_name', true, 0);
    const want = await oracle('lumbar', 'patient_name', true, 0, undefined, otherId);
    expect(theirs).toEqual(exactly(want));
    const ours = await oracle('lumbar', 'patient_name', true, 0);
    expect(theirs.ids.some((id) => ours.ids.includes(id))).toBe(false);
  });
});
