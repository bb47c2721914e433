// The report finder's test world: one organisation with two facilities, its staff, a referring
// physician, reports whose words the tests search for, and another organisation's look-alike report.
import type { TReportSearchResponse } from '@ris/domain';
import * as t from '../db/schema/index.ts';
import { tokenFor } from './auth-helpers.ts';
import {
  buildFacility,
  buildOrganisation,
  buildPatient,
  buildReport,
  buildStudy,
  buildUser,
} from './factories.ts';
import type { TTestResponse, TTestServer } from './test-server.ts';

export const NOW = new Date('2026-11-19T12:00:00Z');
const HOUR = 3_600_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

function one<T>(rows: T[]): T {
  const [row] = rows;
  if (!row) throw new Error('insert returned no row');
  return row;
}

export type TFinderWorld = Awaited<ReturnType<typeof buildFinderWorld>>;

export async function buildFinderWorld(server: TTestServer) {
  const db = server.db;
  const organisationId = (await buildOrganisation(db)).id;
  const f1 = await buildFacility(db, { organisationId, name: 'North Hospital' });
  const f2 = await buildFacility(db, { organisationId, name: 'South Clinic' });
  const admin = await buildUser(db, { role: 'ADMIN', organisationId });
  const rad1 = await buildUser(db, { facilities: [f1], displayName: 'Dr One' });
  const rad2 = await buildUser(db, { facilities: [f2], displayName: 'Dr Two' });
  const referrerUser = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId });
  const referrer = one(
    await db
      .insert(t.referringPhysicians)
      .values({ organisationId, userId: referrerUser.id, name: 'Dr Referrer' })
      .returning(),
  );
  const otherReferrer = one(
    await db.insert(t.referringPhysicians).values({ organisationId, name: 'Dr Other' }).returning(),
  );
  const tag = one(
    await db.insert(t.tags).values({ organisationId, scope: 'ORGANISATION', name: 'Teaching' }).returning(),
  );
  const patient = await buildPatient(db, { facility: f1, name: 'Asha Rao' });

  const effusionStudy = await buildStudy(db, {
    facility: f1,
    patient,
    status: 'FINAL',
    createdAt: ago(2 * HOUR),
    referringPhysicianId: referrer.id,
    lastAssignedUserId: rad1.id,
  });
  const effusion = await buildReport(db, {
    study: effusionStudy,
    status: 'COMPLETED',
    finalizedBy: rad1.id,
    text: 'Moderate left pleural effusion.\nNo rib fracture is seen.',
  });
  const effusionsStudy = await buildStudy(db, {
    facility: f1,
    status: 'DRAFTED',
    createdAt: ago(26 * HOUR),
    modality: 'MR',
    priorityTag: 'URGENT',
    referringPhysicianId: referrer.id,
    lastAssignedUserId: rad1.id,
  });
  const effusions = await buildReport(db, {
    study: effusionsStudy,
    status: 'DRAFTED',
    text: 'Bilateral pleural effusions with basal atelectasis.',
  });
  await db.insert(t.worklistTags).values({ studyId: effusionsStudy.id, tagId: tag.id, userId: admin.id });
  const fractureStudy = await buildStudy(db, {
    facility: f2,
    status: 'FINAL',
    createdAt: ago(3 * 24 * HOUR),
    priorityTag: 'EMERGENCY',
    referringPhysicianId: otherReferrer.id,
    lastAssignedUserId: rad2.id,
  });
  const fracture = await buildReport(db, {
    study: fractureStudy,
    status: 'COMPLETED',
    finalizedBy: rad2.id,
    text: 'Displaced rib fractures on the right. A small pleural effusion and the lung is clear.',
  });
  const oedemeStudy = await buildStudy(db, {
    facility: f1,
    status: 'FINAL',
    createdAt: ago(5 * 24 * HOUR),
    lastAssignedUserId: rad1.id,
  });
  const oedeme = await buildReport(db, {
    study: oedemeStudy,
    status: 'COMPLETED',
    finalizedBy: rad1.id,
    text: 'Diffuse cerebral oedème with effacement of sulci.',
  });
  const hindiStudy = await buildStudy(db, {
    facility: f1,
    status: 'IN_REVIEW',
    createdAt: ago(6 * 24 * HOUR),
  });
  const hindi = await buildReport(db, {
    study: hindiStudy,
    status: 'DRAFTED',
    text: 'फुफ्फुसों में द्रव है। Lungs otherwise unremarkable.',
  });
  const deletedStudy = await buildStudy(db, { facility: f1, status: 'DELETED', createdAt: ago(HOUR) });
  const deleted = await buildReport(db, {
    study: deletedStudy,
    status: 'DRAFTED',
    text: 'Pleural effusion in a study that was deleted.',
  });
  const priorStudy = await buildStudy(db, {
    facility: f1,
    patient,
    status: 'FINAL',
    createdAt: ago(40 * 24 * HOUR),
    referringPhysicianId: referrer.id,
  });
  const prior = await buildReport(db, {
    study: priorStudy,
    status: 'COMPLETED',
    finalizedBy: rad1.id,
    text: 'Small pleural effusion, follow-up advised.',
  });
  // Another organisation: the same words, never found.
  const foreignFacility = await buildFacility(db);
  const outsider = await buildUser(db, { role: 'ADMIN', organisationId: foreignFacility.organisationId });
  const foreignStudy = await buildStudy(db, {
    facility: foreignFacility,
    status: 'FINAL',
    createdAt: ago(HOUR),
  });
  const foreign = await buildReport(db, {
    study: foreignStudy,
    status: 'COMPLETED',
    text: 'Moderate left pleural effusion.',
  });

  const tokens = {
    admin: await tokenFor(server, admin),
    rad1: await tokenFor(server, rad1),
    rad2: await tokenFor(server, rad2),
    referrer: await tokenFor(server, referrerUser),
    outsider: await tokenFor(server, outsider),
  };
  return {
    organisationId,
    f1,
    f2,
    admin,
    rad1,
    rad2,
    referrer,
    otherReferrer,
    tag,
    patient,
    tokens,
    reports: { effusion, effusions, fracture, oedeme, hindi, deleted, prior, foreign },
    studies: {
      effusionStudy,
      effusionsStudy,
      fractureStudy,
      oedemeStudy,
      hindiStudy,
      deletedStudy,
      priorStudy,
    },
  };
}

/** Query parameters: arrays are repeated; every date unless a date filter is given. */
export type TSearchParams = Record<string, string | number | string[] | undefined>;

export function searchPath(params: TSearchParams): string {
  const query = new URLSearchParams();
  if (params.date_range_type === undefined) query.set('date_range_type', 'CUSTOM');
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, String(item));
  }
  return `/api/v1/report/search?${query.toString()}`;
}

export async function searchAs(
  server: TTestServer,
  token: string,
  params: TSearchParams,
): Promise<TTestResponse & { body: TReportSearchResponse }> {
  const response = await server.request('GET', searchPath(params), { token });
  return { ...response, body: response.json as TReportSearchResponse };
}

/** The report ids of a 200 answer, in order (fails the test on any other status). */
export async function idsFound(server: TTestServer, token: string, params: TSearchParams): Promise<string[]> {
  const response = await searchAs(server, token, params);
  if (response.status !== 200)
    throw new Error(`search ${searchPath(params)}: ${response.status} ${response.text}`);
  return response.body.items.map((item) => item.report_id);
}
