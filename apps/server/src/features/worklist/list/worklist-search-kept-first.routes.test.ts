// A radiologist's search naming colleagues (by_user_ids) whose studies lie mostly in other hospitals:
// their range holds few studies, so each one's text is tested (searchInRange), and those studies are
// found by the assignee index alone before any row is read (searchKeptFirst, worklistWhere). At
// 1,000,000 studies PostgreSQL read every row of the colleagues' 48,000 studies to check the facility
// (150-270 ms for none kept). Pages, totals and tabs are ORDER BY's and count(*)'s; a colleague with
// nothing in the caller's facilities lists nothing; another organisation's admin gets 404.
import { STUDY_STATUSES } from '@ris/domain';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPrincipal } from '../../../auth/principal.ts';
import { queryRows } from '../../../db/rows.ts';
import { adminPrincipal, adminTokenFor, tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { idsInOrder, insertSpreadStudies } from '../../../test/spread-studies.ts';
import { resolvedCriteriaOf } from '../../../test/worklist-criteria.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { countWorklist, expectListedPage, listWorklist } from '../../../test/worklist-requests.ts';
import { worklistWhere } from './worklist-criteria.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const ALL_DATES = 'date_range_type=CUSTOM&search=chest';

let server: TTestServer;
let organisationId = '';
const facilityIds = { own: '', other: '', third: '' };
const users = { radiologist: '', near: '', far: '' };
let radiologist: TPrincipal;
let admin: TPrincipal;
const tokens = { radiologist: '', admin: '', foreign: '' };

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  organisationId = (await buildOrganisation(server.db)).id;
  const [own, other, third] = await Promise.all(
    [1, 2, 3].map(() => buildFacility(server.db, { organisationId })),
  );
  if (!own || !other || !third) throw new Error('no facility');
  Object.assign(facilityIds, { own: own.id, other: other.id, third: third.id });
  const reader = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [own] });
  // `near` reads a few of the caller's hospital's studies and many of another's; `far` none of it.
  const near = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [own, other] });
  const far = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [third] });
  Object.assign(users, { radiologist: reader.id, near: near.id, far: far.id });
  const adminUser = await buildUser(server.db, { role: 'ADMIN', organisationId });
  tokens.radiologist = await tokenFor(server, reader);
  tokens.admin = await tokenFor(server, adminUser);
  radiologist = {
    ...adminPrincipal(reader, organisationId),
    role: 'RADIOLOGIST',
    facilityIds: [own.id],
  };
  admin = adminPrincipal(adminUser, organisationId);
  const insert = (facility: typeof own, count: number, prefix: string, minutes: number) =>
    insertSpreadStudies(server.db, [facility], count, {
      accession: sql.raw(`'${prefix}' || g`),
      patientName: sql`'Patient ' || (g * 7919 % 1000)`,
      patientIdentifier: sql`'P' || g`,
      description: sql`case when g % 3 = 0 then 'Abdomen' else 'Chest PA' end`,
      modality: sql`'CR'`,
      modalityGroup: sql`'XRAY'`,
      status: sql`(array['ASSIGNED','DRAFTED','FINAL','FINAL','IN_REVIEW'])[1 + g % 5]`,
      arrival: sql.raw(`'${NOW.toISOString()}'::timestamptz - g * interval '${minutes} minutes'`),
    });
  await seedingStudies(server.db, async () => {
    await insert(own, 90, 'NA', 37);
    await insert(other, 1_500, 'NB', 3);
    await insert(third, 1_200, 'FC', 4);
    await insert(own, 400, 'UA', 11);
    for (const [prefix, userId] of [
      ['N', near.id],
      ['F', far.id],
    ] as const) {
      await server.db.execute(sql`update studies set last_assigned_user_id = ${userId}::uuid
        where organisation_id = ${organisationId}::uuid and accession_number like ${`${prefix}%`}`);
    }
  });
  // Another organisation: an admin who may not name this one's radiologists.
  const foreign = await buildFacility(server.db);
  tokens.foreign = await adminTokenFor(server, foreign.organisationId);
  await server.db.execute(sql`analyze studies`);
});

afterAll(async () => server.close());

const named = (...ids: string[]) => ids.map((id) => `&by_user_ids=${id}`).join('');
/** The caller's facility's studies last assigned to `ids`. */
const keptWhere = (ids: string[]) =>
  sql`organisation_id = ${organisationId}::uuid and facility_id = ${facilityIds.own}::uuid
    and last_assigned_user_id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`;

