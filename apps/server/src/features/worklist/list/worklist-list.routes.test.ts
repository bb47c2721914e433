// GET /worklist and /worklist/status/count: each filter alone and combined, pagination, sorting and
// the date presets in a time zone (the server's clock is fixed through app.deps.clock).
import {
  PRIORITY_TAGS,
  STUDY_STATUSES,
  WORKLIST_SORT_FIELDS,
  type TWorklistItem,
  type TWorklistListResponse,
  type TWorklistStatusCounts,
} from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';

// 2024-03-31 is the day Europe/Berlin springs forward (02:00 CET → 03:00 CEST): its day starts at
// 2024-03-30T23:00Z, one hour before the UTC day.
const NOW = new Date('2024-03-31T10:00:00Z');
let server: TTestServer;
let adminToken = '';
const id: Record<string, string> = {};
let f1 = '';
let f2 = '';
let rad1 = '';

const at = (time: string) => new Date(`2024-03-${time}Z`);

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const db = server.db;
  const organisation = await buildOrganisation(db);
  const facility1 = await buildFacility(db, { organisationId: organisation.id });
  const facility2 = await buildFacility(db, { organisationId: organisation.id });
  [f1, f2] = [facility1.id, facility2.id];
  const admin = await buildUser(db, { role: 'ADMIN', organisationId: organisation.id });
  const r1 = await buildUser(db, { facilities: [facility1, facility2] });
  const r2 = await buildUser(db, { facilities: [facility2] });
  rad1 = r1.id;
  adminToken = await tokenFor(server, admin);
  const specs = [
    // key, facility, modality, status, name, patient id, accession, description, created, extra
    [
      'garcia',
      facility1,
      'CT',
      'ORDERED',
      'José García',
      'MRN-001',
      'ACC_5%x',
      'CT Brain',
      '31T01:00:00',
      {},
    ],
    ['muller', facility1, 'MR', 'TO_READ', 'Zoë Müller', 'MRN-002', 'ACC75x', 'MR Knee', '31T02:00:00', {}],
    ['lopez', facility2, 'X-RAY', 'ASSIGNED', 'Ana López', 'MRN-003', 'ACC3', 'XR Chest', '31T03:00:00', {}],
    ['smith', facility2, 'USG', 'FINAL', 'Peter Smith', 'MRN-004', 'ACC4', 'US Abdomen', '31T04:00:00', {}],
    [
      'lefevre',
      facility1,
      'CT,SR',
      'DRAFTED',
      'François Lefèvre',
      'MRN-005',
      'ACC5',
      'CT Chest',
      '31T05:00:00',
      {},
    ],
    ['deleted', facility1, 'NM', 'DELETED', 'Dora Deleted', 'MRN-006', 'ACC6', 'NM Bone', '31T06:00:00', {}],
    ['tie', facility2, 'CT', 'IN_REVIEW', 'Bob Tie', 'MRN-007', 'ACC7', 'CT Brain', '31T06:00:00', {}],
    ['old', facility1, 'CT', 'FINAL', 'Olga Old', 'MRN-008', 'ACC8', 'CT Brain', '20T12:00:00', {}],
    ['berlin', facility2, 'MR', 'IN_REVIEW', 'Hana Berlin', 'MRN-009', 'ACC9', 'MR Brain', '30T23:30:00', {}],
    [
      'lastday',
      facility2,
      'MRI',
      'FINAL',
      'Kemal Lastday',
      'MRN-010',
      'ACC10',
      'MR Spine',
      '30T22:30:00',
      {},
    ],
  ] as const;
  for (const [
    key,
    facility,
    modality,
    status,
    patientName,
    patientIdentifier,
    accession,
    study,
    created,
  ] of specs) {
    const assigned = ['ASSIGNED', 'DRAFTED', 'IN_REVIEW'].includes(status)
      ? r1
      : status === 'FINAL'
        ? r2
        : null;
    const createdAt = at(created);
    const row = await buildStudy(db, {
      facility,
      modality,
      status,
      patientName,
      patientIdentifier,
      accessionNumber: accession,
      studyDescription: study,
      createdAt,
      updatedAt: new Date(createdAt.getTime() + (key.length % 4) * 60_000),
      studyDatetime: key === 'garcia' ? null : new Date(createdAt.getTime() - 3_600_000),
      seriesCount: key.length % 3,
      priorityTag: key === 'garcia' ? 'URGENT' : key === 'lopez' ? 'ROUTINE' : null,
      lastAssignedUserId: assigned?.id ?? null,
    });
    id[key] = row.id;
  }
});

