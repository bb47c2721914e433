// A search text with accents or other letters folding makes ASCII ("Zsó", "Dvoř", "Straß") holds
// trigram keys once folded as search_text is, so the keyed indexes find its candidates as they find
// "zso"'s (searchKeyed); a text that stays non-ASCII ("Иван") or has fewer than three letters in a
// row once folded ("Sø") is found by its pairs, as before. Pages and counts match the oracle for an
// admin, a radiologist of one facility and another organisation's admin.
import { WORKLIST_SEARCH_COUNT_CAP } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScope } from '../../../access/scope.ts';
import { queryRows } from '../../../db/rows.ts';
import { adminPrincipal } from '../../../test/auth-helpers.ts';
import { buildPatient } from '../../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { searchOrganisations, type TSeededFacility } from '../../../test/worklist-search-organisations.ts';
import { worklistFiltersOf } from '../../../test/worklist-criteria.ts';
import { countWorklist, listWorklist } from '../../../test/worklist-requests.ts';
import { resolveWorklistCriteria } from './worklist-criteria.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const MONTH = 'date_range_type=LAST_1_MONTH';
const ALL = 'date_range_type=CUSTOM';
/**
 * Studies a facility has: one every 36 minutes back from NOW, 60 days' worth; more than are tested one
 * by one (SEARCH_IN_RANGE_AT_MOST), so the keyed indexes find a search's candidates.
 */
const STUDIES = 2_400;
const NAMES = ['Nagy Zsófia', 'Kiss Zsolt', 'Dvořák Tomáš', 'Straße Søren', 'Петров Иван', 'Smith John'];
let server: TTestServer;
let organisationId = '';
let staffFacility = '';
let foreignOrganisationId = '';
let admin = { id: '', email: '' };
let tokens = { admin: '', radiologist: '', foreign: '' };

