// A search sorted by a column whose sort index the modality group leads (modality, study description),
// for a text one group holds alone: "Lumbar Spine" is in MRI studies' descriptions only, and 4,000
// ultrasound studies come first by modality descending ("US" after "MR"). The walk of that index skips
// the groups holding none of the text's matches (worklist-sorted-search.ts, groupsHoldingText), so the
// page is read from the MRI entries rather than collected after every ultrasound entry. Every page
// must be the one ORDER BY … LIMIT … OFFSET gives over the matches, a study of no group holding the
// text among them; another organisation's studies never show. So is a keyless text ("sp", no trigram)
// once counted up to the cap (keylessPrefixOf): "ct" by modality, descending, over an admin's
// 1,000,000 studies read 20,000 nuclear medicine and MRI entries for none of its matches, then
// collected 250,000 (400 ms).
import { MODALITIES, WORKLIST_SEARCH_COUNT_CAP } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/rows.ts';
import { adminPrincipal, tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { resolvedCriteriaOf } from '../../../test/worklist-criteria.ts';
import { listWorklist } from '../../../test/worklist-requests.ts';
import { keylessPrefixOf } from './worklist-prefix-budget.ts';
import { groupsHoldingText } from './worklist-search-modality.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const ALL_DATES = 'date_range_type=CUSTOM';

let server: TTestServer;
let organisationId = '';
let adminToken = '';
let otherAdminToken = '';
let admin: Awaited<ReturnType<typeof buildUser>>;

/**
 * `count` studies of `facility`, one every 10 minutes back from `minutes` before NOW: modality
 * `modality` in group `group`, described `description`, statuses in turn.
 */
async function seed(
  facility: Awaited<ReturnType<typeof buildFacility>>,
  study: { count: number; minutes: number; modality: string; group: string | null; description: string },
) {
  // A fixed accession: a random one ("SM" and 8 of A-Z0-9) held "sp" in one run of about 40.
  const accessionNumber = `${study.modality}-0`;
  await buildStudy(server.db, { facility, patientName: 'Seed', studyDescription: 'Seed', accessionNumber });
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, study_description, modality, modality_group, status, created_at, updated_at)
    select ${facility.organisationId}::uuid, ${facility.id}::uuid,
      (select id from patients where facility_id = ${facility.id}::uuid limit 1),
      ${`${study.modality}-`} || g, 'Patient ' || ((g * 7919) % 1009), ${study.description},
      ${study.modality}, ${study.group}::modality_group,
      (array['TO_READ','ASSIGNED','FINAL','DRAFTED']::study_status[])[1 + g % 4],
      ${NOW.toISOString()}::timestamptz - (${study.minutes}::int + g * 10) * interval '1 minute',
      ${NOW.toISOString()}::timestamptz
    from generate_series(1, ${study.count}::int) g`);
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const organisation = await buildOrganisation(server.db);
  organisationId = organisation.id;
  const facility = await buildFacility(server.db, { organisationId });
  admin = await buildUser(server.db, { role: 'ADMIN', organisationId });
  const otherFacility = await buildFacility(server.db);
  await seedingStudies(server.db, async () => {
    // Interleaved in time, so the newest studies hold the text densely (the walk's probe).
    await seed(facility, {
      count: 1_500,
      minutes: 0,
      modality: 'MR',
      group: 'MRI',
      description: 'Lumbar Spine',
    });
    await seed(facility, { count: 4_000, minutes: 5, modality: 'US', group: 'USG', description: 'Abdomen' });
    await seed(facility, { count: 300, minutes: 3, modality: 'NM', group: 'NM', description: 'Bone Scan' });
    // A study of no group holding the text, first by modality descending.
    await seed(facility, { count: 3, minutes: 7, modality: 'ZZ', group: null, description: 'Lumbar Spine' });
    await seed(otherFacility, {
      count: 200,
      minutes: 1,
      modality: 'MR',
      group: 'MRI',
      description: 'Lumbar Spine',
    });
  });
  const otherAdmin = await buildUser(server.db, {
    role: 'ADMIN',
    organisationId: otherFacility.organisationId,
  });
  adminToken = await tokenFor(server, admin);
  otherAdminToken = await tokenFor(server, otherAdmin);
  // The groups' estimates come from the modality-keyed index's statistics.
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

/** The oracle: the organisation's listed studies holding `text`, in the column's order. */
async function oracle(
  column: 'modality' | 'study_description',
  direction: 'asc' | 'desc',
  text = 'lumbar spine',
) {
  const order = sql.raw(`${column} ${direction}, id ${direction}`);
  return queryRows<{ id: string }>(
    server.db,
    sql`select id from studies
      where organisation_id = ${organisationId}::uuid and status <> 'DELETED'
        and strpos(search_text, ${text}) > 0
      order by ${order}`,
  );
}

const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

describe('a search sorted by a group-led column, for a text one group holds alone', () => {
  it('finds the groups that hold the text', async () => {
    const holding = await groupsHoldingText(server.db, {
      organisationId,
      searchText: 'lumbar spine',
      groups: MODALITIES,
    });
    expect(holding).toEqual(['MRI']);
    // A text every study of a group holds is never ruled out.
    const abdomen = await groupsHoldingText(server.db, {
      organisationId,
      searchText: 'Abdomen',
      groups: ['USG'],
    });
    expect(abdomen).toEqual(['USG']);
    // Names every group with studies holds; the groups without studies are probed and left out.
    const named = await groupsHoldingText(server.db, {
      organisationId,
      searchText: 'Patient',
      groups: MODALITIES,
    });
    expect(named).toEqual(['USG', 'MRI', 'NM']);
  });

  it('walks the MRI entries past the ultrasound ones, pages as the oracle', async () => {
    const want = await oracle('modality', 'desc');
    expect(want.length).toBeGreaterThan(WORKLIST_SEARCH_COUNT_CAP);
    for (const offset of [0, 100, 700]) {
      const page = await listWorklist(
        server,
        adminToken,
        `${ALL_DATES}&search=lumbar%20spine&sort_by=modality&sort_order=desc&limit=25&offset=${offset}`,
      );
      expect(ids(page.items), `offset ${offset}`).toEqual(ids(want.slice(offset, offset + 25)));
      // Walked (the count stops at the cap), not collected (which counts every match).
      expect({ total: page.total, capped: page.total_capped }).toEqual({
        total: WORKLIST_SEARCH_COUNT_CAP,
        capped: true,
      });
    }
  });

  it('sorts by study description either way, and by modality ascending, as the oracle', async () => {
    for (const [column, by, direction] of [
      ['study_description', 'study', 'asc'],
      ['study_description', 'study', 'desc'],
      ['modality', 'modality', 'asc'],
    ] as const) {
      const want = await oracle(column, direction);
      const page = await listWorklist(
        server,
        adminToken,
        `${ALL_DATES}&search=lumbar%20spine&sort_by=${by}&sort_order=${direction}&limit=50&offset=20`,
      );
      expect(ids(page.items), `${by} ${direction}`).toEqual(ids(want.slice(20, 70)));
    }
  });

  it('keeps a modality filter, and shows another organisation none of these studies', async () => {
    const nuclear = await listWorklist(
      server,
      adminToken,
      `${ALL_DATES}&modalities=NM&search=lumbar%20spine&sort_by=modality&sort_order=desc&limit=25`,
    );
    expect(nuclear.items).toEqual([]);
    const want = ids(await oracle('modality', 'desc'));
    const other = await listWorklist(
      server,
      otherAdminToken,
      `${ALL_DATES}&search=lumbar%20spine&sort_by=modality&sort_order=desc&limit=100`,
    );
    expect(other.items.some((item) => want.includes(item.id))).toBe(false);
    expect(other.total).toBe(200);
  });
});

describe('a keyless text one group holds alone, sorted by a group-led column', () => {
  it('walks only the groups that may hold it', async () => {
    const page = { limit: 25, offset: 0, sort_by: 'modality', sort_order: 'desc' } as const;
    const query = `${ALL_DATES}&search=sp&sort_by=modality&sort_order=desc&limit=25`;
    const criteria = await resolvedCriteriaOf(server.db, adminPrincipal(admin, organisationId), query, NOW);
    expect(criteria.searchKeyed).toBe(false);
    expect((await keylessPrefixOf(server.database, criteria, page, 'modality'))?.groups).toEqual(['MRI']);
    const byName = { ...page, sort_by: 'patient_name' } as const;
    expect((await keylessPrefixOf(server.database, criteria, byName, 'patient_name'))?.groups).toBe(null);
  });

  it('pages as the oracle by modality and study description, either way', async () => {
    for (const [column, by, direction, offset] of [
      ['modality', 'modality', 'desc', 0],
      ['modality', 'modality', 'desc', 300],
      ['modality', 'modality', 'asc', 40],
      ['study_description', 'study', 'desc', 0],
      ['study_description', 'study', 'asc', 500],
    ] as const) {
      const want = await oracle(column, direction, 'sp');
      expect(want.length).toBeGreaterThan(WORKLIST_SEARCH_COUNT_CAP);
      const page = await listWorklist(
        server,
        adminToken,
        `${ALL_DATES}&search=sp&sort_by=${by}&sort_order=${direction}&limit=25&offset=${offset}`,
      );
      expect(ids(page.items), `${by} ${direction} ${offset}`).toEqual(ids(want.slice(offset, offset + 25)));
      expect({ total: page.total, capped: page.total_capped }).toEqual({
        total: WORKLIST_SEARCH_COUNT_CAP,
        capped: true,
      });
    }
    // A modality filter of groups that hold none of it lists nothing.
    const filtered = await listWorklist(
      server,
      adminToken,
      `${ALL_DATES}&modalities=NM&modalities=USG&search=sp&sort_by=modality&sort_order=desc&limit=25`,
    );
    expect(filtered.items).toEqual([]);
  });
});
