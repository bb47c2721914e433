// GET /worklist for a search sorted by a column header by a radiologist who sees one facility of 20
// (worklist-sorted-search.ts). Their facility receives 3,100 studies over 22 days, one in three "Zeta
// Protocol": the month's 1,033 matches pass the count's cap. The other 19 received 8,000 over 200
// days, so the facility holds 28 % of the organisation's studies, and the month 15 % of its archive.
// Near the start the column's sort index holds the page: it is walked there and the total capped.
// Deeper (offset 850), the entries a walk reads for the page keep too few of the facility's month
// (prefixBudget): the month is walked in arrival order instead, each study carrying its sort key, and
// its matches sorted, so the total is exact; by study date, which follows arrival, the month lies
// first in the index and is walked there (capped). Over all dates, which no walk of arrival covers,
// the index is walked (capped). A reporter is assigned every study of the facility: their own list
// over all dates keeps their share of the organisation's studies (from the assignee rollup, 28 %), so
// the index is walked (capped) where their matches were collected from the rows the facility's keys
// found (exact); an admin filtering by them sees the same page, without the neighbour's assigned
// studies. Every page is ORDER BY's, for each column and direction; another facility's radiologist
// and another organisation's admin see none of them.
import { WORKLIST_SEARCH_COUNT_CAP } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { idsInOrder, insertSpreadStudies, SORTED_COLUMNS } from '../../../test/spread-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { expectListedPage, listWorklist } from '../../../test/worklist-requests.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const MONTH = 'date_range_type=LAST_1_MONTH&search=Zeta';

let server: TTestServer;
let facilityId = '';
const tokens = { radiologist: '', neighbour: '', otherAdmin: '', reporter: '', admin: '' };
let reporterId = '';

type TFacility = Awaited<ReturnType<typeof buildFacility>>;

/** `count` studies of `facilities` in turn, one every `minutes` back from NOW; one in three "Zeta". */
async function seed(facilities: readonly TFacility[], count: number, minutes: number) {
  await insertSpreadStudies(server.db, facilities, count, {
    accession: sql`'Z' || g`,
    patientName: sql`'Patient ' || lpad(((g::bigint * 7919) % 100003)::text, 6, '0')`,
    patientIdentifier: sql`'P' || lpad(((g::bigint * 104729) % 1000003)::text, 7, '0')`,
    description: sql`case when g % 3 = 0 then 'Zeta Protocol' else 'Plain Film' end`,
    modality: sql`'CT'`,
    modalityGroup: sql`'CT'`,
    status: sql`(array['TO_READ','FINAL','ORDERED','DRAFTED','IN_REVIEW','ASSIGNED'])[1 + (g / 3) % 6]`,
    arrival: sql`${NOW.toISOString()}::timestamptz - g * ${minutes}::int * interval '1 minute'`,
    studyDatetime: sql`${NOW.toISOString()}::timestamptz - g * ${minutes}::int * interval '1 minute' - (g % 53) * interval '1 hour'`,
  });
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const { id: organisationId } = await buildOrganisation(server.db);
  const facilities: TFacility[] = [];
  for (let i = 0; i < 20; i++) facilities.push(await buildFacility(server.db, { organisationId }));
  const [mine, next, ...rest] = facilities;
  if (!mine || !next) throw new Error('no facility');
  facilityId = mine.id;
  const other = await buildFacility(server.db);
  await seedingStudies(server.db, async () => {
    await seed([mine], 3_100, 10);
    await seed([next, ...rest], 8_000, 36);
    tokens.radiologist = await tokenFor(
      server,
      await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [mine] }),
    );
    const neighbour = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [next] });
    tokens.neighbour = await tokenFor(server, neighbour);
    const reporter = await buildUser(server.db, {
      role: 'RADIOLOGIST',
      userType: 'REPORTER',
      facilities: [mine],
    });
    reporterId = reporter.id;
    tokens.reporter = await tokenFor(server, reporter);
    tokens.admin = await tokenFor(server, await buildUser(server.db, { role: 'ADMIN', organisationId }));
    // Assigned as the worklist's assignment does it (the triggers keep the assignee rollup).
    await server.db.execute(sql`update studies set last_assigned_user_id = ${reporter.id}::uuid
      where facility_id = ${mine.id}::uuid`);
    await server.db.execute(sql`update studies set last_assigned_user_id = ${neighbour.id}::uuid
      where facility_id = ${next.id}::uuid`);
    await seed([other], 300, 10);
  });
  tokens.otherAdmin = await tokenFor(
    server,
    await buildUser(server.db, { role: 'ADMIN', organisationId: other.organisationId }),
  );
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