describe('a search naming colleagues who read elsewhere, tested after the assignee index', () => {
  it('finds the range’s studies by the assignee index first only when it may leave most out', async () => {
    const resolved = (principal: TPrincipal, query: string) =>
      resolvedCriteriaOf(server.db, principal, query, NOW);
    const colleagues = await resolved(radiologist, `${ALL_DATES}${named(users.near, users.far)}`);
    expect({ inRange: colleagues.searchInRange, keptFirst: colleagues.searchKeptFirst }).toEqual({
      inRange: true,
      keptFirst: true,
    });
    const text = new PgDialect().sqlToQuery(worklistWhere(server.db, colleagues, colleagues.statuses)).sql;
    expect(text).toContain('"studies"."id" in (select "studies"."id" from studies where');
    // Facility filter + assignee for an admin: the same; an assignee alone over every facility, the
    // caller themself, or no assignee: the range's own index finds exactly its studies.
    const filtered = await resolved(
      admin,
      `${ALL_DATES}${named(users.near)}&facility_ids=${facilityIds.own}`,
    );
    expect(filtered.searchKeptFirst).toBe(true);
    for (const [principal, query] of [
      [admin, `${ALL_DATES}${named(users.near)}`],
      [radiologist, `${ALL_DATES}${named(users.radiologist)}`],
      [radiologist, 'date_range_type=LAST_1_HOUR&search=chest'],
    ] as const) {
      const criteria = await resolved(principal, query);
      expect({ query, keptFirst: criteria.searchKeptFirst }).toEqual({ query, keptFirst: false });
      expect(
        new PgDialect().sqlToQuery(worklistWhere(server.db, criteria, criteria.statuses)).sql,
      ).not.toContain('"studies"."id" in (select');
    }
  });

  it('pages and counts as ORDER BY and count(*) do, by every column asked', async () => {
    const where = keptWhere([users.near, users.far]);
    for (const [sortBy, column, direction] of [
      ['created_at', 'created_at', 'desc'],
      ['patient_name', 'patient_name', 'asc'],
      ['datetime', 'study_datetime', 'asc'],
      ['status', 'status', 'desc'],
    ] as const) {
      const want = await idsInOrder(server.db, where, 'chest', column, direction);
      expect(want.length).toBe(60);
      for (const offset of [0, 25, 50]) {
        const query = `${ALL_DATES}${named(users.near, users.far)}&sort_by=${sortBy}&sort_order=${direction}&limit=25&offset=${offset}`;
        await expectListedPage(server, tokens.radiologist, query, want, 'exact');
      }
    }
    const counts = await countWorklist(
      server,
      tokens.radiologist,
      `${ALL_DATES}${named(users.near, users.far)}`,
    );
    const expected = await queryRows<{ status: string; n: number }>(
      server.db,
      sql`select status::text as status, count(*)::int as n from studies where ${where}
        and strpos(search_text, 'chest') > 0 group by status`,
    );
    for (const status of STUDY_STATUSES) {
      const n = expected.find((row) => row.status === status)?.n ?? 0;
      expect({ status, count: counts.statuses[status] }).toEqual({
        status,
        count: status === 'DELETED' ? 0 : n,
      });
    }
  });

  it('lists nothing for a colleague who reads none of the caller’s hospital’s studies', async () => {
    for (const sortBy of ['created_at', 'priority_tag']) {
      const page = await listWorklist(
        server,
        tokens.radiologist,
        `${ALL_DATES}${named(users.far)}&sort_by=${sortBy}&limit=25&offset=25`,
      );
      expect({ items: page.items, total: page.total }).toEqual({ items: [], total: 0 });
    }
    const counts = await countWorklist(server, tokens.radiologist, `${ALL_DATES}${named(users.far)}`);
    expect(Object.values(counts.statuses).every((count) => count === 0)).toBe(true);
  });

  it('answers another organisation’s admin naming them 404, and changes nothing', async () => {
    const before = await listWorklist(server, tokens.admin, `${ALL_DATES}${named(users.near)}&limit=100`);
    expect(before.items).toHaveLength(100);
    const foreign = await server.request('GET', `/api/v1/worklist?${ALL_DATES}${named(users.near)}`, {
      token: tokens.foreign,
    });
    expect(foreign.status).toBe(404);
    const after = await listWorklist(server, tokens.admin, `${ALL_DATES}${named(users.near)}&limit=100`);
    expect(after).toEqual(before);
  });
});
