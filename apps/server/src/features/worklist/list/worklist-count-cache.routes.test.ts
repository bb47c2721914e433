// The count cache behind GET /worklist's total and GET /worklist/status/count: a change committed
// through the API is counted by the next request, on this replica at once and on another one as soon
// as its NOTIFY arrives; a preset's window moving with the clock counts the studies it leaves and
// enters without any change in the database.
import type { TWorklistListResponse, TWorklistStatusCounts } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../../db/schema/index.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../../test/factories.ts';
import { startReplicas, type TReplicaSet } from '../../../test/realtime-replicas.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { worklistCountCacheOf } from './worklist-list.routes.ts';

const NOW = new Date('2024-05-10T12:00:00Z');
const minutes = (count: number) => new Date(NOW.getTime() + count * 60_000);
let now = NOW;
let server: TTestServer;
let token = '';
let facilities: Record<'changed' | 'moving', string>;
const study: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ clock: () => now });
  const db = server.db;
  const organisation = await buildOrganisation(db);
  const changed = await buildFacility(db, { organisationId: organisation.id });
  const moving = await buildFacility(db, { organisationId: organisation.id });
  facilities = { changed: changed.id, moving: moving.id };
  const admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  token = await tokenFor(server, admin);
  const build = async (key: string, facility: typeof changed, status: 'ORDERED' | 'TO_READ', at: Date) => {
    study[key] = (await buildStudy(db, { facility, status, createdAt: at, updatedAt: at })).id;
  };
  await build('ordered', changed, 'ORDERED', minutes(-30));
  await build('toRead', changed, 'TO_READ', minutes(-20));
  // LAST_1_HOUR at NOW: `leaving` is in the window, `entering` (dated ahead) is not yet.
  await build('leaving', moving, 'TO_READ', minutes(-55));
  await build('staying', moving, 'ORDERED', minutes(-5));
  await build('entering', moving, 'ORDERED', minutes(10));
});

afterAll(async () => server.close());

