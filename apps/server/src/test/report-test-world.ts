// Shared set-up of the report route tests (and the collaboration tests): one organisation with a
// facility and a user of every role that matters, another organisation, tokens, and studies in a
// given state.
import type { TReport, TStudyStatus } from '@ris/domain';
import { eq } from 'drizzle-orm';
import type { Identity } from '../auth/identity.ts';
import { issueSession } from '../auth/sign-in.ts';
import type { TDb } from '../db/client.ts';
import * as t from '../db/schema/index.ts';
import { buildFacility, buildOrganisation, buildStudy, buildUser } from './factories.ts';

/** What the world needs of the test server (startTestServer's result fits). */
export type TWorldServer = {
  db: TDb;
  identity: Identity;
  request(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string },
  ): Promise<TWorldResponse>;
};
export type TWorldResponse = { status: number; headers: Headers; text: string; json: unknown };

/** A real session and ID token for a user (as test/auth-helpers.ts tokenFor does). */
async function tokenFor(server: TWorldServer, userId: string): Promise<string> {
  const [row] = await server.db.select().from(t.users).where(eq(t.users.id, userId));
  if (!row) throw new Error(`no user ${userId}`);
  const session = await issueSession(server.identity.context, row, 'test', {
    ip: '127.0.0.1',
    userAgent: 'test',
  });
  return session.body.id_token;
}

type TUser = Awaited<ReturnType<typeof buildUser>>;
export type TWorldUser =
  | 'admin'
  | 'facilityAdmin'
  | 'radiologist'
  | 'otherRadiologist'
  | 'reporter'
  | 'transcriptionist'
  | 'otherFacilityTranscriptionist'
  | 'referrer'
  | 'outsider';

export type TWorld = {
  server: TWorldServer;
  organisationId: string;
  facility: Awaited<ReturnType<typeof buildFacility>>;
  users: Record<TWorldUser, TUser>;
  physicianId: string;
  token(user: TWorldUser): string;
  /** A study of the facility, assigned to the radiologist unless said otherwise, referred by the referrer. */
  study(input?: {
    status?: TStudyStatus;
    collaborationEnabled?: boolean;
    assignee?: TWorldUser | null;
  }): Promise<Awaited<ReturnType<typeof buildStudy>>>;
  /** A study with a report created over HTTP by the assigned radiologist. */
  studyWithReport(input?: {
    status?: TStudyStatus;
    collaborationEnabled?: boolean;
    content?: string;
    assignee?: TWorldUser;
  }): Promise<{ studyId: string; report: TReport }>;
  call(user: TWorldUser, method: string, path: string, body?: unknown): Promise<TWorldResponse>;
  studyStatus(id: string): Promise<TStudyStatus | undefined>;
};

export async function buildReportWorld(server: TWorldServer): Promise<TWorld> {
  const db = server.db;
  const organisation = await buildOrganisation(db);
  const facility = await buildFacility(db, { organisationId: organisation.id });
  const otherFacility = await buildFacility(db, { organisationId: organisation.id });
  const elsewhere = await buildFacility(db);
  const users: Record<TWorldUser, TUser> = {
    admin: await buildUser(db, { role: 'ADMIN', organisationId: organisation.id, displayName: 'Admin Ada' }),
    facilityAdmin: await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [facility] }),
    radiologist: await buildUser(db, { facilities: [facility], displayName: 'Dr Rao' }),
    otherRadiologist: await buildUser(db, { facilities: [facility], displayName: 'Dr Other' }),
    reporter: await buildUser(db, {
      facilities: [facility],
      userType: 'REPORTER',
      displayName: 'Rep Reporter',
    }),
    transcriptionist: await buildUser(db, {
      role: 'TRANSCRIPTIONIST',
      facilities: [facility],
      displayName: 'Tia Transcriber',
    }),
    otherFacilityTranscriptionist: await buildUser(db, {
      role: 'TRANSCRIPTIONIST',
      facilities: [otherFacility],
    }),
    referrer: await buildUser(db, { role: 'REFERRING_PHYSICIAN', organisationId: organisation.id }),
    outsider: await buildUser(db, { role: 'ADMIN', organisationId: elsewhere.organisationId }),
  };
  const [physician] = await db
    .insert(t.referringPhysicians)
    .values({ organisationId: organisation.id, userId: users.referrer.id, name: 'Dr Referrer' })
    .returning();
  const tokens = new Map<TWorldUser, string>();
  for (const key of Object.keys(users) as TWorldUser[])
    tokens.set(key, await tokenFor(server, users[key].id));
  const token = (user: TWorldUser) => tokens.get(user) ?? '';
  const call = (user: TWorldUser, method: string, path: string, body?: unknown) =>
    server.request(method, `/api/v1${path}`, { token: token(user), ...(body === undefined ? {} : { body }) });

  const world: TWorld = {
    server,
    organisationId: organisation.id,
    facility,
    users,
    physicianId: physician?.id ?? '',
    token,
    call,
    async study(input = {}) {
      const assignee = input.assignee === undefined ? 'radiologist' : input.assignee;
      return buildStudy(db, {
        facility,
        status: input.status ?? 'ASSIGNED',
        collaborationEnabled: input.collaborationEnabled ?? false,
        lastAssignedUserId: assignee ? users[assignee].id : null,
        referringPhysicianId: physician?.id ?? null,
        referringPhysicianName: 'Dr Referrer',
      });
    },
    async studyWithReport(input = {}) {
      const status = input.status ?? 'ASSIGNED';
      const writable = ['ASSIGNED', 'DRAFTED', 'IN_REVIEW'].includes(status);
      const study = await world.study({ ...input, status: writable ? status : 'ASSIGNED' });
      const assignee = input.assignee ?? 'radiologist';
      const response = await call(assignee, 'POST', '/worklist/report', {
        worklist_id: study.id,
        content: input.content ?? '<p>Findings: normal.</p>',
        by_user_id: users[assignee].id,
      });
      if (response.status !== 201)
        throw new Error(`report create failed: ${response.status} ${response.text}`);
      let report = response.json as TReport;
      if (!writable) {
        // FINAL: finalize over HTTP; other states: set directly.
        if (status === 'FINAL') {
          const final = await call(assignee, 'POST', '/worklist/report/pdf-generate', {
            report_id: report.id,
            status: 'FINAL',
          });
          if (final.status !== 200) throw new Error(`finalize failed: ${final.status} ${final.text}`);
          report = final.json as TReport;
        } else {
          await db.update(t.studies).set({ status }).where(eq(t.studies.id, study.id));
        }
      }
      return { studyId: study.id, report };
    },
    async studyStatus(id) {
      const [row] = await db.select({ status: t.studies.status }).from(t.studies).where(eq(t.studies.id, id));
      return row?.status;
    },
  };
  return world;
}