afterAll(async () => server.close());

async function list(query = ''): Promise<TWorklistListResponse> {
  const response = await server.request('GET', `/api/v1/worklist?${query}`, { token: adminToken });
  expect(response.status, response.text).toBe(200);
  return response.json as TWorklistListResponse;
}

async function keys(query = ''): Promise<string[]> {
  const names = Object.fromEntries(Object.entries(id).map(([key, value]) => [value, key]));
  return (await list(query)).items.map((item) => names[item.id] ?? item.id);
}

const sorted = (values: string[]) => [...values].sort();
const WIDE = 'date_range_type=CUSTOM&start_date=2024-03-01&end_date=2024-03-31';

describe('GET /worklist filters', () => {
  it('lists today (UTC) newest first without deleted studies by default', async () => {
    const page = await list();
    expect(page.items.map((item) => item.id)).toEqual(
      [id.tie, id.lefevre, id.smith, id.lopez, id.muller, id.garcia].map(String),
    );
    expect(page).toMatchObject({ total: 6, limit: 10, offset: 0, next_offset: null, previous_offset: null });
    const item = page.items.find((row) => row.id === id.lopez) as TWorklistItem;
    expect(item).toMatchObject({
      facility_fk: f2,
      patient_name: 'Ana López',
      modality: 'X-RAY',
      modality_group: 'XRAY',
      status: 'ASSIGNED',
      priority_tag: 'ROUTINE',
      last_assigned_user_fk: rad1,
      patient_documents: [],
    });
    expect(item.last_assigned_user_display_name).toMatch(/^Test /);
    expect(item.facility).toMatch(/^Facility /);
    // Items are built as JSON in SQL: each is the presenter's item (GET /worklist/:id), field for field.
    for (const listed of page.items) {
      const one = await server.request('GET', `/api/v1/worklist/${listed.id}`, { token: adminToken });
      expect(listed).toEqual(one.json);
      expect(Object.keys(listed)).toEqual(Object.keys(one.json as TWorklistItem));
    }
  });

  it('statuses: one, repeated keys, and DELETED for an admin', async () => {
    expect(await keys('statuses=ORDERED')).toEqual(['garcia']);
    expect(sorted(await keys('statuses=ORDERED&statuses=FINAL'))).toEqual(['garcia', 'smith']);
    expect(await keys('statuses=DELETED')).toEqual(['deleted']);
  });

  it('modalities: a group matches all its variants', async () => {
    expect(sorted(await keys(`modalities=CT&${WIDE}`))).toEqual(['garcia', 'lefevre', 'old', 'tie']);
    expect(sorted(await keys(`modalities=MRI&${WIDE}`))).toEqual(['berlin', 'lastday', 'muller']);
    expect(sorted(await keys('modalities=XRAY&modalities=USG'))).toEqual(['lopez', 'smith']);
  });

  it('facility_ids and by_user_ids', async () => {
    expect(sorted(await keys(`facility_ids=${f2}`))).toEqual(['lopez', 'smith', 'tie']);
    expect(sorted(await keys(`facility_ids=${f1}&facility_ids=${f2}`))).toHaveLength(6);
    expect(sorted(await keys(`by_user_ids=${rad1}`))).toEqual(['lefevre', 'lopez', 'tie']);
  });

  it('search: substring of name, patient id, accession or study; case- and accent-insensitive', async () => {
    expect(await keys('search=GARC')).toEqual(['garcia']);
    expect(await keys(`search=${encodeURIComponent('lópez')}`)).toEqual(['lopez']);
    expect(await keys(`search=${encodeURIComponent('MULLER')}`)).toEqual(['muller']);
    expect(await keys('search=mrn-004')).toEqual(['smith']);
    expect(await keys(`search=${encodeURIComponent('ñoise')}`)).toEqual([]);
    expect(sorted(await keys('search=chest'))).toEqual(['lefevre', 'lopez']);
    expect(await keys('search=%20%20')).toHaveLength(6); // blank search is no filter
  });

  it('search: LIKE metacharacters match literally', async () => {
    expect(await keys(`search=${encodeURIComponent('c_5')}`)).toEqual(['garcia']);
    expect(await keys(`search=${encodeURIComponent('5%x')}`)).toEqual(['garcia']);
    expect(await keys(`search=${encodeURIComponent('%')}`)).toEqual(['garcia']);
    expect(await keys(`search=${encodeURIComponent('\\')}`)).toEqual([]);
  });

  it('combines filters', async () => {
    const query = `facility_ids=${f1}&modalities=CT&statuses=DRAFTED&statuses=ORDERED&search=fran&${WIDE}`;
    expect(await keys(query)).toEqual(['lefevre']);
    const counts = await server.request('GET', `/api/v1/worklist/status/count?${query}`, {
      token: adminToken,
    });
    expect((counts.json as TWorklistStatusCounts).groups).toEqual({
      ALL: 1,
      ORDERED: 0,
      ON_PROGRESS: 1,
      COMPLETED: 0,
    });
  });

  it('date presets follow time_zone across a DST change (clock fixed at 2024-03-31T10:00Z)', async () => {
    expect(await keys('date_range_type=TODAY&time_zone=Europe/Berlin&statuses=IN_REVIEW')).toEqual([
      'tie',
      'berlin',
    ]);
    expect(await keys('date_range_type=TODAY&time_zone=UTC&statuses=IN_REVIEW')).toEqual(['tie']);
    expect(await keys('date_range_type=YESTERDAY&time_zone=Europe/Berlin')).toEqual(['lastday']);
    expect(sorted(await keys('date_range_type=YESTERDAY'))).toEqual(['berlin', 'lastday']);
    expect(await keys('date_range_type=LAST_1_HOUR')).toEqual([]);
    expect(await keys('date_range_type=LAST_12_HOURS&statuses=IN_REVIEW')).toEqual(['tie', 'berlin']);
    expect(await keys('date_range_type=LAST_1_MONTH&statuses=FINAL')).toEqual(['smith', 'lastday', 'old']);
  });

  it('CUSTOM: dates are whole days in time_zone, date-times exact, either bound open', async () => {
    expect(await keys('date_range_type=CUSTOM&start_date=2024-03-20&end_date=2024-03-20')).toEqual(['old']);
    expect(
      await keys('date_range_type=CUSTOM&start_date=2024-03-31&end_date=2024-03-31&time_zone=Europe/Berlin'),
    ).toHaveLength(7);
    const exact = `start_date=${encodeURIComponent('2024-03-31T02:00:00+00:00')}&end_date=${encodeURIComponent('2024-03-31T04:00:00Z')}`;
    expect(await keys(`date_range_type=CUSTOM&${exact}`)).toEqual(['smith', 'lopez', 'muller']);
    expect(await keys('date_range_type=CUSTOM&end_date=2024-03-29')).toEqual(['old']);
    expect(await keys('date_range_type=CUSTOM')).toHaveLength(9);
    // presets ignore the dates
    expect(await keys('date_range_type=TODAY&start_date=2024-03-20&end_date=2024-03-20')).toHaveLength(6);
  });
});

