// Shared set-up of the user-administration route tests: one organisation with two facilities and a
// user of every role, another organisation with its admin, tokens for each, and POST /user as a
// multipart form (with or without a signature image).
import type { TManagedUser } from '@ris/domain';
import { eq } from 'drizzle-orm';
import * as t from '../db/schema/index.ts';
import { tokenFor } from './auth-helpers.ts';
import { buildFacility, buildOrganisation, buildUser } from './factories.ts';
import type { TTestResponse, TTestServer } from './test-server.ts';

type TUser = Awaited<ReturnType<typeof buildUser>>;
type TFacility = Awaited<ReturnType<typeof buildFacility>>;

export type TAdminWorldUser =
  | 'admin'
  | 'secondAdmin'
  | 'facilityAdmin'
  | 'radiologist'
  | 'transcriptionist'
  | 'transcriptionistF2'
  | 'referrer'
  | 'outsider';

export type TFormValue = string | string[];
export type TSignatureFile = { data: Buffer; filename: string; type?: string };

export type TUserAdminWorld = {
  server: TTestServer;
  organisationId: string;
  /** The facility admin's facility; f2 is another facility of the organisation. */
  f1: TFacility;
  f2: TFacility;
  /** A facility of the other organisation. */
  foreignFacility: TFacility;
  users: Record<TAdminWorldUser, TUser>;
  token(user: TAdminWorldUser): string;
  /** POST /user as multipart/form-data; by_user_id is the caller's unless given. */
  save(
    user: TAdminWorldUser,
    fields: Record<string, TFormValue | undefined>,
    signature?: TSignatureFile,
  ): Promise<TTestResponse>;
  get(user: TAdminWorldUser, path: string): Promise<TTestResponse>;
  post(user: TAdminWorldUser, path: string, body?: unknown): Promise<TTestResponse>;
  /** The users row as stored now. */
  row(userId: string): Promise<TUser>;
};

/** The user of a successful POST /user answer (throws with the answer otherwise). */
export function savedUser(response: TTestResponse): TManagedUser {
  if (response.status !== 200 && response.status !== 201) {
    throw new Error(`POST /user failed: ${response.status} ${response.text}`);
  }
  return (response.json as { user: TManagedUser }).user;
}

/** POST /user as multipart/form-data (fields repeated for lists), with an optional signature image. */
export async function postUserForm(
  server: Pick<TTestServer, 'url'>,
  token: string,
  fields: Record<string, TFormValue | undefined>,
  signature?: TSignatureFile,
): Promise<TTestResponse> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) form.append(key, item);
  }
  if (signature) {
    form.append(
      'signature_file',
      new Blob([new Uint8Array(signature.data)], { type: signature.type ?? 'image/png' }),
      signature.filename,
    );
  }
  const response = await fetch(`${server.url}/api/v1/user`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export async function buildUserAdminWorld(server: TTestServer): Promise<TUserAdminWorld> {
  const db = server.db;
  const organisation = await buildOrganisation(db);
  const f1 = await buildFacility(db, { organisationId: organisation.id, name: 'Alpha Hospital' });
  const f2 = await buildFacility(db, { organisationId: organisation.id, name: 'Beta Imaging' });
  const foreignFacility = await buildFacility(db);
  const organisationId = organisation.id;
  const users: Record<TAdminWorldUser, TUser> = {
    admin: await buildUser(db, { role: 'ADMIN', organisationId, displayName: 'Admin Ada' }),
    secondAdmin: await buildUser(db, { role: 'ADMIN', organisationId, displayName: 'Admin Ben' }),
    facilityAdmin: await buildUser(db, { role: 'FACILITY_ADMIN', facilities: [f1], displayName: 'Fay' }),
    radiologist: await buildUser(db, { facilities: [f1], displayName: 'Dr Rao' }),
    transcriptionist: await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f1] }),
    transcriptionistF2: await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [f2] }),
    referrer: await buildUser(db, { role: 'REFERRING_PHYSICIAN', facilities: [f1] }),
    outsider: await buildUser(db, { role: 'ADMIN', organisationId: foreignFacility.organisationId }),
  };
  const tokens = new Map<string, string>();
  for (const [name, user] of Object.entries(users)) tokens.set(name, await tokenFor(server, user));
  const token = (user: TAdminWorldUser) => tokens.get(user) ?? '';

  const save = (
    user: TAdminWorldUser,
    fields: Record<string, TFormValue | undefined>,
    signature?: TSignatureFile,
  ) => postUserForm(server, token(user), { by_user_id: users[user].id, ...fields }, signature);

  return {
    server,
    organisationId,
    f1,
    f2,
    foreignFacility,
    users,
    token,
    save,
    get: (user, path) => server.request('GET', `/api/v1${path}`, { token: token(user) }),
    post: (user, path, body) =>
      server.request('POST', `/api/v1${path}`, { token: token(user), body: body ?? {} }),
    async row(userId) {
      const [row] = await db.select().from(t.users).where(eq(t.users.id, userId));
      if (!row) throw new Error(`no user ${userId}`);
      return row;
    },
  };
}
