// A keyless text (two letters, no trigram) a quarter of the organisation's studies hold, sorted by a
// column header, deep: once counted up to the cap, its page is walked from the column's sort index
// for as many rows as the text's density says the page's end needs (keylessPrefixOf), where a walk of
// 2,000 rows held a quarter of the 950 matches of offset 900 and every match was then collected and
// sorted (an admin's 60 days of "ri" at 1,000,000 studies: 340 ms). Pages are ORDER BY's for each
// column and direction, the total capped; another organisation's admin sees none of them.
import { WORKLIST_SEARCH_COUNT_CAP } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScope } from '../../../access/scope.ts';
import type { TPrincipal } from '../../../auth/principal.ts';
import { adminPrincipal, tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacilities, buildFacility, buildOrganisation, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { idsInOrder, insertSpreadStudies, SORTED_COLUMNS } from '../../../test/spread-studies.ts';
import { worklistFiltersOf } from '../../../test/worklist-criteria.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { expectListedPage, listWorklist } from '../../../test/worklist-requests.ts';
import { resolveWorklistCriteria } from './worklist-criteria.ts';
import { PREFIX_SEARCH_ENTRIES, PREFIX_SEARCH_ROWS } from './worklist-page-walk.ts';
import { keylessPrefixOf } from './worklist-prefix-budget.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const SEARCH = 'date_range_type=CUSTOM&search=XQ';

let server: TTestServer;
let organisationId = '';
let admin: TPrincipal;
const tokens = { admin: '', otherAdmin: '' };

type TFacility = Awaited<ReturnType<typeof buildFacility>>;

/** Studies 1..count, one every 7 minutes back from NOW; one in four described "Film XQ". */
async function seed(facilities: readonly TFacility[], count: number) {
  await insertSpreadStudies(server.db, facilities, count, {
    accession: sql`'K' || g`,
    patientName: sql`'Patient ' || lpad(((g::bigint * 7919) % 100003)::text, 6, '0')`,
    patientIdentifier: sql`'P' || lpad(((g::bigint * 104729) % 1000003)::text, 7, '0')`,
    description: sql`case when g % 4 = 0 then 'Film XQ' else 'Plain Film' end`,
    modality: sql`'CR'`,
    modalityGroup: sql`'XRAY'`,
    status: sql`(array['TO_READ','FINAL','ORDERED','DRAFTED'])[1 + g % 4]`,
    arrival: sql`${NOW.toISOString()}::timestamptz - g * interval '7 minutes'`,
  });
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  organisationId = (await buildOrganisation(server.db)).id;
  const facilities = await buildFacilities(server.db, organisationId, 2);
  const other = await buildFacility(server.db);
  await seedingStudies(server.db, async () => {
    await seed(facilities, 8_000);
    const adminUser = await buildUser(server.db, { role: 'ADMIN', organisationId });
    admin = adminPrincipal(adminUser, organisationId);
    tokens.admin = await tokenFor(server, adminUser);
    await seed([other], 400);
  });
  tokens.otherAdmin = await tokenFor(
    server,
    await buildUser(server.db, { role: 'ADMIN', organisationId: other.organisationId }),
  );
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

/** ORDER BY's ids of the organisation's listed studies holding "xq", by `column` in `direction`. */
function oracle(column: string, direction: 'asc' | 'desc') {
  return idsInOrder(server.db, sql`organisation_id = ${organisationId}::uuid`, 'xq', column, direction);
}

describe('a keyless text a quarter of the studies hold, sorted by a column, deep', () => {
  it('walks as many rows as the text’s density needs for the page’s end', async () => {
    const page = { limit: 50, offset: 900, sort_by: 'patient_name', sort_order: 'asc' } as const;
    const filters = worklistFiltersOf(`${SEARCH}&sort_by=patient_name&sort_order=asc&limit=50&offset=900`);
    const criteria = await resolveWorklistCriteria(
      server.db,
      await loadScope(server.db, admin),
      filters,
      NOW,
    );
    const prefix = await keylessPrefixOf(server.database, criteria, page, 'patient_name');
    // 950 matches at one in four, and half as many again: some 5,700 rows, of 8,000 entries at least.
    expect(prefix?.rows).toBeGreaterThan(2 * PREFIX_SEARCH_ROWS);
    expect(prefix?.budget).toBeGreaterThanOrEqual(8_000);
    // A first page walks the first rows unsized, without the text's probe; by arrival, walked apart.
    expect(await keylessPrefixOf(server.database, criteria, { ...page, offset: 50 }, 'patient_name')).toEqual(
      {
        budget: PREFIX_SEARCH_ENTRIES,
        rows: PREFIX_SEARCH_ROWS,
        groups: null,
      },
    );
    expect(
      await keylessPrefixOf(server.database, criteria, { ...page, sort_by: 'created_at' }, 'created_at'),
    ).toBe(null);
  });

  it('lists ORDER BY’s page for each column and direction, the total capped', async () => {
    for (const [sortBy, column] of SORTED_COLUMNS) {
      for (const direction of ['asc', 'desc'] as const) {
        const want = await oracle(column, direction);
        expect(want.length).toBeGreaterThan(WORKLIST_SEARCH_COUNT_CAP);
        const query = `${SEARCH}&sort_by=${sortBy}&sort_order=${direction}&limit=50&offset=900`;
        await expectListedPage(server, tokens.admin, query, want, 'capped');
      }
    }
  });

  it('shows another organisation’s admin none of them', async () => {
    const mine = new Set(await oracle('patient_name', 'asc'));
    const other = await listWorklist(server, tokens.otherAdmin, `${SEARCH}&sort_by=patient_name&limit=100`);
    expect(other.total).toBe(100);
    expect(other.items.some((item) => mine.has(item.id))).toBe(false);
  });
});
