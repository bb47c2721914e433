// GET /worklist searched in the open studies' tabs (Ordered, In progress): the open studies' index
// (worklist-search-open.ts, migration 0042) finds the candidates when its statistics say few open
// studies hold the text, and a caller whose tab holds few studies has each one's text tested. Pages
// must be the oracle's (ORDER BY over strpos and the statuses), totals exact, for an admin, a
// radiologist's facilities and a reporter's own studies, sorted by another column too, keyless
// texts included; closed studies, other facilities and other organisations are never found.
import {
  statusesOfGroup,
  ZWorklistFilters,
  type TStudyStatus,
  type TWorklistListResponse,
} from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScope } from '../../../access/scope.ts';
import type { TPrincipal } from '../../../auth/principal.ts';
import { queryRows } from '../../../db/rows.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { listWorklist } from '../../../test/worklist-requests.ts';
import { resolveWorklistCriteria } from './worklist-criteria.ts';
import { searchesOpen } from './worklist-search-open.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const ALL_DATES = 'date_range_type=CUSTOM';
const ORDERED = statusesOfGroup('ORDERED');
const IN_PROGRESS = statusesOfGroup('ON_PROGRESS');
const tab = (statuses: readonly TStudyStatus[]) => statuses.map((status) => `statuses=${status}`).join('&');

let server: TTestServer;
let organisationId = '';
const tokens = { admin: '', radiologist: '', reporter: '', foreign: '' };
let principals: { admin: TPrincipal; reporter: TPrincipal };
let staffFacilities: string[] = [];
let reporterId = '';
let foreignOrganisationId = '';

/**
 * Studies g (from..from+count-1) of `facility`, one every 30 minutes back from NOW: "Bone Scan" when
 * g is a multiple of 37, else "CT Head"; patient "Abbott" when g is a multiple of 53; open (one of the
 * five open statuses) when g % 10 < 5, deleted when g % 20 = 5, final otherwise; assigned to the
 * reporter when g is even (more studies than are tested one by one, their open ones fewer).
 */
