// A keyless search ("ab") whose pairs of characters most studies hold (the pair index's statistics,
// worklist-keyless-plan.ts, holdsCommonPairs) is read by testing each row's text alone: the tabs'
// counts and the list must be the oracle's (strpos over the statuses), deleted studies counted for an
// admin beside them, and a rare pair keeps its index.
import { STUDY_STATUSES } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/rows.ts';
import { buildPatient } from '../../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { searchOrganisations, type TSeededFacility } from '../../../test/worklist-search-organisations.ts';
import { countWorklist, listWorklist } from '../../../test/worklist-requests.ts';
import { holdsCommonPairs } from './worklist-keyless-plan.ts';
import { foldedSearchText, pairKeysFor } from './worklist-search-stats.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const MONTH = 'date_range_type=LAST_1_MONTH';
let server: TTestServer;
let organisationId = '';
let foreignOrganisationId = '';
let staffFacility = '';
let tokens = { admin: '', radiologist: '', foreign: '' };

/** 900 studies of `facility`, two hours apart: "Abdomen" on two in three, statuses in turn. */
async function seed(facility: TSeededFacility) {
  const patient = await buildPatient(server.db, { facility });
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, study_description, status, created_at)
    select ${facility.organisationId}::uuid, ${facility.id}::uuid, ${patient.id}::uuid, 'CP' || g,
      'Patient ' || g, case when g % 3 = 0 then 'Chest PA' else 'US Abdomen' end,
      (array['ORDERED','TO_READ','ASSIGNED','IN_REVIEW','DRAFTED','FINAL','FINAL','DELETED']::study_status[])[1 + g % 8],
      ${NOW.toISOString()}::timestamptz - g * interval '2 hours'
    from generate_series(1, 900) g`);
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  ({ organisationId, staffFacility, foreignOrganisationId, tokens } = await searchOrganisations(
    server,
    seed,
  ));
});

afterAll(async () => server.close());

/** The oracle: per status, the organisation's (or one facility's) studies of the month holding `text`. */
async function oracle(text: string, options: { facility?: string; organisation?: string } = {}) {
  const rows = await queryRows<{ status: string; n: number; ids: string[] }>(
    server.db,
    sql`select status::text as status, count(*)::int as n,
        array_agg(id::text order by created_at desc, id desc) as ids
      from studies where organisation_id = ${options.organisation ?? organisationId}::uuid
        and (${options.facility ?? null}::uuid is null or facility_id = ${options.facility ?? null}::uuid)
        and created_at >= ${new Date(NOW.getTime() - 30 * 86_400_000).toISOString()}::timestamptz
        and strpos(search_text, lower(ris_unaccent(${text}))) > 0
      group by status`,
  );
  return new Map(rows.map((row) => [row.status, row]));
}

describe('a keyless search whose pairs most studies hold', () => {
  it('is told from the pair index’s statistics', async () => {
    expect(await holdsCommonPairs(server.db, await pairKeysFor(server.db, 'ab'))).toBe(true);
    expect(await holdsCommonPairs(server.db, await pairKeysFor(server.db, 'AB'))).toBe(true);
    expect(await holdsCommonPairs(server.db, await pairKeysFor(server.db, 'zq'))).toBe(false);
    // A text without pairs is told by its single characters (migration 0045): "a" is in every study,
    // "q" in none, and one of digits has no key.
    expect(await holdsCommonPairs(server.db, await pairKeysFor(server.db, 'a'))).toBe(true);
    expect(await holdsCommonPairs(server.db, await pairKeysFor(server.db, 'q'))).toBe(false);
    expect(await holdsCommonPairs(server.db, await pairKeysFor(server.db, '7'))).toBe(false);
    // Folded by PostgreSQL's rules, which Unicode's decomposition does not know: "Đ" is a "d", which
    // "Abdomen" holds.
    expect(await holdsCommonPairs(server.db, await pairKeysFor(server.db, 'Đ'))).toBe(true);
  });

  it('makes a text’s keys as PostgreSQL does, and none for digits and spaces', async () => {
    const texts = [
      'ab',
      'AB',
      'a',
      'Q',
      '7 q',
      'i w',
      "o'b",
      '12',
      '4 5',
      ' 7 ',
      'x-ray',
      'A1',
      'Đ',
      'ß',
      'Łó',
      'Ħead',
      'ø',
      '\u0085',
      'a\u00a0b',
      '\u3000',
      '²',
      '李',
      'Я в',
    ];
    for (const text of texts) {
      const [row] = await queryRows<{ keys: string[]; folded: string }>(
        server.db,
        sql`select ris_search_query_pairs(${text}) as keys, lower(ris_unaccent(${text})) as folded`,
      );
      const want = [...new Set(row?.keys ?? [])].sort();
      expect({ text, keys: [...(await pairKeysFor(server.db, text))].sort() }).toEqual({ text, keys: want });
      // The folding every index's estimate starts from (the open studies' and modality-keyed ones too).
      expect({ text, folded: await foldedSearchText(server.db, text) }).toEqual({
        text,
        folded: row?.folded,
      });
    }
    expect(await pairKeysFor(server.db, '12 3')).toEqual([]);
    expect(await pairKeysFor(server.db, 'ß')).toEqual(['ss']);
  });

  it('counts an admin’s tabs and deleted studies, and a radiologist’s, exactly as the oracle', async () => {
    for (const [token, facility] of [
      [tokens.admin, undefined],
      [tokens.radiologist, staffFacility],
    ] as const) {
      const want = await oracle('ab', { facility });
      const tabs = await countWorklist(server, token, `${MONTH}&search=ab`);
      expect(tabs.capped).toBe(false);
      for (const status of STUDY_STATUSES) {
        const expected = status === 'DELETED' && facility !== undefined ? 0 : (want.get(status)?.n ?? 0);
        expect(tabs.statuses[status], status).toBe(expected);
      }
      expect(tabs.statuses.FINAL).toBeGreaterThan(0);
    }
  });

  it('lists the oracle’s pages, and another organisation’s own', async () => {
    const want = await oracle('ab');
    const final = want.get('FINAL')?.ids ?? [];
    const page = await listWorklist(
      server,
      tokens.admin,
      `${MONTH}&search=ab&statuses=FINAL&limit=25&offset=5`,
    );
    expect(page.items.map((item) => item.id)).toEqual(final.slice(5, 30));
    expect(page.total).toBe(final.length);
    const foreign = await listWorklist(server, tokens.foreign, `${MONTH}&search=ab&statuses=FINAL&limit=100`);
    const foreignWant = (await oracle('ab', { organisation: foreignOrganisationId })).get('FINAL')?.ids ?? [];
    expect(foreign.items.map((item) => item.id)).toEqual(foreignWant.slice(0, 100));
  });
});
