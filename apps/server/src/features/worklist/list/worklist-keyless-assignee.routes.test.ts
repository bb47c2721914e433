// A text without trigram keys that most studies hold ("ri") in a reporter's own studies
// (worklist-keyless-plan.ts, assigneeLedWhere): their facilities are tested on each row rather than
// through their index. A reporter is assigned studies in a facility they do not work
// in; neither their list nor their tabs show those, and an admin's by_user_ids + facility_ids keeps
// to the facility asked for. Pages and counts are the oracle's.
import { STUDY_STATUSES } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/rows.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildPatient, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { countWorklist, listWorklist } from '../../../test/worklist-requests.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const FILTERS = 'date_range_type=CUSTOM&search=ri&modalities=USG&modalities=XRAY';

let server: TTestServer;
let organisationId = '';
let reporterId = '';
let facilityIds: string[] = [];
const tokens = { reporter: '', admin: '' };

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  organisationId = (await buildOrganisation(server.db)).id;
  const facilities = await Promise.all([1, 2, 3].map(() => buildFacility(server.db, { organisationId })));
  facilityIds = facilities.map((facility) => facility.id);
  const reporter = await buildUser(server.db, {
    role: 'RADIOLOGIST',
    userType: 'REPORTER',
    facilities: facilities.slice(0, 2),
  });
  reporterId = reporter.id;
  tokens.reporter = await tokenFor(server, reporter);
  tokens.admin = await tokenFor(server, await buildUser(server.db, { role: 'ADMIN', organisationId }));
  const patient = await buildPatient(server.db, { facility: facilities[0] });
  const ids = sql.raw(`array[${facilityIds.map((id) => `'${id}'`).join(',')}]::uuid[]`);
  // 3,000 studies over the three facilities, one every 15 minutes; ten in eleven patients are a
  // "Maria" (holding "ri"), half the studies are the reporter's, in all three facilities.
  await seedingStudies(server.db, async () => {
    await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id,
        accession_number, patient_name, patient_identifier, study_description, modality, modality_group,
        status, last_assigned_user_id, created_at, updated_at)
      select ${organisationId}::uuid, (${ids})[g % 3 + 1], ${patient.id}::uuid, 'KA' || g,
        case when g % 11 = 0 then 'Tom ' || g else 'Maria ' || g end, 'P' || g, 'Study',
        (array['CT', 'US', 'CR'])[g % 5 % 3 + 1],
        (array['CT', 'USG', 'XRAY'])[g % 5 % 3 + 1]::modality_group,
        (case when g % 97 = 0 then 'DELETED'
          else (array['ORDERED','TO_READ','ASSIGNED','IN_REVIEW','DRAFTED','FINAL'])[g / 7 % 6 + 1] end)::study_status,
        case when g % 4 < 2 then ${reporterId}::uuid end,
        ${NOW.toISOString()}::timestamptz - g * interval '15 minutes',
        ${NOW.toISOString()}::timestamptz - g * interval '15 minutes'
      from generate_series(1, 3000) g`);
  });
  // The pair index's statistics tell the search that "ri" is common.
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

/** The oracle: the reporter's USG and X-ray studies in `facilities` holding "ri", newest first. */
async function oracle(facilities: string[]) {
  return queryRows<{ id: string; status: string }>(
    server.db,
    sql`select id, status::text as status from studies where organisation_id = ${organisationId}::uuid
      and facility_id in (${sql.join(
        facilities.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
      and last_assigned_user_id = ${reporterId}::uuid and modality_group in ('USG', 'XRAY')
      and strpos(search_text, 'ri') > 0
      order by created_at desc, id desc`,
  );
}

describe('a common keyless text under an assignee filter within facilities', () => {
  // The reporter's own studies read from their index; an admin's by_user_ids naming the reporter
  // within a facility keeps the facilities' index (the reporter's studies may lie elsewhere).
  const cases = [
    { who: 'reporter', extra: '', facilities: () => facilityIds.slice(0, 2) },
    {
      who: 'admin',
      extra: () => `&by_user_ids=${reporterId}&facility_ids=${facilityIds[2] ?? ''}`,
      facilities: () => facilityIds.slice(2),
    },
  ] as const;
  for (const test of cases) {
    it(`lists and counts the ${test.who}'s view as the oracle does, no other facility's study`, async () => {
      const extra = typeof test.extra === 'string' ? test.extra : test.extra();
      const all = await oracle(test.facilities());
      const listed = all.filter((row) => row.status === 'FINAL' || row.status === 'ORDERED');
      expect(listed.length).toBeGreaterThan(50);
      for (const offset of [0, 25]) {
        const page = await listWorklist(
          server,
          tokens[test.who],
          `${FILTERS}${extra}&statuses=FINAL&statuses=ORDERED&limit=25&offset=${offset}`,
        );
        expect(page.items.map((item) => item.id)).toEqual(
          listed.slice(offset, offset + 25).map((row) => row.id),
        );
        expect(page.total).toBe(listed.length);
        expect(page.items.every((item) => test.facilities().includes(item.facility_fk))).toBe(true);
      }
      const counts = await countWorklist(server, tokens[test.who], `${FILTERS}${extra}`);
      for (const status of STUDY_STATUSES) {
        const expected =
          test.who === 'admin' || status !== 'DELETED'
            ? all.filter((row) => row.status === status).length
            : 0;
        expect({ status, count: counts.statuses[status] }).toEqual({ status, count: expected });
      }
    });
  }
});
