// A reporter's own studies (or an admin's assignee filter) searched and sorted by status, oldest status
// first: every study ordered or to read is unassigned, and those lead the status sort index, more of
// them than a walk reads (PREFIX_SEARCH_ENTRIES). The walk now starts its count of entries past the
// statuses the caller keeps none of (statusLeadOf, from the rollups), so it reaches their first
// assigned study and gives the page with the total capped, where every match was collected and
// counted (a reporter's "chest" over all dates at 1,000,000 studies: 8,300 matches, 100-190 ms).
// Every page is ORDER BY's; a reporter's study back to be read leads the order once it exists; a
// caller of another organisation sees none of them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPrincipal } from '../../../auth/principal.ts';
import { queryRows } from '../../../db/rows.ts';
import { adminPrincipal, adminTokenFor, tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { idsInOrder, insertSpreadStudies } from '../../../test/spread-studies.ts';
import { resolvedCriteriaOf } from '../../../test/worklist-criteria.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { expectListedPage, listWorklist } from '../../../test/worklist-requests.ts';
import { PREFIX_SEARCH_ENTRIES } from './worklist-page-walk.ts';
import { statusLeadOf } from './worklist-prefix-budget.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const ALL_DATES = 'date_range_type=CUSTOM';
/** Unassigned studies, ordered or to read: more than a walk's entries. */
const UNASSIGNED = 20_600;
/**
 * The reporter's own studies, assigned, drafted or final: more matches than the cap, and more studies
 * than a search reads whole (SEARCH_IN_RANGE_AT_MOST).
 */
const OWN = 2_600;

let server: TTestServer;
let organisationId = '';
let reporterId = '';
let reporter: TPrincipal;
const tokens = { reporter: '', idle: '', admin: '', foreign: '' };

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  organisationId = (await buildOrganisation(server.db)).id;
  const facility = await buildFacility(server.db, { organisationId });
  const user = await buildUser(server.db, {
    role: 'RADIOLOGIST',
    userType: 'REPORTER',
    facilities: [facility],
  });
  reporterId = user.id;
  tokens.reporter = await tokenFor(server, user);
  tokens.admin = await adminTokenFor(server, organisationId);
  // A reporter of the same facility with no study of their own.
  tokens.idle = await tokenFor(
    server,
    await buildUser(server.db, { role: 'RADIOLOGIST', userType: 'REPORTER', facilities: [facility] }),
  );
  const columns = {
    patientName: sql`'Patient ' || g`,
    patientIdentifier: sql`'P' || g`,
    modality: sql`'CR'`,
    modalityGroup: sql`'XRAY'`,
  };
  const foreign = await buildFacility(server.db);
  await seedingStudies(server.db, async () => {
    // The reporter's studies hold "chest", and arrive among the others, more than the cap in the newest
    // days a count walks (a search of few studies, or whose keys find few more than them, has them read
    // whole: SEARCH_IN_RANGE_AT_MOST).
    await insertSpreadStudies(server.db, [facility], UNASSIGNED, {
      ...columns,
      accession: sql`'U' || g`,
      description: sql`'Abdomen'`,
      status: sql`(array['ORDERED','TO_READ'])[1 + g % 2]`,
      arrival: sql`${NOW.toISOString()}::timestamptz - g * interval '2 minutes'`,
    });
    await insertSpreadStudies(server.db, [facility], OWN, {
      ...columns,
      accession: sql`'R' || g`,
      description: sql`'Chest Lateral'`,
      status: sql`(array['ASSIGNED','DRAFTED','FINAL','FINAL'])[1 + g % 4]`,
      arrival: sql`${NOW.toISOString()}::timestamptz - (g * 10 + 1) * interval '1 minute'`,
    });
    await server.db.execute(sql`update studies set last_assigned_user_id = ${reporterId}::uuid
      where organisation_id = ${organisationId}::uuid and accession_number like 'R%'`);
    reporter = {
      ...adminPrincipal(user, organisationId),
      role: 'RADIOLOGIST',
      userType: 'REPORTER',
      facilityIds: [facility.id],
    };
    // Another organisation's reporter-like studies.
    await insertSpreadStudies(server.db, [foreign], 50, {
      ...columns,
      accession: sql`'F' || g`,
      description: sql`'Chest PA'`,
      status: sql`'ASSIGNED'`,
      arrival: sql`${NOW.toISOString()}::timestamptz - g * interval '5 minutes'`,
    });
  });
  tokens.foreign = await adminTokenFor(server, foreign.organisationId);
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

/** ORDER BY's ids of the reporter's own studies holding "chest", by status. */
function oracle(direction: 'asc' | 'desc') {
  const own = sql`organisation_id = ${organisationId}::uuid and last_assigned_user_id = ${reporterId}::uuid`;
  return idsInOrder(server.db, own, 'chest', 'status', direction);
}

const query = (direction: string, offset: number) =>
  `${ALL_DATES}&search=chest&sort_by=status&sort_order=${direction}&limit=25&offset=${offset}`;

describe('a reporter’s search sorted by status, past the statuses they hold none of', () => {
  it('counts the ordered and to-read entries first in the walk', async () => {
    const criteria = await resolvedCriteriaOf(server.db, reporter, query('asc', 0), NOW);
    const page = { limit: 25, offset: 0, sort_by: 'status', sort_order: 'asc' } as const;
    // Two seed studies (one per insert) are ordered too: the factories' own.
    const lead = await statusLeadOf(server.database, criteria, page, 'status');
    expect(lead).toBeGreaterThan(PREFIX_SEARCH_ENTRIES);
    expect(lead).toBeLessThanOrEqual(UNASSIGNED + 2);
    expect(await statusLeadOf(server.database, criteria, { ...page, sort_order: 'desc' }, 'status')).toBe(0);
    // A tab of two statuses walks every status between them: to read, then assigned and drafted
    // (none kept: not listed), before the first final study.
    const tabs = `${query('asc', 0)}&statuses=TO_READ&statuses=FINAL`;
    const twoStatuses = await resolvedCriteriaOf(server.db, reporter, tabs, NOW);
    const [between] = await queryRows<{ n: number }>(
      server.db,
      sql`select count(*)::int as n from studies where organisation_id = ${organisationId}::uuid
        and status between 'TO_READ' and 'DRAFTED'`,
    );
    expect(await statusLeadOf(server.database, twoStatuses, page, 'status')).toBe(between?.n);
    expect(
      await statusLeadOf(server.database, criteria, { ...page, sort_by: 'patient_name' }, 'patient_name'),
    ).toBe(0);
  });

  it('pages as ORDER BY, oldest status first and last, the total capped', async () => {
    for (const [direction, offset] of [
      ['asc', 0],
      ['asc', 400],
      ['desc', 0],
      ['desc', 250],
    ] as const) {
      const want = await oracle(direction);
      expect(want.length).toBe(OWN);
      // Walked (counted up to the cap), not collected (which counts all of them exactly).
      await expectListedPage(server, tokens.reporter, query(direction, offset), want, 'capped');
    }
  });

  it('pages a text without trigram keys as ORDER BY too', async () => {
    // "la" (of "Chest Lateral"): counted up to the cap, then walked past the lead (keylessPrefixOf).
    const own = sql`organisation_id = ${organisationId}::uuid and last_assigned_user_id = ${reporterId}::uuid`;
    const want = await idsInOrder(server.db, own, 'la', 'status', 'asc');
    const keyless = `${ALL_DATES}&search=la&sort_by=status&sort_order=asc&limit=25&offset=50`;
    await expectListedPage(server, tokens.reporter, keyless, want, 'capped');
  });

  it('lists nothing for a reporter who holds no study, oldest status first or last', async () => {
    for (const direction of ['asc', 'desc']) {
      const page = await listWorklist(server, tokens.idle, query(direction, 0));
      expect({ items: page.items, total: page.total }).toEqual({ items: [], total: 0 });
    }
  });

  it('gives an admin’s assignee filter the same page; another organisation none', async () => {
    const want = await oracle('asc');
    await expectListedPage(
      server,
      tokens.admin,
      `${query('asc', 100)}&by_user_ids=${reporterId}`,
      want,
      'capped',
    );
    const foreign = await server.request(
      'GET',
      `/api/v1/worklist?${query('asc', 0)}&by_user_ids=${reporterId}`,
      {
        token: tokens.foreign,
      },
    );
    expect(foreign.status).toBe(404);
    const theirs = await listWorklist(server, tokens.foreign, query('asc', 0));
    expect(theirs.total).toBe(50);
  });

  it('lists a study of theirs back to be read first, once it is', async () => {
    const [back] = await queryRows<{ id: string }>(
      server.db,
      sql`update studies set status = 'TO_READ'
      where id = (select id from studies where last_assigned_user_id = ${reporterId}::uuid
        and status = 'FINAL' order by created_at limit 1) returning id`,
    );
    const page = await listWorklist(server, tokens.reporter, query('asc', 0));
    expect(page.items[0]?.id).toBe(back?.id);
    expect(page.items.map((item) => item.id)).toEqual((await oracle('asc')).slice(0, 25));
  });
});
