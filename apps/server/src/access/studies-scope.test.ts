import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPrincipal } from '../auth/principal.ts';
import type { TDatabase } from '../db/client.ts';
import * as t from '../db/schema/index.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from '../test/factories.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { loadScope } from './scope.ts';
import { effectiveByUserIds, mayReadReportOf, visibleStudies } from './studies-scope.ts';

let database: TDatabase;
type TUser = Awaited<ReturnType<typeof buildUser>>;
const studyIds: Record<string, string> = {};
let users: Record<
  'admin' | 'radiologist' | 'transcriptionist' | 'facilityAdmin' | 'referrer' | 'outsider',
  TUser
>;

function principalOf(user: TUser, userType: TPrincipal['userType'] = null): TPrincipal {
  return {
    userId: user.id,
    email: user.email,
    organisationId: user.organisationId,
    role: user.role,
    userType,
    facilityIds: [],
    sessionId: randomUUID(),
    issuedAt: 0,
  };
}

async function visibleIds(user: TUser): Promise<string[]> {
  const scope = await loadScope(database.db, principalOf(user));
  const rows = await database.db.select({ id: t.studies.id }).from(t.studies).where(visibleStudies(scope));
  return rows.map((row) => row.id).sort();
}

const ids = (...keys: string[]) => keys.map((key) => studyIds[key] ?? '').sort();

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  const organisation = await buildOrganisation(db);
  const f1 = await buildFacility(db, { organisationId: organisation.id });
  const f2 = await buildFacility(db, { organisationId: organisation.id });
  const elsewhere = await buildFacility(db);
  const referrer = await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id });
  const [physician] = await db
    .insert(t.referringPhysicians)
    .values({ organisationId: organisation.id, userId: referrer.id, name: 'Dr Referrer' })
    .returning();
  users = {
    admin: await buildUser(db, { role: 'ADMIN', organisationId: organisation.id }),
    radiologist: await buildUser(db, { role: 'RADIOLOGIST', facilities: [f1] }),
    transcriptionist: await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f2] }),
    facilityAdmin: await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f2] }),
    referrer,
    outsider: await buildUser(db, { role: 'ADMIN', organisationId: elsewhere.organisationId }),
  };
  studyIds.f1 = (await buildStudy(db, { facility: f1 })).id;
  studyIds.f2 = (await buildStudy(db, { facility: f2 })).id;
  studyIds.f2Referred = (await buildStudy(db, { facility: f2, referringPhysicianId: physician?.id })).id;
  studyIds.elsewhere = (await buildStudy(db, { facility: elsewhere })).id;
});
afterAll(async () => {
  await database.close();
});

describe('visibleStudies', () => {
  it('gives an admin every study of the organisation and nothing of another', async () => {
    expect(await visibleIds(users.admin)).toEqual(ids('f1', 'f2', 'f2Referred'));
    expect(await visibleIds(users.outsider)).toEqual(ids('elsewhere'));
  });

  it('limits radiologists, transcriptionists and facility admins to their facilities', async () => {
    expect(await visibleIds(users.radiologist)).toEqual(ids('f1'));
    expect(await visibleIds(users.transcriptionist)).toEqual(ids('f2', 'f2Referred'));
    expect(await visibleIds(users.facilityAdmin)).toEqual(ids('f2', 'f2Referred'));
  });

  it('limits a referring physician to the studies they referred', async () => {
    expect(await visibleIds(users.referrer)).toEqual(ids('f2Referred'));
  });
});

describe('effectiveByUserIds', () => {
  it('always adds a reporter’s own id, once', () => {
    const reporter = principalOf(users.radiologist, 'REPORTER');
    expect(effectiveByUserIds(reporter, [])).toEqual([users.radiologist.id]);
    expect(effectiveByUserIds(reporter, ['x', users.radiologist.id])).toEqual(['x', users.radiologist.id]);
  });

  it('leaves other callers’ filters as given', () => {
    expect(effectiveByUserIds(principalOf(users.radiologist, 'RADIOLOGIST'), ['x', 'x'])).toEqual(['x']);
    expect(effectiveByUserIds(principalOf(users.admin), [])).toEqual([]);
  });
});

describe('mayReadReportOf', () => {
  it('lets a referring physician read only FINAL reports', () => {
    expect(mayReadReportOf(principalOf(users.referrer), { status: 'DRAFTED' })).toBe(false);
    expect(mayReadReportOf(principalOf(users.referrer), { status: 'FINAL' })).toBe(true);
    expect(mayReadReportOf(principalOf(users.radiologist), { status: 'DRAFTED' })).toBe(true);
  });
});