async function seed(facility: Awaited<ReturnType<typeof buildFacility>>, from: number, count: number) {
  await buildStudy(server.db, { facility, patientName: 'Seed', studyDescription: 'Seed' });
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, patient_identifier, study_description, modality, modality_group, status, created_at,
      updated_at, study_datetime, last_assigned_user_id)
    select ${facility.organisationId}::uuid, ${facility.id}::uuid,
      (select id from patients where facility_id = ${facility.id}::uuid limit 1), 'B' || g || '-' || ${from}::int,
      case when g % 53 = 0 then 'Abbott Jo' else 'Patient ' || g end,
      'P' || lpad(((g * 7919) % 10007)::text, 5, '0'),
      case when g % 37 = 0 then 'Bone Scan' else 'CT Head' end, 'CT', 'CT'::modality_group,
      (case when g % 10 < 5 then (array['ORDERED','TO_READ','ASSIGNED','IN_REVIEW','DRAFTED'])[g % 10 + 1]
        when g % 20 = 5 then 'DELETED' else 'FINAL' end)::study_status,
      ${NOW.toISOString()}::timestamptz - g * interval '30 minutes',
      ${NOW.toISOString()}::timestamptz - g * interval '30 minutes',
      ${NOW.toISOString()}::timestamptz - (g * 30 + g % 97) * interval '1 minute',
      case when g % 2 = 0 then ${reporterId}::uuid end
    from generate_series(${from}::int, ${from + count - 1}::int) g`);
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  organisationId = (await buildOrganisation(server.db)).id;
  const [a, b, notTheirs] = [
    await buildFacility(server.db, { organisationId }),
    await buildFacility(server.db, { organisationId }),
    await buildFacility(server.db, { organisationId }),
  ];
  staffFacilities = [a.id, b.id];
  const admin = await buildUser(server.db, { role: 'ADMIN', organisationId });
  const radiologist = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [a, b] });
  const reporter = await buildUser(server.db, {
    role: 'RADIOLOGIST',
    userType: 'REPORTER',
    facilities: [a, b],
  });
  reporterId = reporter.id;
  const foreignFacility = await buildFacility(server.db);
  foreignOrganisationId = foreignFacility.organisationId;
  await seedingStudies(server.db, async () => {
    await seed(a, 1, 3_000);
    await seed(b, 5_001, 3_000);
    await seed(notTheirs, 10_001, 3_000);
    await seed(foreignFacility, 1, 600);
  });
  const foreign = await buildUser(server.db, {
    role: 'ADMIN',
    organisationId: foreignFacility.organisationId,
  });
  tokens.admin = await tokenFor(server, admin);
  tokens.radiologist = await tokenFor(server, radiologist);
  tokens.reporter = await tokenFor(server, reporter);
  tokens.foreign = await tokenFor(server, foreign);
  const base = { email: '', sessionId: '', issuedAt: 0, organisationId } as const;
  principals = {
    admin: { ...base, userId: admin.id, role: 'ADMIN', userType: null, facilityIds: [] },
    reporter: {
      ...base,
      userId: reporter.id,
      role: 'RADIOLOGIST',
      userType: 'REPORTER',
      facilityIds: staffFacilities,
    },
  };
  // The index's statistics decide (the key frequencies of migration 0042's expression).
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

type TOracle = {
  facilities?: string[];
  assignee?: string;
  by?: string;
  asc?: boolean;
  organisation?: string;
};

/** The oracle: the studies in `statuses` holding the text (strpos), in the page's order. */
async function oracle(text: string, statuses: readonly TStudyStatus[], options: TOracle = {}) {
  const direction = sql.raw(options.asc ? 'asc' : 'desc');
  const by = sql.raw(options.by ?? 'created_at');
  const within = options.facilities
    ? sql`facility_id::text = any(string_to_array(${options.facilities.join(',')}, ','))`
    : sql`true`;
  const assigned = options.assignee ? sql`last_assigned_user_id = ${options.assignee}::uuid` : sql`true`;
  const rows = await queryRows<{ id: string }>(
    server.db,
    sql`select id from studies
      where organisation_id = ${options.organisation ?? organisationId}::uuid and ${within} and ${assigned}
        and status::text = any(string_to_array(${statuses.join(',')}, ','))
        and strpos(search_text, lower(ris_unaccent(${text}))) > 0
      order by ${by} ${direction}, id ${direction}`,
  );
  return rows.map((row) => row.id);
}

const list = (token: string, query: string) => listWorklist(server, token, query);

const ids = (page: TWorklistListResponse) => page.items.map((item) => item.id);

async function criteriaOf(query: string, caller: TPrincipal, reads: 'page' | 'tabs' = 'page') {
  const params = new URLSearchParams(query);
  const filters = ZWorklistFilters.parse(
    Object.fromEntries(
      [...new Set(params.keys())].map((key) => {
        const values = params.getAll(key);
        return [key, values.length === 1 ? values[0] : values];
      }),
    ),
  );
  const scope = await loadScope(server.db, caller);
  return resolveWorklistCriteria(server.db, scope, filters, NOW, { keyedSearch: true, reads });
}

describe('a search in the open studies’ tabs', () => {
  it('reads the open studies’ index for open tabs only, and not for the tabs’ counts', async () => {
    const admin = { wholeOrganisation: true, days: null };
    const staff = { wholeOrganisation: false, days: 30 };
    expect(await searchesOpen(server.db, 'bone', ORDERED, admin)).toBe(true);
    expect(await searchesOpen(server.db, 'ab', IN_PROGRESS, staff)).toBe(true);
    expect(await searchesOpen(server.db, 'bone', ['ORDERED', 'FINAL'], admin)).toBe(false);
    expect(await searchesOpen(server.db, 'bone', ['DELETED'], admin)).toBe(false);
    // One character: neither a trigram nor a pair.
    expect(await searchesOpen(server.db, 'a', ORDERED, admin)).toBe(false);
    // The In progress tab holds more studies than are tested one by one (searchInRange).
    const open = await criteriaOf(`${ALL_DATES}&${tab(IN_PROGRESS)}&search=bone`, principals.admin);
    expect({ open: open.searchOpen, inRange: open.searchInRange }).toEqual({ open: true, inRange: false });
    const all = await criteriaOf(`${ALL_DATES}&search=bone`, principals.admin);
    expect(all.searchOpen).toBe(false);
    const tabs = await criteriaOf(`${ALL_DATES}&${tab(IN_PROGRESS)}&search=bone`, principals.admin, 'tabs');
    expect(tabs.searchOpen).toBe(false);
  });

  it('tests each of a reporter’s few open studies, counted for the tab asked for', async () => {
    // Their In progress studies over all dates are few; all their studies are not.
    const criteria = await criteriaOf(`${ALL_DATES}&${tab(IN_PROGRESS)}&search=bone`, principals.reporter);
    expect(criteria.searchInRange).toBe(true);
    const want = await oracle('bone', IN_PROGRESS, { facilities: staffFacilities, assignee: reporterId });
    expect(want.length).toBeGreaterThan(5);
    const page = await list(tokens.reporter, `${ALL_DATES}&${tab(IN_PROGRESS)}&search=bone&limit=100`);
    expect(ids(page)).toEqual(want.slice(0, 100));
    expect(page.total).toBe(want.length);
  });

  it('lists an admin’s tabs exactly as the oracle, totals exact, by arrival and by name', async () => {
    for (const statuses of [ORDERED, IN_PROGRESS]) {
      for (const text of ['bone', 'BONE SCAN', 'abbott', 'ab', 'head']) {
        const want = await oracle(text, statuses);
        const page = await list(
          tokens.admin,
          `${ALL_DATES}&${tab(statuses)}&search=${text}&limit=25&offset=5`,
        );
        expect(ids(page), `${text} ${statuses.join()}`).toEqual(want.slice(5, 30));
        expect({ total: page.total, capped: page.total_capped }).toEqual({
          total: want.length,
          capped: false,
        });
      }
      const byName = await list(
        tokens.admin,
        `${ALL_DATES}&${tab(statuses)}&search=bone&sort_by=patient_name&sort_order=asc&limit=50`,
      );
      expect(ids(byName)).toEqual(
        (await oracle('bone', statuses, { by: 'patient_name', asc: true })).slice(0, 50),
      );
    }
    const past = await list(tokens.admin, `${ALL_DATES}&${tab(ORDERED)}&search=bone&offset=5000`);
    expect({ items: past.items.length, total: past.total }).toEqual({
      items: 0,
      total: (await oracle('bone', ORDERED)).length,
    });
  });

  it('keeps a radiologist within their facilities and another organisation within its own', async () => {
    const want = await oracle('bone', IN_PROGRESS, { facilities: staffFacilities });
    const page = await list(tokens.radiologist, `${ALL_DATES}&${tab(IN_PROGRESS)}&search=bone&limit=100`);
    expect(ids(page)).toEqual(want.slice(0, 100));
    expect(page.total).toBe(want.length);
    const foreignWant = await oracle('bone', ORDERED, { organisation: foreignOrganisationId });
    const foreign = await list(tokens.foreign, `${ALL_DATES}&${tab(ORDERED)}&search=bone&limit=100`);
    expect(ids(foreign)).toEqual(foreignWant);
    expect(foreign.items.every((item) => !want.includes(item.id))).toBe(true);
  });
});
