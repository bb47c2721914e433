// A priority filter sorted by priority (worklist-sort-index.ts, sortedColumnBounds): the walk of the
// priority sort index begins at the first tag kept and ends at the last, so the untagged studies
// (the archive's most, first when descending) are never read. Before, an admin's CT and X-ray tagged
// routine or urgent over all dates walked 100,000 untagged entries for none of its page, then
// collected its 14,000 matches (42-116 ms at 1,000,000 studies). The pages are ORDER BY's, both ways,
// for an admin, a radiologist of one facility and tags apart in the enum's order (the tags between
// them walked, none kept); the tabs are count(*)'s; another organisation's admin gets 404.
import type { TStudyStatus } from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/rows.ts';
import { adminPrincipal, adminTokenFor, tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacilities, buildFacility, buildOrganisation, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { insertSpreadStudies } from '../../../test/spread-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { resolvedCriteriaOf } from '../../../test/worklist-criteria.ts';
import { countWorklist, expectListedPage, listWorklist } from '../../../test/worklist-requests.ts';
import { prefixWalkSql } from './worklist-page-walk.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
/** Untagged studies: more than a prefix walk's first entries (PREFIX_WALK_ENTRIES). */
const UNTAGGED = 6_000;
/** Tagged studies, cycling through four tags and three modality groups. */
const TAGGED = 9_000;
const TAGS = ['URGENT', 'ROUTINE', 'EMERGENCY', 'FOLLOW_UP'];
const ALL_DATES = 'date_range_type=CUSTOM';
const FILTER = 'modalities=CT&modalities=XRAY&priority_tags=ROUTINE&priority_tags=URGENT';

let server: TTestServer;
let organisationId = '';
let adminId = '';
let facilityIds: string[] = [];
const tokens = { admin: '', radiologist: '', foreign: '' };

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  organisationId = (await buildOrganisation(server.db)).id;
  const facilities = await buildFacilities(server.db, organisationId, 2);
  facilityIds = facilities.map((facility) => facility.id);
  const admin = await buildUser(server.db, { role: 'ADMIN', organisationId });
  adminId = admin.id;
  tokens.admin = await tokenFor(server, admin);
  tokens.radiologist = await tokenFor(
    server,
    await buildUser(server.db, { role: 'RADIOLOGIST', facilities: facilities.slice(0, 1) }),
  );
  const columns = (tagged: boolean) => ({
    accession: sql.raw(`'${tagged ? 'T' : 'U'}' || g`),
    patientName: sql`'Patient ' || g`,
    patientIdentifier: sql`'P' || g`,
    description: sql`'Chest'`,
    modality: sql`(array['CT','CR','MR'])[1 + g % 3]`,
    modalityGroup: sql`(array['CT','XRAY','MRI'])[1 + g % 3]`,
    status: sql`(array['ORDERED','TO_READ','ASSIGNED','DRAFTED','FINAL','DELETED'])[1 + (g / 12) % 6]`,
    priorityTag: tagged ? sql.raw(`(array['${TAGS.join("','")}'])[1 + (g / 3) % 4]`) : sql`null`,
    // Spread over two years, the tagged among the untagged.
    arrival: sql`${NOW.toISOString()}::timestamptz - g * interval '${sql.raw(tagged ? '150' : '175')} minutes'`,
  });
  const foreign = await buildFacility(server.db);
  await seedingStudies(server.db, async () => {
    await insertSpreadStudies(server.db, facilities, UNTAGGED, columns(false));
    await insertSpreadStudies(server.db, facilities, TAGGED, columns(true));
    await insertSpreadStudies(server.db, [foreign], 300, { ...columns(true), accession: sql`'F' || g` });
  });
  tokens.foreign = await adminTokenFor(server, foreign.organisationId);
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

/** ORDER BY's ids of the organisation's listed studies (of `facility`) that `tags` and the groups keep. */
async function oracle(tags: readonly string[], direction: 'asc' | 'desc', facility: string | null = null) {
  const order = sql.raw(`order by priority_tag ${direction}, id ${direction}`);
  const rows = await queryRows<{ id: string }>(
    server.db,
    sql`select id from studies where organisation_id = ${organisationId}::uuid
      and (${facility}::uuid is null or facility_id = ${facility}::uuid)
      and status <> 'DELETED' and modality_group in ('CT', 'XRAY')
      and priority_tag = any(${`{${tags.join(',')}}`}::priority_tag[]) ${order}`,
  );
  return rows.map((row) => row.id);
}

/** Open studies (the tabs' statuses) tagged follow-up, by study date (planned: worklist-plan-mode.ts). */
const openQuery = (offset: number, limit = 25) =>
  `${ALL_DATES}&statuses=ORDERED&statuses=TO_READ&statuses=ASSIGNED&statuses=DRAFTED&priority_tags=FOLLOW_UP` +
  `&sort_by=datetime&sort_order=desc&limit=${limit}&offset=${offset}`;
const tagsQuery = (tags: readonly string[]) => tags.map((tag) => `priority_tags=${tag}`).join('&');
const query = (tags: readonly string[], direction: string, offset: number, extra = '') =>
  `${ALL_DATES}&modalities=CT&modalities=XRAY&${tagsQuery(tags)}&sort_by=priority_tag` +
  `&sort_order=${direction}&limit=25&offset=${offset}${extra}`;

describe('a priority filter sorted by priority', () => {
  it('walks the sort index from the first tag kept: its first entries hold the page, untagged or not', async () => {
    const principal = adminPrincipal({ id: adminId, email: 'admin@example.test' }, organisationId);
    for (const direction of ['desc', 'asc'] as const) {
      const criteria = await resolvedCriteriaOf(
        server.db,
        principal,
        query(['ROUTINE', 'URGENT'], direction, 0),
        NOW,
      );
      const page = { limit: 25, offset: 0, sort_by: 'priority_tag', sort_order: direction } as const;
      // Fewer entries than the untagged studies: descending, they would all come first.
      const walk = prefixWalkSql(server.db, criteria, page, 'priority_tag', sql`2000::bigint`);
      if (!walk) throw new Error('no prefix walk');
      const rows = await queryRows<{ id: string }>(server.db, walk);
      expect(rows.map((row) => row.id)).toEqual(
        (await oracle(['ROUTINE', 'URGENT'], direction)).slice(0, 25),
      );
    }
  });

  it('gives the admin ORDER BY’s pages both ways, with the exact total', async () => {
    for (const tags of [['ROUTINE', 'URGENT'], ['URGENT', 'FOLLOW_UP'], ['EMERGENCY']]) {
      for (const direction of ['desc', 'asc'] as const) {
        const want = await oracle(tags, direction);
        expect(want.length).toBeGreaterThan(0);
        for (const offset of [0, 25, Math.max(0, want.length - 10)]) {
          await expectListedPage(server, tokens.admin, query(tags, direction, offset), want, 'exact');
        }
      }
    }
    // More than COLLECT_AT_MOST: the prefix walk, not the collected matches.
    expect((await oracle(['ROUTINE', 'URGENT'], 'desc')).length).toBeGreaterThan(2_000);
  });

  it('gives a radiologist their facility’s pages, and an admin’s facility filter the same', async () => {
    const facility = facilityIds[0] ?? '';
    for (const direction of ['desc', 'asc'] as const) {
      const want = await oracle(['ROUTINE', 'URGENT'], direction, facility);
      for (const offset of [0, 500]) {
        const mine = query(['ROUTINE', 'URGENT'], direction, offset);
        await expectListedPage(server, tokens.radiologist, mine, want, 'exact');
        await expectListedPage(server, tokens.admin, `${mine}&facility_ids=${facility}`, want, 'exact');
      }
    }
  });

  it('counts each status as count(*)', async () => {
    const counts = await countWorklist(server, tokens.admin, `${ALL_DATES}&${FILTER}`);
    const rows = await queryRows<{ status: TStudyStatus; n: number }>(
      server.db,
      sql`select status, count(*)::int as n from studies where organisation_id = ${organisationId}::uuid
        and modality_group in ('CT', 'XRAY') and priority_tag in ('ROUTINE', 'URGENT') group by status`,
    );
    expect(rows.length).toBe(6);
    for (const row of rows) expect(counts.statuses[row.status] ?? 0, row.status).toBe(row.n);
    expect(counts.capped).toBe(false);
  });

  it('pages open studies of a tag by study date as ORDER BY does', async () => {
    const open = sql`status in ('ORDERED', 'TO_READ', 'ASSIGNED', 'DRAFTED')`;
    const rows = await queryRows<{ id: string }>(
      server.db,
      sql`select id from studies where organisation_id = ${organisationId}::uuid and ${open}
        and priority_tag = 'FOLLOW_UP' order by study_datetime desc, id desc`,
    );
    const want = rows.map((row) => row.id);
    expect(want.length).toBeGreaterThan(50);
    for (const offset of [0, 25]) {
      await expectListedPage(server, tokens.admin, openQuery(offset), want, 'exact');
    }
  });

  it('lists another organisation’s admin none of them, and 404 for this one’s facility', async () => {
    const theirs = await listWorklist(server, tokens.foreign, query(['ROUTINE', 'URGENT'], 'desc', 0));
    expect(theirs.items.every((item) => item.accession_number.startsWith('F'))).toBe(true);
    const before: SQL = sql`select count(*)::int as n from studies where organisation_id = ${organisationId}::uuid`;
    const [count] = await queryRows<{ n: number }>(server.db, before);
    const response = await server.request(
      'GET',
      `/api/v1/worklist?${query(['ROUTINE', 'URGENT'], 'desc', 0, `&facility_ids=${facilityIds[0]}`)}`,
      { token: tokens.foreign },
    );
    expect(response.status).toBe(404);
    expect((await queryRows<{ n: number }>(server.db, before))[0]).toEqual(count);
  });
});