describe('GET /worklist pagination and sorting', () => {
  it('pages with next_offset / previous_offset, null at the ends, empty past the end', async () => {
    const first = await list(`limit=4&${WIDE}`);
    expect(first).toMatchObject({ total: 9, offset: 0, next_offset: 4, previous_offset: null });
    const middle = await list(`limit=4&offset=4&${WIDE}`);
    expect(middle).toMatchObject({ offset: 4, next_offset: 8, previous_offset: 0 });
    const last = await list(`limit=4&offset=8&${WIDE}`);
    expect(last).toMatchObject({ offset: 8, next_offset: null, previous_offset: 4 });
    expect(last.items).toHaveLength(1);
    const all = [...first.items, ...middle.items, ...last.items].map((item) => item.id);
    expect(new Set(all).size).toBe(9);
    const beyond = await list(`limit=4&offset=50&${WIDE}`);
    expect(beyond).toMatchObject({ items: [], total: 9, next_offset: null, previous_offset: 46 });
    expect(await list(`limit=3&offset=1&${WIDE}`)).toMatchObject({ previous_offset: 0, next_offset: 4 });
    // A search's matches collected and sorted: past the end, the page is empty and the total theirs.
    for (const sort of ['', '&sort_by=patient_name&sort_order=asc', '&sort_by=updated_at&sort_order=desc']) {
      const found = await list(`search=brain&limit=2&${WIDE}${sort}`);
      const past = await list(`search=brain&limit=2&offset=50&${WIDE}${sort}`);
      expect({ sort, items: past.items, total: past.total }).toEqual({ sort, items: [], total: found.total });
      expect(found.total).toBeGreaterThan(2);
    }
  });

  const enumRank = (values: readonly string[]) => (value: string | null) =>
    value === null ? null : values.indexOf(value);
  const sortValue: Record<
    (typeof WORKLIST_SORT_FIELDS)[number],
    (item: TWorklistItem) => string | number | null
  > = {
    created_at: (item) => item.created_at,
    updated_at: (item) => item.updated_at,
    datetime: (item) => item.datetime,
    patient_name: (item) => item.patient_name,
    patient_id: (item) => item.patient_id,
    modality: (item) => item.modality,
    study: (item) => item.study,
    status: (item) => enumRank(STUDY_STATUSES)(item.status),
    priority_tag: (item) => enumRank(PRIORITY_TAGS)(item.priority_tag),
    series_count: (item) => item.series_count,
  };

  /** PostgreSQL's order: nulls last ascending (first descending), then id in the same direction. */
  function compare(field: keyof typeof sortValue, a: TWorklistItem, b: TWorklistItem): number {
    const [x, y] = [sortValue[field](a), sortValue[field](b)];
    if (x === y) return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return x < y ? -1 : 1;
  }

  for (const field of WORKLIST_SORT_FIELDS) {
    for (const order of ['asc', 'desc'] as const) {
      it(`sorts by ${field} ${order} with a stable id tiebreak`, async () => {
        const { items } = await list(`sort_by=${field}&sort_order=${order}&limit=100&${WIDE}`);
        expect(items).toHaveLength(9);
        const expected = [...items].sort((a, b) => (order === 'asc' ? 1 : -1) * compare(field, a, b));
        expect(items.map((item) => item.id)).toEqual(expected.map((item) => item.id));
        // The pages of a sort concatenate to the whole list.
        const pages = [0, 2, 4, 6, 8].map((offset) =>
          list(`sort_by=${field}&sort_order=${order}&limit=2&offset=${offset}&${WIDE}`),
        );
        const paged = (await Promise.all(pages)).flatMap((page) => page.items.map((item) => item.id));
        expect(paged).toEqual(items.map((item) => item.id));
        // With a search (the page is read from the collected matches): the same order, the same pages.
        const matching = items.filter((item) => /mrn/i.test(item.patient_id)).map((item) => item.id);
        expect(matching.length).toBeGreaterThan(2);
        const searched = await list(`search=mrn&sort_by=${field}&sort_order=${order}&limit=100&${WIDE}`);
        expect(searched.items.map((item) => item.id)).toEqual(matching);
        expect(searched.total).toBe(matching.length);
        const searchedPages = await Promise.all(
          [0, 2, 4, 6, 8].map((offset) =>
            list(`search=mrn&sort_by=${field}&sort_order=${order}&limit=2&offset=${offset}&${WIDE}`),
          ),
        );
        expect(searchedPages.flatMap((page) => page.items.map((item) => item.id))).toEqual(matching);
      });
    }
  }
});

describe('GET /worklist/status/count', () => {
  it('counts per status and group under the other filters, ignoring statuses', async () => {
    const response = await server.request(
      'GET',
      '/api/v1/worklist/status/count?statuses=ORDERED&time_zone=Europe/Berlin',
      { token: adminToken },
    );
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({
      statuses: { ORDERED: 1, TO_READ: 1, ASSIGNED: 1, IN_REVIEW: 2, DRAFTED: 1, FINAL: 1, DELETED: 1 },
      groups: { ALL: 7, ORDERED: 1, ON_PROGRESS: 5, COMPLETED: 1 },
      capped: false,
      deleted_capped: false,
    });
  });
});