/** STUDIES studies of `facility`, named in turn from NAMES, the newest To read and the older Final. */
async function seed(facility: TSeededFacility) {
  const patient = await buildPatient(server.db, { facility });
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, study_datetime, study_description, status, created_at)
    select ${facility.organisationId}::uuid, ${facility.id}::uuid, ${patient.id}::uuid, 'FK' || g,
      (string_to_array(${NAMES.join('|')}, '|'))[1 + g % ${NAMES.length}], ${NOW.toISOString()}::timestamptz - g * interval '36 minutes',
      case when g % 3 = 0 then 'CT Brain' else 'MRI Knee' end,
      (case when g <= 200 then 'TO_READ' else 'FINAL' end)::study_status,
      ${NOW.toISOString()}::timestamptz - g * interval '36 minutes'
    from generate_series(${STUDIES}::int, 1, -1) g`);
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  ({ organisationId, staffFacility, foreignOrganisationId, admin, tokens } = await searchOrganisations(
    server,
    seed,
  ));
});

afterAll(async () => server.close());

/** An admin's criteria for `query`, as the list route resolves them. */
async function criteriaOf(query: string) {
  const scope = await loadScope(server.db, adminPrincipal(admin, organisationId));
  return resolveWorklistCriteria(server.db, scope, worklistFiltersOf(query), NOW);
}

/** The ids of an organisation's (or a facility's) studies holding `text` once folded, in `order`. */
async function oracle(
  text: string,
  options: { organisation?: string; facility?: string; monthOnly: boolean; order: 'arrival' | 'name' },
) {
  const from = options.monthOnly ? new Date(NOW.getTime() - 30 * 86_400_000).toISOString() : null;
  const order = options.order === 'name' ? sql`patient_name asc, id asc` : sql`created_at desc, id desc`;
  const rows = await queryRows<{ id: string }>(
    server.db,
    sql`select id::text as id from studies where organisation_id = ${options.organisation ?? organisationId}::uuid
      and (${options.facility ?? null}::uuid is null or facility_id = ${options.facility ?? null}::uuid)
      and (${from}::timestamptz is null or created_at >= ${from}::timestamptz)
      and strpos(search_text, lower(ris_unaccent(${text}))) > 0
      order by ${order}`,
  );
  return rows.map((row) => row.id);
}

/**
 * Lists `query` as `token` and asserts its page is `want`'s (the oracle's order) from the query's
 * offset, its total exact, or capped where the matches pass the cap.
 */
async function expectPage(token: string, query: string, want: readonly string[]) {
  const params = new URLSearchParams(query);
  const offset = Number(params.get('offset') ?? 0);
  const page = await listWorklist(server, token, query);
  expect(
    page.items.map((item) => item.id),
    query,
  ).toEqual(want.slice(offset, offset + Number(params.get('limit'))));
  if (page.total_capped) {
    expect({ total: page.total, more: want.length > WORKLIST_SEARCH_COUNT_CAP }, query).toEqual({
      total: WORKLIST_SEARCH_COUNT_CAP,
      more: true,
    });
  } else {
    expect(page.total, query).toBe(want.length);
  }
}

describe('a search text folded to ASCII letters', () => {
  it('is found by its trigram keys; one without them once folded by its pairs', async () => {
    for (const text of ['Zsó', 'zso', 'DVOŘ', 'Straß', 'øre']) {
      const criteria = await criteriaOf(`${MONTH}&search=${encodeURIComponent(text)}`);
      expect({ text, keyed: criteria.searchKeyed, pairs: criteria.searchPairKeys }).toEqual({
        text,
        keyed: true,
        pairs: [],
      });
      // A month of more studies than are tested one by one: the week-keyed index finds them.
      expect(criteria.searchWeeks?.length, text).toBeGreaterThan(0);
    }
    for (const text of ['Иван', 'Sø', 'ř 7']) {
      const criteria = await criteriaOf(`${MONTH}&search=${encodeURIComponent(text)}`);
      expect({ text, keyed: criteria.searchKeyed, weeks: criteria.searchWeeks }).toEqual({
        text,
        keyed: false,
        weeks: null,
      });
      expect(criteria.searchPairKeys.length, text).toBeGreaterThan(0);
    }
  });

  it('lists an admin’s pages as the oracle, by arrival and by name, over a month and all dates', async () => {
    for (const text of ['Zsó', 'ZSÓF', 'dvoř', 'Straß', 'tomáš', 'Иван', 'Sø']) {
      const search = `search=${encodeURIComponent(text)}`;
      for (const [range, monthOnly] of [
        [MONTH, true],
        [ALL, false],
      ] as const) {
        const byArrival = await oracle(text, { monthOnly, order: 'arrival' });
        expect(byArrival.length, text).toBeGreaterThan(100);
        for (const offset of [0, 75]) {
          await expectPage(tokens.admin, `${range}&${search}&limit=25&offset=${offset}`, byArrival);
        }
        const byName = await oracle(text, { monthOnly, order: 'name' });
        await expectPage(
          tokens.admin,
          `${range}&${search}&limit=25&sort_by=patient_name&sort_order=asc`,
          byName,
        );
      }
    }
  });

  it('counts "Zsó" as "zso": Zsófia and Zsolt', async () => {
    for (const range of [MONTH, ALL]) {
      const tabs = await countWorklist(server, tokens.admin, `${range}&search=${encodeURIComponent('Zsó')}`);
      expect(tabs, range).toEqual(await countWorklist(server, tokens.admin, `${range}&search=zso`));
    }
    // Two of the six names in a facility's newest 200 studies, To read: 67 of each facility's.
    const open = await countWorklist(
      server,
      tokens.radiologist,
      `${ALL}&search=${encodeURIComponent('ZSÓ')}`,
    );
    expect({ capped: open.capped, TO_READ: open.statuses.TO_READ }).toEqual({ capped: false, TO_READ: 67 });
  });

  it('answers texts that fold oddly as the oracle does', async () => {
    // Ligatures, letters folding to two, LIKE's metacharacters once folded, full-width letters.
    for (const text of ['ﬃ', 'Æsa', 'aße S', 'ǅo', 'a％b', 'İSTAN', 'Ｚｓｏ', 'øre %', 'straß_']) {
      for (const range of [MONTH, ALL]) {
        const want = await oracle(text, { monthOnly: range === MONTH, order: 'arrival' });
        await expectPage(tokens.admin, `${range}&search=${encodeURIComponent(text)}&limit=25`, want);
      }
    }
  });

  it('keeps a radiologist’s and another organisation’s searches to their own studies', async () => {
    for (const text of ['Zsó', 'Dvoř']) {
      const search = `search=${encodeURIComponent(text)}`;
      const staff = await oracle(text, { facility: staffFacility, monthOnly: false, order: 'arrival' });
      await expectPage(tokens.radiologist, `${ALL}&${search}&limit=25&offset=25`, staff);
      const month = await oracle(text, { facility: staffFacility, monthOnly: true, order: 'name' });
      await expectPage(
        tokens.radiologist,
        `${MONTH}&${search}&limit=25&sort_by=patient_name&sort_order=asc`,
        month,
      );
      const foreign = await oracle(text, {
        organisation: foreignOrganisationId,
        monthOnly: false,
        order: 'arrival',
      });
      expect(foreign.length, text).toBeGreaterThan(25);
      await expectPage(tokens.foreign, `${ALL}&${search}&limit=25`, foreign);
    }
  });
});
