// A keyless search's tabs (a text too short for the trigram keys, counted up to the cap) are capped
// by the listed matches alone: many deleted matches (counted for admins beside them, up to as many)
// make the DELETED count a lower bound (deleted_capped), never the tabs' exact counts "at least".
import {
  WORKLIST_SEARCH_COUNT_CAP,
  type TWorklistListResponse,
  type TWorklistStatusCounts,
} from '@ris/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { buildFacility, buildOrganisation, buildPatient, buildUser } from '../../../test/factories.ts';
import { seedingStudies } from '../../../test/seeding-studies.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';

const NOW = new Date('2026-11-19T12:00:00Z');
const DELETED = WORKLIST_SEARCH_COUNT_CAP + 20;
let server: TTestServer;
const tokens = { admin: '', radiologist: '', otherAdmin: '' };

type TFacility = Awaited<ReturnType<typeof buildFacility>>;

/** `count` studies of `status` named `name`, an hour apart back from NOW. */
async function insertStudies(facility: TFacility, count: number, name: string, status: string) {
  const patient = await buildPatient(server.db, { facility });
  await server.db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, status, created_at)
    select ${facility.organisationId}::uuid, ${facility.id}::uuid, ${patient.id}::uuid,
      ${`${name}-${status}-`} || g, ${name}, ${status}::study_status,
      ${NOW.toISOString()}::timestamptz - g * interval '1 hour'
    from generate_series(1, ${count}) g`);
}

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const db = server.db;
  const organisationId = (await buildOrganisation(db)).id;
  const facility = await buildFacility(db, { organisationId });
  tokens.admin = await tokenFor(server, await buildUser(db, { role: 'ADMIN', organisationId }));
  tokens.radiologist = await tokenFor(
    server,
    await buildUser(db, { role: 'RADIOLOGIST', facilities: [facility] }),
  );
  await seedingStudies(db, async () => {
    await insertStudies(facility, DELETED, 'Qzy Doe', 'DELETED');
    for (const status of ['ORDERED', 'TO_READ', 'FINAL']) await insertStudies(facility, 1, 'Qzy Roe', status);
  });
  const other = (await buildOrganisation(db)).id;
  tokens.otherAdmin = await tokenFor(server, await buildUser(db, { role: 'ADMIN', organisationId: other }));
});

afterAll(async () => server.close());

async function get<T>(path: string, token: string): Promise<T> {
  const response = await server.request('GET', path, { token });
  expect(response.status, response.text).toBe(200);
  return response.json as T;
}

const counts = (token: string) =>
  get<TWorklistStatusCounts>('/api/v1/worklist/status/count?search=qz&date_range_type=CUSTOM', token);

describe('a keyless search with more deleted matches than the cap', () => {
  it('gives an admin exact tabs and a DELETED count marked as a lower bound', async () => {
    const answer = await counts(tokens.admin);
    expect(answer).toMatchObject({
      groups: { ALL: 3, ORDERED: 1, ON_PROGRESS: 1, COMPLETED: 1 },
      capped: false,
      deleted_capped: true,
    });
    // Counted up to one past the cap, as the listed ones are.
    expect(answer.statuses.DELETED).toBe(WORKLIST_SEARCH_COUNT_CAP + 1);
    const page = await get<TWorklistListResponse>(
      '/api/v1/worklist?search=qz&date_range_type=CUSTOM',
      tokens.admin,
    );
    expect({ total: page.total, capped: page.total_capped }).toEqual({ total: 3, capped: false });
  });

  it('gives staff, who count no deleted study, exact counts', async () => {
    expect(await counts(tokens.radiologist)).toMatchObject({
      groups: { ALL: 3 },
      statuses: { DELETED: 0 },
      capped: false,
      deleted_capped: false,
    });
  });

  it('counts nothing of another organisation', async () => {
    expect(await counts(tokens.otherAdmin)).toMatchObject({
      groups: { ALL: 0 },
      statuses: { DELETED: 0 },
      capped: false,
      deleted_capped: false,
    });
  });
});
