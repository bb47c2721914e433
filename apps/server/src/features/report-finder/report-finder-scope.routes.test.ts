// GET /report/search, who finds what and every filter: scope as the worklist's (admins the
// organisation with deleted studies, staff their facilities, referring physicians the FINAL reports
// of the studies they referred, another organisation nothing), pagination and bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import {
  buildFinderWorld,
  idsFound,
  NOW,
  searchAs,
  type TFinderWorld,
} from '../../test/report-finder-world.ts';

let server: TTestServer;
let world: TFinderWorld;

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  world = await buildFinderWorld(server);
});

afterAll(async () => {
  await server?.close();
});

const sorted = (ids: string[]) => [...ids].sort();

describe('GET /report/search: scope', () => {
  it('an admin finds the whole organisation, deleted studies included', async () => {
    const { effusion, effusions, fracture, deleted, prior } = world.reports;
    expect(sorted(await idsFound(server, world.tokens.admin, { q: 'effusion' }))).toEqual(
      sorted([effusion.id, effusions.id, fracture.id, deleted.id, prior.id]),
    );
  });

  it("a radiologist finds his facilities' reports only, never a deleted study's", async () => {
    const { effusion, effusions, fracture, prior } = world.reports;
    expect(sorted(await idsFound(server, world.tokens.rad1, { q: 'effusion' }))).toEqual(
      sorted([effusion.id, effusions.id, prior.id]),
    );
    expect(await idsFound(server, world.tokens.rad2, { q: 'effusion' })).toEqual([fracture.id]);
  });

  it('a radiologist naming another facility gets 404 naming facility_ids', async () => {
    const response = await searchAs(server, world.tokens.rad2, { facility_ids: [world.f1.id] });
    expect(response.status).toBe(404);
    expect(response.text).toContain('facility_ids');
  });

  it('a referring physician finds only the FINAL reports of the studies he referred', async () => {
    const { effusion, prior } = world.reports;
    expect(sorted(await idsFound(server, world.tokens.referrer, { q: 'effusion' }))).toEqual(
      sorted([effusion.id, prior.id]),
    );
    expect(sorted(await idsFound(server, world.tokens.referrer, {}))).toEqual(
      sorted([effusion.id, prior.id]),
    );
  });

  it('another organisation finds nothing of it, and a facility of it is not found', async () => {
    expect(await idsFound(server, world.tokens.outsider, { q: 'effusion' })).toEqual([
      world.reports.foreign.id,
    ]);
    const response = await searchAs(server, world.tokens.outsider, { facility_ids: [world.f1.id] });
    expect(response.status).toBe(404);
  });

  it('answers 401 without a token', async () => {
    const response = await server.request('GET', '/api/v1/report/search');
    expect(response.status).toBe(401);
  });
});

