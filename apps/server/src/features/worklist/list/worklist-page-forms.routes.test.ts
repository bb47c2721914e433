// A worklist page is read in one of two forms, chosen by the exact total (worklist-list.queries.ts,
// COLLECT_AT_MOST): every match collected and sorted (few matches), or an index walked in the sort
// order until the page is full (many). Both must give exactly the page ORDER BY … LIMIT … OFFSET
// gives, ties broken by id, and nothing past the end. Filters whose matches are dense in an index (every
// listed status or a status tab, no priority filter, sorted by arrival) are walked whatever the total
// (worklist-page-walk.ts): a staff member's facilities one index scan each (per facility and modality
// group with a modality filter, per facility and status on a tab), merged; one assignee on the
// assignee's index, several (over at most a month) one scan each, merged; an admin's whole
// organisation on its index.
import type { TWorklistListResponse } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/rows.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildPatient, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { worklistCountCacheOf } from './worklist-list.routes.ts';

/** More than COLLECT_AT_MOST (2,000), so an unfiltered list walks and a filtered one collects. */
const STUDIES = 2_300;
const NOW = new Date('2024-05-10T12:00:00Z');
let server: TTestServer;
let organisationId = '';
let facilityIds: string[] = [];
const tokens = { admin: '', radiologist: '', staff: '', reporter: '' };
/** The radiologist every fifth study is assigned to, and the staff member of every seventh other. */
let assigneeId = '';
let staffId = '';
/** A reporter of the first facility, assigned every eleventh study left (their own id is always added). */
let reporterId = '';

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const cache = worklistCountCacheOf(server.app.deps);
  if (cache) cache.enabled = false;
  const db = server.db;
  organisationId = (await buildOrganisation(db)).id;
  const facilities = await Promise.all([1, 2].map(() => buildFacility(db, { organisationId })));
  facilityIds = facilities.map((facility) => facility.id);
  tokens.admin = await tokenFor(server, await buildUser(db, { role: 'ADMIN', organisationId }));
  const radiologist = await buildUser(db, { role: 'RADIOLOGIST', facilities: facilities.slice(0, 1) });
  assigneeId = radiologist.id;
  tokens.radiologist = await tokenFor(server, radiologist);
  const staff = await buildUser(db, { role: 'RADIOLOGIST', facilities });
  staffId = staff.id;
  tokens.staff = await tokenFor(server, staff);
  const reporter = await buildUser(db, {
    role: 'RADIOLOGIST',
    userType: 'REPORTER',
    facilities: facilities.slice(0, 1),
  });
  reporterId = reporter.id;
  tokens.reporter = await tokenFor(server, reporter);
  const patients = await Promise.all(facilities.map((facility) => buildPatient(db, { facility })));
  // Every third study shares its created_at with the one before (ties), names repeat (ties on the
  // name sort), 3 % are URGENT, statuses and modality groups rotate.
  await seedingStudies(db, async () => {
    await db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
        patient_name, status, modality_group, priority_tag, created_at)
      select ${organisationId}::uuid, (array[${facilityIds[0]}::uuid, ${facilityIds[1]}::uuid])[1 + g % 2],
        (array[${patients[0]?.id}::uuid, ${patients[1]?.id}::uuid])[1 + g % 2], 'PF' || g,
        'Patient ' || (g % 37), (array['TO_READ','ASSIGNED','FINAL','ORDERED']::study_status[])[1 + g % 4],
        (array['CT','MRI','XRAY']::modality_group[])[1 + g % 3],
        case when g % 33 = 0 then 'URGENT'::priority_tag end,
        ${NOW.toISOString()}::timestamptz - ((g - g % 3) * interval '7 minutes')
      from generate_series(1, ${STUDIES}) g`);
    // Study dates a few hours before arrival, in another order than arrival; every tenth unknown.
    await db.execute(sql`update studies
      set study_datetime = created_at - (substr(accession_number, 3)::int % 7) * interval '90 minutes'
      where organisation_id = ${organisationId}::uuid and substr(accession_number, 3)::int % 10 <> 0`);
    await db.execute(sql`update studies set last_assigned_user_id = ${assigneeId}::uuid
      where organisation_id = ${organisationId}::uuid and substr(accession_number, 3)::int % 5 = 0`);
    await db.execute(sql`update studies set last_assigned_user_id = ${staffId}::uuid
      where organisation_id = ${organisationId}::uuid and substr(accession_number, 3)::int % 5 <> 0
      and substr(accession_number, 3)::int % 7 = 0`);
    await db.execute(sql`update studies set last_assigned_user_id = ${reporterId}::uuid
      where organisation_id = ${organisationId}::uuid and last_assigned_user_id is null
      and substr(accession_number, 3)::int % 11 = 0`);
  });
});

afterAll(async () => server.close());

type TCase = { who: keyof typeof tokens; query: string; where: ReturnType<typeof sql>; order: string };

/** The ids ORDER BY … LIMIT 25 OFFSET gives straight from `studies`. */
async function expectedIds(test: TCase, offset: number): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    server.db,
    sql`select id from studies where organisation_id = ${organisationId}::uuid and status <> 'DELETED' and ${test.where}
      order by ${sql.raw(test.order)} limit 25 offset ${offset}`,
  );
  return rows.map((row) => row.id);
}

async function listed(test: TCase, offset: number): Promise<TWorklistListResponse> {
  const response = await server.request(
    'GET',
    `/api/v1/worklist?date_range_type=CUSTOM&limit=25&offset=${offset}&${test.query}`,
    { token: tokens[test.who] },
  );
  expect(response.status, response.text).toBe(200);
  return response.json as TWorklistListResponse;
}

describe('worklist page forms', () => {
  const cases = (): TCase[] => [
    // 2,300 matches: walked.
    { who: 'admin', query: '', where: sql`true`, order: 'created_at desc, id desc' },
    {
      who: 'admin',
      query: 'sort_by=patient_name&sort_order=asc',
      where: sql`true`,
      order: 'patient_name asc, id asc',
    },
    // 1,150 (one facility), ~575 (a status), 69 (URGENT), 0: collected, or nothing to read.
    {
      who: 'radiologist',
      query: '',
      where: sql`facility_id = ${facilityIds[0]}::uuid`,
      order: 'created_at desc, id desc',
    },
    {
      who: 'admin',
      query: 'statuses=FINAL',
      where: sql`status = 'FINAL'`,
      order: 'created_at desc, id desc',
    },
    {
      who: 'admin',
      query: 'priority_tags=URGENT&sort_by=patient_name&sort_order=desc',
      where: sql`priority_tag = 'URGENT'`,
      order: 'patient_name desc, id desc',
    },
    {
      who: 'radiologist',
      query: 'priority_tags=EMERGENCY',
      where: sql`priority_tag = 'EMERGENCY'`,
      order: 'created_at desc, id desc',
    },
    // Walked whatever the total: both facilities merged (2,300), per facility and group (~1,530,
    // ~770 in one facility), oldest first, an admin's facility filter, one assignee (460).
    { who: 'staff', query: '', where: sql`true`, order: 'created_at desc, id desc' },
    {
      who: 'staff',
      query: 'modalities=CT&modalities=MRI',
      where: sql`modality_group in ('CT', 'MRI')`,
      order: 'created_at desc, id desc',
    },
    {
      who: 'staff',
      query: `facility_ids=${facilityIds[1]}&modalities=XRAY&sort_order=asc`,
      where: sql`facility_id = ${facilityIds[1]}::uuid and modality_group = 'XRAY'`,
      order: 'created_at asc, id asc',
    },
    {
      who: 'admin',
      query: `facility_ids=${facilityIds[0]}&facility_ids=${facilityIds[1]}&modalities=MRI`,
      where: sql`modality_group = 'MRI'`,
      order: 'created_at desc, id desc',
    },
    {
      who: 'staff',
      query: `by_user_ids=${assigneeId}`,
      where: sql`last_assigned_user_id = ${assigneeId}::uuid`,
      order: 'created_at desc, id desc',
    },
    // Two assignees over a few days, one scan each (one assignee mostly outside the radiologist's
    // facility, newest and oldest first, one named twice; a reporter's own id added to the one they
    // name), and over all dates with a status tab (the total's form).
    {
      who: 'staff',
      query: `by_user_ids=${assigneeId}&by_user_ids=${staffId}&start_date=2024-05-08T00:00:00Z&end_date=2024-05-10T00:00:00Z`,
      where: sql`last_assigned_user_id in (${assigneeId}::uuid, ${staffId}::uuid) and created_at >= '2024-05-08T00:00:00Z' and created_at <= '2024-05-10T00:00:00Z'`,
      order: 'created_at desc, id desc',
    },
    {
      who: 'radiologist',
      query: `by_user_ids=${staffId}&by_user_ids=${assigneeId}&start_date=2024-05-07T00:00:00Z&end_date=2024-05-10T12:00:00Z&sort_order=asc`,
      where: sql`facility_id = ${facilityIds[0]}::uuid and last_assigned_user_id in (${assigneeId}::uuid, ${staffId}::uuid) and created_at >= '2024-05-07T00:00:00Z' and created_at <= '2024-05-10T12:00:00Z'`,
      order: 'created_at asc, id asc',
    },
    {
      who: 'reporter',
      query: `by_user_ids=${staffId}&start_date=2024-05-07T00:00:00Z&end_date=2024-05-10T00:00:00Z`,
      where: sql`facility_id = ${facilityIds[0]}::uuid and last_assigned_user_id in (${staffId}::uuid, ${reporterId}::uuid) and created_at >= '2024-05-07T00:00:00Z' and created_at <= '2024-05-10T00:00:00Z'`,
      order: 'created_at desc, id desc',
    },
    {
      who: 'admin',
      query: `by_user_ids=${staffId}&by_user_ids=${assigneeId}&by_user_ids=${staffId}&statuses=FINAL&start_date=2024-05-06T00:00:00Z&end_date=2024-05-09T00:00:00Z`,
      where: sql`last_assigned_user_id in (${assigneeId}::uuid, ${staffId}::uuid) and status = 'FINAL' and created_at >= '2024-05-06T00:00:00Z' and created_at <= '2024-05-09T00:00:00Z'`,
      order: 'created_at desc, id desc',
    },
    {
      who: 'staff',
      query: `by_user_ids=${assigneeId}&by_user_ids=${staffId}&statuses=TO_READ&statuses=ASSIGNED`,
      where: sql`last_assigned_user_id in (${assigneeId}::uuid, ${staffId}::uuid) and status in ('TO_READ', 'ASSIGNED')`,
      order: 'created_at desc, id desc',
    },
    {
      who: 'radiologist',
      query: `by_user_ids=${staffId}&statuses=FINAL&sort_order=asc`,
      where: sql`facility_id = ${facilityIds[0]}::uuid and last_assigned_user_id = ${staffId}::uuid and status = 'FINAL'`,
      order: 'created_at asc, id asc',
    },
    // Priority filters: per facility and tag (an admin's facility filter too), an assignee's.
    {
      who: 'staff',
      query: 'priority_tags=URGENT&priority_tags=EMERGENCY',
      where: sql`priority_tag in ('URGENT', 'EMERGENCY')`,
      order: 'created_at desc, id desc',
    },
    {
      who: 'admin',
      query: 'priority_tags=URGENT&priority_tags=EMERGENCY&start_date=2024-05-02T00:00:00Z',
      where: sql`priority_tag in ('URGENT', 'EMERGENCY') and created_at >= '2024-05-02T00:00:00Z'`,
      order: 'created_at desc, id desc',
    },
    {
      who: 'admin',
      query: `facility_ids=${facilityIds[0]}&priority_tags=URGENT&sort_order=asc`,
      where: sql`facility_id = ${facilityIds[0]}::uuid and priority_tag = 'URGENT'`,
      order: 'created_at asc, id asc',
    },
    {
      who: 'staff',
      query: `by_user_ids=${staffId}&priority_tags=URGENT`,
      where: sql`last_assigned_user_id = ${staffId}::uuid and priority_tag = 'URGENT'`,
      order: 'created_at desc, id desc',
    },
    // Sorted by study date (unknown ones last oldest first, first newest first): from a range's
    // start oldest first, and newest first into a range that ended long ago, collected whatever the
    // total (2,300 and ~2,190 matches); newest first into a range ending later, walked.
    {
      who: 'admin',
      query: 'sort_by=datetime&sort_order=asc&start_date=2024-04-29T00:00:00Z',
      where: sql`created_at >= '2024-04-29T00:00:00Z'`,
      order: 'study_datetime asc, id asc',
    },
    {
      who: 'admin',
      query: 'sort_by=datetime&sort_order=desc&end_date=2024-05-09T23:00:00Z',
      where: sql`created_at <= '2024-05-09T23:00:00Z'`,
      order: 'study_datetime desc, id desc',
    },
    {
      who: 'admin',
      query: 'sort_by=datetime&sort_order=desc&start_date=2024-05-01T00:00:00Z&end_date=2100-01-01T00:00:00Z',
      where: sql`created_at >= '2024-05-01T00:00:00Z'`,
      order: 'study_datetime desc, id desc',
    },
    {
      who: 'staff',
      query: 'sort_by=datetime&sort_order=desc',
      where: sql`true`,
      order: 'study_datetime desc, id desc',
    },
    // Sorted by patient name over more than COLLECT_AT_MOST matches: the first entries of the
    // organisation's name order (an admin, within a range too; staff, an admin's facility filter).
    {
      who: 'admin',
      query: 'sort_by=patient_name&sort_order=desc&start_date=2024-04-29T00:00:00Z',
      where: sql`created_at >= '2024-04-29T00:00:00Z'`,
      order: 'patient_name desc, id desc',
    },
    {
      who: 'staff',
      query: 'sort_by=patient_name&sort_order=asc',
      where: sql`true`,
      order: 'patient_name asc, id asc',
    },
    {
      who: 'admin',
      query: `facility_ids=${facilityIds[0]}&facility_ids=${facilityIds[1]}&sort_by=patient_name&sort_order=desc`,
      where: sql`true`,
      order: 'patient_name desc, id desc',
    },
    // An admin's whole organisation, walked on its index whatever the total: a status tab and a
    // modality group within a date range oldest first (~190 matches), a modality group (~770).
    {
      who: 'admin',
      query:
        'statuses=TO_READ&statuses=ORDERED&modalities=XRAY&sort_order=asc&start_date=2024-05-03T00:00:00Z&end_date=2024-05-09T00:00:00Z',
      where: sql`status in ('TO_READ', 'ORDERED') and modality_group = 'XRAY' and created_at >= '2024-05-03T00:00:00Z' and created_at <= '2024-05-09T00:00:00Z'`,
      order: 'created_at asc, id asc',
    },
    {
      who: 'admin',
      query: 'modalities=CT',
      where: sql`modality_group = 'CT'`,
      order: 'created_at desc, id desc',
    },
    // Status tabs: per facility and status (4 scans merged; oldest first; within a date range; an
    // admin's facility filter).
    {
      who: 'staff',
      query: 'statuses=TO_READ&statuses=FINAL',
      where: sql`status in ('TO_READ', 'FINAL')`,
      order: 'created_at desc, id desc',
    },
    {
      who: 'staff',
      query: 'statuses=ASSIGNED&statuses=ORDERED&sort_order=asc&start_date=2024-05-01T00:00:00Z',
      where: sql`status in ('ASSIGNED', 'ORDERED') and created_at >= '2024-05-01T00:00:00Z'`,
      order: 'created_at asc, id asc',
    },
    {
      who: 'admin',
      query: `facility_ids=${facilityIds[1]}&statuses=FINAL&end_date=2024-05-05T00:00:00Z`,
      where: sql`facility_id = ${facilityIds[1]}::uuid and status = 'FINAL' and created_at <= '2024-05-05T00:00:00Z'`,
      order: 'created_at desc, id desc',
    },
  ];

  it('gives the pages ORDER BY … LIMIT … OFFSET gives, in both forms, up to and past the end', async () => {
    for (const test of cases()) {
      const [{ count } = { count: 0 }] = await queryRows<{ count: number }>(
        server.db,
        sql`select count(*)::int as count from studies where organisation_id = ${organisationId}::uuid and ${test.where}`,
      );
      const lastPage = Math.max(0, Math.floor((count - 1) / 25) * 25);
      for (const offset of [...new Set([0, 25, 50, lastPage, count, count + 25])]) {
        const page = await listed(test, offset);
        expect({ query: test.query, offset, total: page.total }).toEqual({
          query: test.query,
          offset,
          total: count,
        });
        expect({ query: test.query, offset, ids: page.items.map((item) => item.id) }).toEqual({
          query: test.query,
          offset,
          ids: await expectedIds(test, offset),
        });
      }
    }
  });
});

describe('an assignee’s list sorted by patient name past the cap', () => {
  it('gives the assignees’ name order as ORDER BY gives it', async () => {
    const db = server.db;
    const organisation = await buildOrganisation(db);
    const facility = await buildFacility(db, { organisationId: organisation.id });
    const patient = await buildPatient(db, { facility });
    const reporter = await buildUser(db, {
      role: 'RADIOLOGIST',
      userType: 'REPORTER',
      facilities: [facility],
    });
    const other = await buildUser(db, { role: 'RADIOLOGIST', facilities: [facility] });
    const admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
    // 2,100 of the reporter's (more than COLLECT_AT_MOST), 300 of the other's; names repeat.
    await db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
        patient_name, status, last_assigned_user_id, created_at)
      select ${organisation.id}::uuid, ${facility.id}::uuid, ${patient.id}::uuid, 'AS' || g,
        'Name ' || (g % 41), 'ASSIGNED', case when g <= 2100 then ${reporter.id}::uuid else ${other.id}::uuid end,
        ${NOW.toISOString()}::timestamptz - g * interval '3 minutes'
      from generate_series(1, 2400) g`);
    const checks = [
      { token: await tokenFor(server, reporter), query: 'sort_order=asc', users: [reporter.id], dir: 'asc' },
      {
        token: await tokenFor(server, admin),
        query: `by_user_ids=${reporter.id}&by_user_ids=${other.id}&sort_order=desc`,
        users: [reporter.id, other.id],
        dir: 'desc',
      },
    ] as const;
    for (const check of checks) {
      const rows = await queryRows<{ id: string }>(
        db,
        sql`select id from studies where organisation_id = ${organisation.id}::uuid
          and last_assigned_user_id in (${sql.join(
            check.users.map((id) => sql`${id}::uuid`),
            sql`, `,
          )}) order by ${sql.raw(`patient_name ${check.dir}, id ${check.dir}`)}`,
      );
      const all = rows.map((row) => row.id);
      for (const offset of [0, 25, 1000, all.length - 10, all.length + 5]) {
        const response = await server.request(
          'GET',
          `/api/v1/worklist?date_range_type=CUSTOM&limit=25&offset=${offset}&sort_by=patient_name&${check.query}`,
          { token: check.token },
        );
        expect(response.status, response.text).toBe(200);
        const page = response.json as TWorklistListResponse;
        expect({ offset, total: page.total, ids: page.items.map((item) => item.id) }).toEqual({
          offset,
          total: all.length,
          ids: all.slice(offset, offset + 25),
        });
      }
    }
  });
});
