// An admin's modality filter over a range with a start, sorted by a column whose values follow the
// modality (study description, modality): the group's studies lie together far into the column's
// order, behind every other group's. Their sort indexes are led by the modality group (migration
// 0039), so a page is walked one scan per group the filter keeps, merged in the column's order, and
// reads about a page of entries; without that lead the walk ran out past its floor (prefixWalkBudget)
// and the matches were collected. Either way each page must be exactly the one ORDER BY … LIMIT …
// OFFSET gives, and another organisation's studies of the same group must never show.
import type { TWorklistListResponse } from '@ris/domain';
import { sql, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/rows.ts';
import { worklistCriteria } from '../../../test/worklist-criteria.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildPatient, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { LISTED_STATUSES } from './worklist-criteria.ts';
import { worklistCountCacheOf } from './worklist-list.routes.ts';
import { prefixWalkSql } from './worklist-page-walk.ts';

const NOW = new Date('2024-05-10T12:00:00Z');
const START = '2024-05-02T00:00:00Z';
let server: TTestServer;
let organisationId = '';
let token = '';

type TGroup = {
  /** Null: studies of no group (a modality no group holds), listed only without a modality filter. */
  name: 'XRAY' | 'MRI' | 'CT' | null;
  modalities: readonly [string, string];
  studies: readonly [string, string];
  /** Every eleventh without a study description (first when sorted by it descending). */
  untitled: boolean;
};

/** `count` studies of one group spread over about ten days back from NOW, two modalities and two descriptions. */
async function seed(
  organisation: string,
  facilities: readonly string[],
  patient: string,
  group: TGroup,
  count: number,
) {
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, modality, study_description, status, modality_group, created_at, updated_at)
    select ${organisation}::uuid, (array[${facilities[0]}::uuid, ${facilities[1]}::uuid])[1 + g % 2],
      ${patient}::uuid, ${`${group.name ?? 'NONE'}-${organisation.slice(0, 8)}-`} || g, 'Patient ' || (g % 41),
      (array[${group.modalities[0]}, ${group.modalities[1]}])[1 + g % 2],
      case when g % 11 <> 0 or not ${group.untitled} then (array[${group.studies[0]}, ${group.studies[1]}])[1 + g % 3 % 2] end,
      (array['TO_READ','ASSIGNED','FINAL','DRAFTED']::study_status[])[1 + g % 4],
      ${group.name}::modality_group,
      ${NOW.toISOString()}::timestamptz - (g * interval '${sql.raw(String(Math.round(14_400 / count)))} minutes'),
      ${NOW.toISOString()}::timestamptz
    from generate_series(1, ${count}) g`);
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const cache = worklistCountCacheOf(server.app.deps);
  if (cache) cache.enabled = false;
  const db = server.db;
  const world = async () => {
    const organisation = (await buildOrganisation(db)).id;
    const facilities = await Promise.all(
      [1, 2].map(() => buildFacility(db, { organisationId: organisation })),
    );
    const patient = await buildPatient(db, { facility: facilities[0] });
    return { organisation, facilityIds: facilities.map((facility) => facility.id), patient: patient.id };
  };
  const own = await world();
  organisationId = own.organisation;
  token = await tokenFor(server, await buildUser(db, { role: 'ADMIN', organisationId }));
  // By study descending the X-ray studies without a description and then "X-ray …" (5,600 in all) come
  // before any MRI or CT one in the organisation's order, past the walk's 5,000 entries; "CT …" comes
  // first ascending. Studies of no group lie between the groups in both orders. Another
  // organisation's MRI and CT studies interleave in every order.
  const groups: readonly TGroup[] = [
    { name: 'XRAY', modalities: ['DX', 'CR'], studies: ['X-ray chest', 'X-ray hand'], untitled: true },
    { name: 'MRI', modalities: ['MR', 'MR'], studies: ['MRI brain', 'MRI knee'], untitled: false },
    { name: 'CT', modalities: ['CT', 'CT'], studies: ['CT head', 'CT abdomen'], untitled: false },
    { name: null, modalities: ['OT', 'SR'], studies: ['Outside film', 'Outside report'], untitled: false },
  ];
  const counts = { XRAY: 5_600, MRI: 1_700, CT: 1_500, NONE: 300 };
  await seedingStudies(db, async () => {
    for (const group of groups) {
      await seed(own.organisation, own.facilityIds, own.patient, group, counts[group.name ?? 'NONE']);
    }
    const other = await world();
    for (const group of groups.filter((one) => one.name === 'MRI' || one.name === 'CT')) {
      await seed(other.organisation, other.facilityIds, other.patient, group, 900);
    }
  });
  await db.execute(sql`vacuum analyze studies`);
});

afterAll(async () => server.close());

/** The ids ORDER BY gives for the groups (null: no modality filter, studies of no group too). */
async function expectedIds(groups: readonly string[] | null, column: string, direction: 'asc' | 'desc') {
  const kept =
    groups === null
      ? sql`true`
      : sql`modality_group::text in (${sql.join(
          groups.map((group) => sql`${group}`),
          sql.raw(', '),
        )})`;
  const rows = await queryRows<{ id: string }>(
    server.db,
    sql`select id from studies where organisation_id = ${organisationId}::uuid and status <> 'DELETED'
      and created_at >= ${START}::timestamptz and ${kept}
      order by ${sql.raw(`${column} ${direction}, id ${direction}`)}`,
  );
  return rows.map((row) => row.id);
}

describe('an admin’s modality filter over a range, sorted by a column that follows the modality', () => {
  it('gives the pages ORDER BY gives, walked or collected, and none of another organisation', async () => {
    // The layout above: past COLLECT_AT_MOST matches, and by study descending the first MRI or CT
    // study lies past the walk's floor.
    const order = await queryRows<{ id: string }>(
      server.db,
      sql`select id from studies where organisation_id = ${organisationId}::uuid
        order by study_description desc, id desc`,
    );
    const matches = await expectedIds(['MRI', 'CT'], 'study_description', 'desc');
    expect(matches.length).toBeGreaterThan(2_000);
    expect(order.findIndex((row) => row.id === matches[0])).toBeGreaterThan(5_000);
    for (const groups of [['MRI', 'CT'], ['MRI'], null] as const) {
      for (const [field, column] of [
        ['study', 'study_description'],
        ['modality', 'modality'],
      ] as const) {
        for (const direction of ['desc', 'asc'] as const) {
          const all = await expectedIds(groups, column, direction);
          for (const offset of [...new Set([0, 25, 1_000, all.length - 10, all.length + 25])]) {
            const query = [
              `date_range_type=CUSTOM&start_date=${START}&limit=25&offset=${offset}`,
              `sort_by=${field}&sort_order=${direction}`,
              ...(groups ?? []).map((group) => `modalities=${group}`),
            ].join('&');
            const response = await server.request('GET', `/api/v1/worklist?${query}`, { token });
            expect(response.status, response.text).toBe(200);
            const page = response.json as TWorklistListResponse;
            const label = { groups, field, direction, offset };
            expect({ ...label, total: page.total, ids: page.items.map((item) => item.id) }).toEqual({
              ...label,
              total: all.length,
              ids: all.slice(offset, offset + 25),
            });
          }
        }
      }
    }
  });

  /** The index scans of a page's prefix walk (EXPLAIN ANALYZE), and the entries they read in all. */
  async function walkRead(modalities: readonly ('MRI' | 'CT')[], column: string, direction: 'asc' | 'desc') {
    const base = worklistCriteria();
    const criteria = worklistCriteria({
      scope: { ...base.scope, organisationId, principal: { ...base.scope.principal, organisationId } },
      statuses: LISTED_STATUSES,
      modalities: [...modalities],
      from: new Date(START),
      to: { at: NOW, inclusive: true },
    });
    const page = { limit: 25, offset: 0, sort_by: 'study', sort_order: direction } as const;
    const walk = prefixWalkSql(server.db, criteria, page, column, sql`5000`);
    if (walk === null) throw new Error('no prefix walk');
    const rows = await queryRows<{ 'QUERY PLAN': string }>(
      server.db,
      sql`explain (analyze, costs off, timing off, summary off) ${walk}`,
    );
    const scans = rows
      .map((row) => row['QUERY PLAN'])
      .filter((line) => /Index (Only )?Scan/.test(line) && !line.includes('never executed'));
    const entries = scans.reduce((sum, line) => sum + Number(/rows=(\d+)/.exec(line)?.[1] ?? 0), 0);
    return { indexes: [...new Set(scans.map((line) => / using (\S+)/.exec(line)?.[1]))], entries };
  }

  it('walks only the kept groups’ entries of the sort index, about a page of them', async () => {
    for (const column of ['study_description', 'modality']) {
      for (const direction of ['desc', 'asc'] as const) {
        for (const groups of [['MRI'], ['MRI', 'CT']] as const) {
          const read = await walkRead(groups, column, direction);
          // Without the group's lead the walk read its whole floor (5,000 entries) by study descending.
          expect({ column, direction, groups, ...read, entries: read.entries <= 25 * 2 }).toEqual({
            column,
            direction,
            groups,
            indexes: [`studies_organisation_${column}_sort_idx`],
            entries: true,
          });
        }
      }
    }
  });

  it('walks by status from the first status kept, past every deleted study (first, descending)', async () => {
    const base = worklistCriteria();
    const criteria = worklistCriteria({
      scope: { ...base.scope, organisationId, principal: { ...base.scope.principal, organisationId } },
      statuses: LISTED_STATUSES,
      from: new Date(START),
      to: { at: NOW, inclusive: true },
    });
    const page = { limit: 25, offset: 0, sort_by: 'status', sort_order: 'desc' } as const;
    const walk = prefixWalkSql(server.db, criteria, page, 'status', sql`5000`);
    if (walk === null) throw new Error('no prefix walk');
    const seen = { entries: -1, ids: [] as string[], want: [] as string[] };
    await server.db
      .transaction(async (tx) => {
        // 600 deleted studies in the range: DELETED is the last status, so they lead the index descending.
        await tx.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
            patient_name, modality, status, modality_group, created_at, updated_at)
          select organisation_id, facility_id, patient_id, 'DELETED-' || g, patient_name, modality, 'DELETED',
            modality_group, created_at, updated_at
          from generate_series(1, 600) g,
            lateral (select * from studies where organisation_id = ${organisationId}::uuid limit 1) s`);
        const plan = await queryRows<{ 'QUERY PLAN': string }>(
          tx,
          sql`explain (analyze, costs off, timing off, summary off) ${walk}`,
        );
        seen.entries = plan
          .map((row) => row['QUERY PLAN'])
          .filter((line) => /Index (Only )?Scan/.test(line))
          .reduce((sum, line) => sum + Number(/rows=(\d+)/.exec(line)?.[1] ?? 0), 0);
        seen.ids = (await queryRows<{ id: string }>(tx, walk)).map((row) => row.id);
        seen.want = (
          await queryRows<{ id: string }>(
            tx,
            sql`select id from studies where organisation_id = ${organisationId}::uuid and status <> 'DELETED'
              and created_at >= ${START}::timestamptz and created_at <= ${NOW.toISOString()}::timestamptz
              order by status desc, id desc limit 25`,
          )
        ).map((row) => row.id);
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    expect(seen.ids).toEqual(seen.want);
    // Without the statuses' bounds the walk read the 600 deleted entries first.
    expect(seen.entries).toBeGreaterThan(0);
    expect(seen.entries).toBeLessThanOrEqual(25 * 2);
  });

  it('collects the matches from an index led by the organisation and the group, alone', async () => {
    let plan = '';
    await server.db
      .transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        await tx.execute(sql`set local enable_bitmapscan = off`);
        const rows = await queryRows<{ 'QUERY PLAN': string }>(
          tx,
          sql`explain select id, study_description from studies
            where organisation_id = ${organisationId}::uuid and modality_group = 'MRI'
              and created_at >= ${START}::timestamptz and status in ('TO_READ', 'FINAL')`,
        );
        plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    // Either index led by the organisation and the group holds the sort key: the one led by arrival
    // next reads a range's entries alone (a month of a year's: 1 in 12), the description's sort index
    // the group's every one (this organisation's studies all lie within about ten days).
    expect([
      'Index Only Scan using studies_organisation_modality_created_idx',
      'Index Only Scan using studies_organisation_study_description_sort_idx',
    ]).toContain(plan.split('\n')[0]?.split(' on ')[0]);
  });
});
