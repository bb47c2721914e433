// Factory data of the home tests, at a fixed now (2026-11-26 12:00 UTC): organisation A with two
// facilities, a user of every role, open and final studies with known turnarounds, and organisation B
// whose studies must never be counted for A. The figures the tests expect are computed in comments.
import type { TPriorityTag, TStudyStatus } from '@ris/domain';
import type { TDb } from '../db/client.ts';
import * as t from '../db/schema/index.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from './factories.ts';

export const NOW = new Date('2026-11-26T12:00:00.000Z');

type TUser = Awaited<ReturnType<typeof buildUser>>;
type TStudy = Awaited<ReturnType<typeof buildStudy>>;
type TFacility = Awaited<ReturnType<typeof buildFacility>>;

export type THomeWorld = Awaited<ReturnType<typeof buildHomeWorld>>;

export async function buildHomeWorld(db: TDb) {
  const organisation = await buildOrganisation(db);
  const f1 = await buildFacility(db, { organisationId: organisation.id, name: 'A First' });
  const f2 = await buildFacility(db, { organisationId: organisation.id, name: 'B Second' });
  const other = await buildFacility(db, { name: 'Elsewhere' });
  const users = {
    admin: await buildUser(db, { role: 'ADMIN', organisationId: organisation.id }),
    facilityAdmin: await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f1] }),
    rad: await buildUser(db, { facilities: [f1, f2], displayName: 'Dr A Rao' }),
    rad2: await buildUser(db, { facilities: [f1], displayName: 'Dr B Sen' }),
    transcriptionist: await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f1] }),
    transcriptionist2: await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f2] }),
    referrer: await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id }),
    outsider: await buildUser(db, { role: 'ADMIN', organisationId: other.organisationId }),
    outsiderRad: await buildUser(db, { facilities: [other] }),
  };
  const [physician] = await db
    .insert(t.referringPhysicians)
    .values({ organisationId: organisation.id, userId: users.referrer.id, name: 'Dr Referrer' })
    .returning();
  if (!physician) throw new Error('no physician');

  const study = (
    facility: TFacility,
    status: TStudyStatus,
    createdAt: string,
    extra: {
      priorityTag?: TPriorityTag;
      assignee?: TUser;
      collaboration?: boolean;
      referred?: boolean;
    } = {},
  ): Promise<TStudy> =>
    buildStudy(db, {
      facility,
      status,
      createdAt: new Date(createdAt),
      priorityTag: extra.priorityTag ?? null,
      lastAssignedUserId: extra.assignee?.id ?? null,
      collaborationEnabled: extra.collaboration ?? false,
      referringPhysicianId: extra.referred ? physician.id : null,
    });
  const report = async (
    target: TStudy,
    values: {
      status?: 'DRAFTED' | 'COMPLETED';
      finalizedAt?: string;
      finalizedBy?: TUser;
      updatedAt?: string;
    } = {},
  ) => {
    const [row] = await db
      .insert(t.reports)
      .values({
        studyId: target.id,
        organisationId: target.organisationId,
        status: values.status ?? 'DRAFTED',
        content: '<p>Findings.</p>',
        contentText: 'Findings.',
        finalizedAt: values.finalizedAt ? new Date(values.finalizedAt) : null,
        finalizedBy: values.finalizedBy?.id ?? null,
        ...(values.updatedAt ? { updatedAt: new Date(values.updatedAt) } : {}),
      })
      .returning();
    if (!row) throw new Error('no report');
    return row;
  };
  const final = async (
    facility: TFacility,
    tag: TPriorityTag | undefined,
    createdAt: string,
    finalizedAt: string,
    by: TUser,
    referred = false,
  ) => {
    const s = await study(facility, 'FINAL', createdAt, {
      ...(tag ? { priorityTag: tag } : {}),
      assignee: by,
      referred,
    });
    await report(s, { status: 'COMPLETED', finalizedAt, finalizedBy: by });
    return s;
  };

  const { rad, rad2 } = users;
  // Finals (turnaround minutes): EMERGENCY 30, 60 (today UTC), 90, 120 (F2); untagged 100, 200;
  // ROUTINE 60 finalised 20:00 UTC yesterday (today in Asia/Kolkata); one 8 days ago (left out).
  const finals = {
    s1: await final(f1, 'EMERGENCY', '2026-11-26T09:00:00Z', '2026-11-26T09:30:00Z', rad, true),
    s2: await final(f1, 'EMERGENCY', '2026-11-26T08:00:00Z', '2026-11-26T09:00:00Z', rad),
    s3: await final(f1, 'EMERGENCY', '2026-11-24T10:00:00Z', '2026-11-24T11:30:00Z', rad2),
    s4: await final(f2, 'EMERGENCY', '2026-11-24T10:00:00Z', '2026-11-24T12:00:00Z', rad2),
    s5: await final(f1, undefined, '2026-11-23T10:00:00Z', '2026-11-23T11:40:00Z', rad, true),
    s6: await final(f1, undefined, '2026-11-23T10:00:00Z', '2026-11-23T13:20:00Z', rad2),
    s7: await final(f1, 'URGENT', '2026-11-17T10:00:00Z', '2026-11-18T10:00:00Z', rad),
    s9: await final(f1, 'ROUTINE', '2026-11-25T19:00:00Z', '2026-11-25T20:00:00Z', rad),
    // An old final EMERGENCY: far past its target, never a breach.
    s11: await final(f1, 'EMERGENCY', '2026-11-10T10:00:00Z', '2026-11-11T10:00:00Z', rad),
    outside: await final(
      other,
      'EMERGENCY',
      '2026-11-26T10:00:00Z',
      '2026-11-26T10:10:00Z',
      users.outsiderRad,
    ),
  };

  // Open studies. Due (default targets): O1 11:00 today, O3 10:00 today, O5 12:00 yesterday: overdue.
  const open = {
    o1: await study(f1, 'ASSIGNED', '2026-11-26T10:00:00Z', {
      priorityTag: 'EMERGENCY',
      assignee: rad,
      referred: true,
    }),
    o2: await study(f1, 'ASSIGNED', '2026-11-26T11:00:00Z', { assignee: rad }),
    o3: await study(f1, 'DRAFTED', '2026-11-26T06:00:00Z', {
      priorityTag: 'URGENT',
      assignee: rad,
      collaboration: true,
    }),
    o4: await study(f2, 'IN_REVIEW', '2026-11-26T11:30:00Z', { priorityTag: 'MLC', assignee: rad }),
    o5: await study(f1, 'TO_READ', '2026-11-24T12:00:00Z', { priorityTag: 'ROUTINE' }),
    o6: await study(f1, 'TO_READ', '2026-11-26T11:30:00Z', { priorityTag: 'EMERGENCY' }),
    o7: await study(f2, 'TO_READ', '2026-11-26T11:00:00Z'),
    o8: await study(f1, 'DRAFTED', '2026-11-26T11:45:00Z', { assignee: rad, collaboration: true }),
    o9: await study(f1, 'ORDERED', '2026-11-26T11:50:00Z'),
    o10: await study(f1, 'DELETED', '2026-11-20T10:00:00Z', { priorityTag: 'EMERGENCY' }),
    o12: await study(f1, 'ASSIGNED', '2026-11-26T11:00:00Z', {
      priorityTag: 'COMPARATIVE',
      assignee: rad2,
      collaboration: true,
    }),
    outside: await study(other, 'ASSIGNED', '2026-11-25T10:00:00Z', {
      priorityTag: 'EMERGENCY',
      assignee: users.outsiderRad,
    }),
  };
  const reports = {
    o3: await report(open.o3, { updatedAt: '2026-11-26T07:00:00Z' }),
    o4: await report(open.o4),
    o8: await report(open.o8, { updatedAt: '2026-11-26T11:55:00Z' }),
  };
  // O8 was submitted by the transcriptionist and returned by the admin; O4 submitted by transcriptionist2.
  await db.insert(t.studyStatusHistory).values([
    {
      studyId: open.o8.id,
      fromStatus: 'ASSIGNED',
      toStatus: 'DRAFTED',
      changedBy: rad.id,
      createdAt: new Date('2026-11-26T11:46:00Z'),
    },
    {
      studyId: open.o8.id,
      fromStatus: 'DRAFTED',
      toStatus: 'IN_REVIEW',
      changedBy: users.transcriptionist.id,
      createdAt: new Date('2026-11-26T11:50:00Z'),
    },
    {
      studyId: open.o8.id,
      fromStatus: 'IN_REVIEW',
      toStatus: 'DRAFTED',
      changedBy: users.admin.id,
      comment: 'Fix the impression',
      createdAt: new Date('2026-11-26T11:55:00Z'),
    },
    {
      studyId: open.o4.id,
      fromStatus: 'DRAFTED',
      toStatus: 'IN_REVIEW',
      changedBy: users.transcriptionist2.id,
      comment: 'Please check',
      createdAt: new Date('2026-11-26T11:40:00Z'),
    },
  ]);
  return { organisationId: organisation.id, f1, f2, users, finals, open, reports };
}