async function countsOf(base: string, query: string, bearer: string): Promise<TWorklistStatusCounts> {
  const response = await fetch(`${base}/api/v1/worklist/status/count?${query}`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as TWorklistStatusCounts;
}

async function totalOf(base: string, query: string, bearer: string): Promise<number> {
  const response = await fetch(`${base}/api/v1/worklist?${query}`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as TWorklistListResponse).total;
}

describe('count cache', () => {
  it('counts a change made through the API on the next request (list total and tab counts)', async () => {
    const query = `facility_ids=${facilities.changed}`;
    const before = await countsOf(server.url, query, token);
    expect(before.statuses).toMatchObject({ ORDERED: 1, TO_READ: 1, DELETED: 0 });
    expect(await totalOf(server.url, query, token)).toBe(2);
    // Asked again, both come from the cache.
    expect(await countsOf(server.url, query, token)).toEqual(before);
    expect(await totalOf(server.url, query, token)).toBe(2);
    expect(worklistCountCacheOf(server.app.deps)?.size).toBeGreaterThanOrEqual(2);

    const deleted = await server.request('DELETE', `/api/v1/worklist/${study.ordered}`, { token });
    expect(deleted.status, deleted.text).toBe(200);

    const after = await countsOf(server.url, query, token);
    expect(after.statuses).toMatchObject({ ORDERED: 0, TO_READ: 1, DELETED: 1 });
    expect(after.groups).toMatchObject({ ALL: 1, ORDERED: 0 });
    expect(await totalOf(server.url, query, token)).toBe(1);
  });

  it('serves a repeated page from memory until a change is announced, then the changed page', async () => {
    const query = `facility_ids=${facilities.changed}&sort_by=created_at&sort_order=asc`;
    const pageOf = async () => {
      const response = await server.request('GET', `/api/v1/worklist?${query}`, { token });
      expect(response.status, response.text).toBe(200);
      return (response.json as TWorklistListResponse).items.map((item) => [item.id, item.patient_name]);
    };
    const first = await pageOf();
    expect(first.map(([id]) => id)).toContain(study.toRead);
    // A write that announces nothing (straight into the database) is not seen by a cached page: it
    // is the page kept in memory that answers.
    await server.db
      .update(t.studies)
      .set({ patientName: 'UNANNOUNCED^RENAME' })
      .where(eq(t.studies.id, study.toRead ?? ''));
    expect(await pageOf()).toEqual(first);
    // A change through the API (announced after commit) evicts it: the next page is read afresh.
    const tagged = await server.request('PUT', '/api/v1/worklist/assign/priority-tag', {
      token,
      body: { worklist_ids: [study.toRead], priority_tag: 'URGENT' },
    });
    expect(tagged.status, tagged.text).toBe(200);
    expect(await pageOf()).toContainEqual([study.toRead, 'UNANNOUNCED^RENAME']);
  });

  it('counts the studies a moving window leaves and enters, with nothing changed in the database', async () => {
    const query = `facility_ids=${facilities.moving}&date_range_type=LAST_1_HOUR`;
    const counts = async () => (await countsOf(server.url, query, token)).statuses;
    const total = () => totalOf(server.url, query, token);
    // Window [−60 min, now]: `leaving` (−55) and `staying` (−5) are in, `entering` (+10) is not.
    expect(await counts()).toMatchObject({ ORDERED: 1, TO_READ: 1 });
    expect(await total()).toBe(2);
    const ids = async () => {
      const response = await server.request('GET', `/api/v1/worklist?${query}`, { token });
      return (response.json as TWorklistListResponse).items.map((item) => item.id).sort();
    };
    expect(await ids()).toEqual([study.leaving, study.staying].sort());
    // A minute later nothing left or entered: the same counts (from the cache).
    now = minutes(1);
    expect(await counts()).toMatchObject({ ORDERED: 1, TO_READ: 1 });
    expect(await total()).toBe(2);
    expect(await ids()).toEqual([study.leaving, study.staying].sort());
    // [−54, +6]: `leaving` has left (the page too, though it was kept).
    now = minutes(6);
    expect(await counts()).toMatchObject({ ORDERED: 1, TO_READ: 0 });
    expect(await total()).toBe(1);
    expect(await ids()).toEqual([study.staying]);
    // [−49, +11]: `entering` has entered.
    now = minutes(11);
    expect(await counts()).toMatchObject({ ORDERED: 2, TO_READ: 0 });
    expect(await total()).toBe(2);
  });
});

describe('count cache across replicas', () => {
  let set: TReplicaSet;
  beforeAll(async () => {
    set = await startReplicas(2);
  });
  afterAll(async () => set.close());

  it("counts another replica's change once its announcement arrives", async () => {
    const db = set.database.db;
    const organisation = await buildOrganisation(db);
    const facility = await buildFacility(db, { organisationId: organisation.id });
    const admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
    const ordered = await buildStudy(db, { facility, status: 'ORDERED' });
    const bearer = await set.tokenFor(admin);
    const [writer, reader] = set.replicas;
    if (!writer || !reader) throw new Error('two replicas expected');
    const query = `facility_ids=${facility.id}`;
    expect((await countsOf(reader.url, query, bearer)).statuses).toMatchObject({ ORDERED: 1, DELETED: 0 });
    expect((await countsOf(reader.url, query, bearer)).statuses).toMatchObject({ ORDERED: 1, DELETED: 0 });
    expect(worklistCountCacheOf(reader.app.deps)?.size).toBeGreaterThanOrEqual(1);

    const deleted = await fetch(`${writer.url}/api/v1/worklist/${ordered.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(deleted.status).toBe(200);
    // The reader serves its cached counts until the NOTIFY arrives (entries live 60 s otherwise).
    await expect
      .poll(async () => (await countsOf(reader.url, query, bearer)).statuses, {
        timeout: 10_000,
        interval: 20,
      })
      .toMatchObject({ ORDERED: 0, DELETED: 1 });
  });
});