/** ORDER BY's ids of the facility's month (or all dates) holding "zeta", by `column` in `direction`. */
function oracle(column: string, direction: 'asc' | 'desc', month = true) {
  const from = month
    ? sql`${NOW.toISOString()}::timestamptz - interval '30 days'`
    : sql`'-infinity'::timestamptz`;
  const where = sql`facility_id = ${facilityId}::uuid and created_at >= ${from}
    and created_at <= ${NOW.toISOString()}::timestamptz`;
  return idsInOrder(server.db, where, 'zeta', column, direction);
}

const SORTS = [...SORTED_COLUMNS, ['status', 'status']] as const;

describe('a search sorted by a column in one facility of twenty', () => {
  it('walks the sort index near the start: the oracle’s page, the total capped', async () => {
    const want = await oracle('patient_name', 'asc');
    expect(want.length).toBeGreaterThan(WORKLIST_SEARCH_COUNT_CAP);
    const query = `${MONTH}&sort_by=patient_name&sort_order=asc&limit=25&offset=100`;
    await expectListedPage(server, tokens.radiologist, query, want, 'capped');
  });

  it('collects the month deeper on, each column and direction as the oracle, the total exact', async () => {
    for (const [sortBy, column] of SORTS) {
      for (const direction of ['asc', 'desc'] as const) {
        const want = await oracle(column, direction);
        const query = `${MONTH}&sort_by=${sortBy}&sort_order=${direction}&limit=75&offset=850`;
        // By study date the month lies first in the index: walked, capped.
        const total = sortBy === 'datetime' ? 'capped' : 'exact';
        await expectListedPage(server, tokens.radiologist, query, want, total);
      }
    }
  });

  it('walks more of the sort index deeper on over all dates, which no walk of arrival covers: capped', async () => {
    const want = await oracle('patient_identifier', 'desc', false);
    const query = `date_range_type=CUSTOM&search=Zeta&sort_by=patient_id&sort_order=desc&limit=75&offset=850`;
    await expectListedPage(server, tokens.radiologist, query, want, 'capped');
  });

  it('walks a reporter’s own studies over all dates as far as holds a deep page: capped', async () => {
    const want = await oracle('patient_name', 'asc', false);
    const query = `date_range_type=CUSTOM&search=Zeta&sort_by=patient_name&sort_order=asc&limit=75&offset=850`;
    for (const [token, filter] of [
      [tokens.reporter, ''],
      [tokens.admin, `&by_user_ids=${reporterId}`],
    ] as const) {
      await expectListedPage(server, token, `${query}${filter}`, want, 'capped');
    }
  });

  it('shows another facility’s radiologist and another organisation’s admin none of them', async () => {
    const mine = new Set(await oracle('patient_name', 'asc'));
    const neighbour = await listWorklist(server, tokens.neighbour, `${MONTH}&sort_by=patient_name&limit=100`);
    expect(neighbour.total).toBeGreaterThan(0);
    expect(neighbour.items.some((item) => mine.has(item.id))).toBe(false);
    const other = await listWorklist(server, tokens.otherAdmin, `${MONTH}&sort_by=patient_name&limit=100`);
    expect(other.total).toBe(100);
    expect(other.items.some((item) => mine.has(item.id))).toBe(false);
  });
});
