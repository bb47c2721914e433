// GET /report/search on the walk path (a common word: every report of the range matches): scope on
// the reports' copies (a deleted study's report for admins only, another facility's never), many
// facility_ids (more than the merged scans), and pages that continue each other by date and by
// relevance without duplicates or gaps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from '../../test/auth-helpers.ts';
import {
  buildFacility,
  buildOrganisation,
  buildReport,
  buildStudy,
  buildUser,
} from '../../test/factories.ts';
import { NOW, searchAs } from '../../test/report-finder-world.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

const COUNT = 61;
let server: TTestServer;
let tokens: { admin: string; north: string; south: string };
let facilityIds: { north: string; others: string[] };
let ids: { all: string[]; deleted: string; south: string };

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const db = server.db;
  const organisationId = (await buildOrganisation(db)).id;
  const north = await buildFacility(db, { organisationId });
  const south = await buildFacility(db, { organisationId });
  const others = [];
  for (let index = 0; index < 39; index += 1) others.push((await buildFacility(db, { organisationId })).id);
  const all: string[] = [];
  for (let index = 0; index < COUNT; index += 1) {
    const study = await buildStudy(db, {
      facility: north,
      status: 'FINAL',
      createdAt: new Date(NOW.getTime() - (index + 2) * 60_000),
    });
    // Every report matches; some twice, so relevance differs from date order.
    const text = index % 3 === 0 ? 'Pleural effusion. Effusion again.' : 'Small pleural effusion.';
    all.push((await buildReport(db, { study, status: 'COMPLETED', text })).id);
  }
  const deletedStudy = await buildStudy(db, {
    facility: north,
    status: 'DELETED',
    createdAt: new Date(NOW.getTime() - 60_000),
  });
  const deleted = (await buildReport(db, { study: deletedStudy, status: 'DRAFTED', text: 'Effusion.' })).id;
  const southStudy = await buildStudy(db, { facility: south, status: 'FINAL', createdAt: NOW });
  const southReport = (await buildReport(db, { study: southStudy, status: 'COMPLETED', text: 'Effusion.' }))
    .id;
  tokens = {
    admin: await tokenFor(server, await buildUser(db, { role: 'ADMIN', organisationId })),
    north: await tokenFor(server, await buildUser(db, { facilities: [north] })),
    south: await tokenFor(server, await buildUser(db, { facilities: [south] })),
  };
  facilityIds = { north: north.id, others };
  ids = { all, deleted, south: southReport };
}, 60_000);

afterAll(async () => {
  await server?.close();
});

async function allPages(token: string, params: Record<string, string | string[]>) {
  const found: string[] = [];
  let offset: number | null = 0;
  let total = -1;
  while (offset !== null) {
    const response = await searchAs(server, token, { q: 'effusion', limit: 20, offset, ...params });
    expect(response.status).toBe(200);
    expect(response.body.total_capped).toBe(false);
    total = response.body.total;
    found.push(...response.body.items.map((item) => item.report_id));
    offset = response.body.next_offset;
  }
  return { found, total };
}

describe('GET /report/search: the walk path', () => {
  it("a radiologist of the facility never sees a deleted study's report nor another facility's", async () => {
    const { found, total } = await allPages(tokens.north, {});
    expect(total).toBe(COUNT);
    expect([...found].sort()).toEqual([...ids.all].sort());
    const south = await allPages(tokens.south, {});
    expect(south.found).toEqual([ids.south]);
  });

  it('an admin sees the deleted study too, newest first', async () => {
    const { found, total } = await allPages(tokens.admin, { sort_by: 'date' });
    expect(total).toBe(COUNT + 2);
    expect(found.slice(0, 2)).toEqual([ids.south, ids.deleted]);
    expect(found.slice(2)).toEqual(ids.all);
  });

  it('pages continue each other by relevance, without duplicates or gaps', async () => {
    const { found } = await allPages(tokens.north, { sort_by: 'relevance' });
    expect(new Set(found).size).toBe(COUNT);
    expect([...found].sort()).toEqual([...ids.all].sort());
  });

  it('forty facility_ids (more than the merged scans) find what the one facility holds', async () => {
    const { found, total } = await allPages(tokens.admin, {
      facility_ids: [facilityIds.north, ...facilityIds.others],
      sort_by: 'date',
    });
    expect(total).toBe(COUNT + 1);
    expect(found).toEqual([ids.deleted, ...ids.all]);
  });
});