describe('GET /report/search: filters', () => {
  const as = (params: Record<string, string | number | string[] | undefined>) =>
    idsFound(server, world.tokens.admin, params).then(sorted);

  it('dates: a preset in a time zone, custom bounds', async () => {
    const { effusion, effusions, deleted } = world.reports;
    expect(await as({ date_range_type: 'TODAY', time_zone: 'UTC' })).toEqual(
      sorted([effusion.id, deleted.id]),
    );
    expect(await as({ date_range_type: 'LAST_2_DAYS', q: 'effusion' })).toEqual(
      sorted([effusion.id, effusions.id, deleted.id]),
    );
    expect(
      await as({
        date_range_type: 'CUSTOM',
        start_date: '2026-10-01',
        end_date: '2026-10-31',
        q: 'effusion',
      }),
    ).toEqual([world.reports.prior.id]);
  });

  it('facility, modality, priority tag', async () => {
    const { fracture, effusions } = world.reports;
    expect(await as({ q: 'effusion', facility_ids: [world.f2.id] })).toEqual([fracture.id]);
    expect(await as({ q: 'effusion', modalities: ['MRI'] })).toEqual([effusions.id]);
    expect(await as({ priority_tags: ['EMERGENCY', 'URGENT'] })).toEqual(sorted([fracture.id, effusions.id]));
  });

  it('radiologist (who signed), report status, tag, referring physician', async () => {
    const { effusion, effusions, fracture, oedeme, prior, hindi, deleted } = world.reports;
    expect(await as({ radiologist_ids: [world.rad2.id] })).toEqual([fracture.id]);
    expect(await as({ radiologist_ids: [world.rad1.id] })).toEqual(
      sorted([effusion.id, oedeme.id, prior.id]),
    );
    expect(await as({ report_statuses: ['DRAFTED'] })).toEqual(sorted([effusions.id, hindi.id, deleted.id]));
    expect(await as({ tag_ids: [world.tag.id] })).toEqual([effusions.id]);
    expect(await as({ referring_physician_ids: [world.otherReferrer.id] })).toEqual([fracture.id]);
    expect(await as({ referring_physician_ids: [world.referrer.id], q: 'effusion' })).toEqual(
      sorted([effusion.id, effusions.id, prior.id]),
    );
  });

  it("a patient's other reports (the prior-reports panel), newest first", async () => {
    const ids = await idsFound(server, world.tokens.rad1, {
      patient_id: world.patient.id,
      exclude_study_id: world.studies.effusionStudy.id,
    });
    expect(ids).toEqual([world.reports.prior.id]);
  });

  it("the patient/study text search of the worklist (patient's name)", async () => {
    expect(await as({ search: 'asha' })).toEqual(sorted([world.reports.effusion.id, world.reports.prior.id]));
  });

  it('a hit carries the study, patient, facility, radiologist and PDF facts', async () => {
    const response = await searchAs(server, world.tokens.admin, { q: 'displaced' });
    expect(response.body.items).toHaveLength(1);
    expect(response.body.items[0]).toMatchObject({
      report_id: world.reports.fracture.id,
      study_id: world.studies.fractureStudy.id,
      facility_id: world.f2.id,
      facility_name: 'South Clinic',
      study_status: 'FINAL',
      report_status: 'COMPLETED',
      priority_tag: 'EMERGENCY',
      radiologist: { id: world.rad2.id, display_name: 'Dr Two' },
      has_pdf: false,
    });
  });
});

describe('GET /report/search: pages and bad input', () => {
  it('pages with an exact total, past the end empty', async () => {
    const all = await idsFound(server, world.tokens.admin, {});
    expect(all.length).toBe(7);
    const first = await searchAs(server, world.tokens.admin, { limit: 3 });
    expect(first.body).toMatchObject({
      total: 7,
      limit: 3,
      offset: 0,
      next_offset: 3,
      previous_offset: null,
    });
    const third = await searchAs(server, world.tokens.admin, { limit: 3, offset: 6 });
    expect(third.body.items.map((item) => item.report_id)).toEqual(all.slice(6));
    expect(third.body.next_offset).toBeNull();
    const past = await searchAs(server, world.tokens.admin, { limit: 3, offset: 30 });
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ total: 7, items: [] });
  });

  it.each([
    ['limit', { limit: 0 }],
    ['limit', { limit: 101 }],
    ['offset', { offset: -1 }],
    ['sort_by', { sort_by: 'name' }],
    ['report_statuses', { report_statuses: ['FINAL'] }],
    ['radiologist_ids', { radiologist_ids: ['nope'] }],
    ['patient_id', { patient_id: 'nope' }],
    ['time_zone', { time_zone: 'Mars/Olympus' }],
    ['search', { search: 'asha\u0000' }],
    ['search', { search: 'x'.repeat(201) }],
    ['start_date', { date_range_type: 'CUSTOM', start_date: '2026-11-20', end_date: '2026-11-01' }],
  ])('answers 400 naming %s', async (field, params) => {
    const response = await searchAs(server, world.tokens.admin, params);
    expect(response.status, response.text).toBe(400);
    expect(response.text).toContain(field);
  });
});
