// POST /user: create a user (no id) and invite them, or change one (id). One transaction under the
// organisation's lock: nothing is half-written, and the last-admin rule holds against concurrent
// requests. Status, role and facility changes go through the identity's revocation machinery, so
// they apply on the user's very next request on every replica.
import { SIGNATURE_MEDIA_TYPES, MAX_SIGNATURE_BYTES, type TSaveUserFields } from '@ris/domain';
import { eq } from 'drizzle-orm';
import type { TScope } from '../../../access/scope.ts';
import type { TRequestOrigin } from '../../../auth/audit.ts';
import { disableUser } from '../../../auth/disable-user.ts';
import {
  INVITATION_TTL_MINUTES,
  issueSetPasswordLink,
  type TSetPasswordLink,
} from '../../../auth/invitations.ts';
import { publishUserChange, revokeUserTokens } from '../../../auth/revocation.ts';
import type { TTx } from '../../../db/client.ts';
import { users } from '../../../db/schema/index.ts';
import type { BlobStore } from '../../../files/blob-store.ts';
import { storeFile } from '../../../files/stored-files.ts';
import { AppError } from '../../../http/app-error.ts';
import { recordUserAdminEvent } from '../user-audit.ts';
import type { TSignatureUpload } from '../user-form.ts';
import { findAdministeredUser } from '../users.queries.ts';
import { authorizeManagedUser, type TManagedTarget } from '../users.policy.ts';
import {
  assertCallerStillAdministers,
  assertEmailFree,
  assertNotLastActiveAdmin,
  lockOrganisation,
  unclaimedAccountOf,
  withEmailGuard,
} from './user-admin-guards.ts';
import { resolveAssignment, writeAssignment, type TCurrentAssignment } from './user-assignments.ts';
import { loadUserFacts } from '../../../auth/present-user.ts';

export type TSaveUserInput = {
  scope: TScope;
  fields: TSaveUserFields;
  signature: TSignatureUpload | null;
  origin: TRequestOrigin;
  publicUrl: string;
  blobs: BlobStore;
};

export type TSaveUserResult = {
  userId: string;
  created: boolean;
  /** The invitation to mail after the commit (create only). */
  invitation: { to: string; invitedBy: string; organisationName: string; link: TSetPasswordLink } | null;
  /** Whether status, role, radiologist type or facilities changed (announce after the commit). */
  accessChanged: boolean;
};

const required = (field: string) =>
  new AppError('VALIDATION_FAILED', `${field}: this field is required`, { field });

const normalEmail = (email: string) => email.trim().toLowerCase();

export async function storeSignature(tx: TTx, input: TSaveUserInput): Promise<string | null> {
  if (!input.signature) return null;
  const file = await storeFile(tx, input.blobs, {
    data: input.signature.data,
    originalName: input.signature.filename,
    organisationId: input.scope.organisationId,
    createdBy: input.scope.principal.userId,
    accept: SIGNATURE_MEDIA_TYPES,
    maxBytes: MAX_SIGNATURE_BYTES,
  });
  return file.id;
}

export function signatureChange(fileId: string | null, fields: TSaveUserFields) {
  if (fileId) return { signatureFileId: fileId };
  return fields.delete_signature ? { signatureFileId: null } : {};
}

async function createUser(
  tx: TTx,
  input: TSaveUserInput,
  invite: { invitedBy: string; organisationName: string },
): Promise<TSaveUserResult> {
  const { scope, fields } = input;
  if (fields.status === 'INACTIVE') {
    throw new AppError('VALIDATION_FAILED', 'status: a new user starts ACTIVE', { field: 'status' });
  }
  const email = fields.email === undefined ? undefined : normalEmail(fields.email);
  if (!email) throw required('email');
  const firstName = fields.first_name;
  if (!firstName) throw required('first_name');
  const lastName = fields.last_name;
  if (!lastName) throw required('last_name');
  const assignment = await resolveAssignment(tx, scope, fields, null);
  // An account made by signing up with this address and in no organisation yet is this person's:
  // it becomes the new user. Its password is dropped and its sessions end, as signing up proved no
  // ownership of the address; the invitation mailed to it does.
  const unclaimed = await unclaimedAccountOf(tx, email);
  if (!unclaimed) await assertEmailFree(tx, email);
  const signatureFileId = await storeSignature(tx, input);
  const values = {
    email,
    passwordHash: null,
    role: assignment.role,
    firstName,
    lastName,
    displayName: fields.display_name ?? `${firstName} ${lastName}`,
    organisationId: scope.organisationId,
    signatureFileId,
  };
  const [row] = unclaimed
    ? await tx.update(users).set(values).where(eq(users.id, unclaimed)).returning({ id: users.id })
    : await withEmailGuard(() => tx.insert(users).values(values).returning({ id: users.id }));
  if (!row) throw new Error('users write returned nothing');
  if (unclaimed) await revokeUserTokens(tx, row.id, 'account_adopted');
  await writeAssignment(tx, row.id, assignment, null);
  const link = await issueSetPasswordLink(tx, {
    publicUrl: input.publicUrl,
    userId: row.id,
    ttlMinutes: INVITATION_TTL_MINUTES,
    ip: input.origin.ip,
  });
  const audit = { actorUserId: scope.principal.userId, organisationId: scope.organisationId };
  const subject = { subjectUserId: row.id, origin: input.origin };
  await recordUserAdminEvent(tx, {
    action: 'user.created',
    ...audit,
    ...subject,
    data: { role: assignment.role, facility_fks: assignment.facilityIds },
  });
  await recordUserAdminEvent(tx, { action: 'user.invitation_sent', ...audit, ...subject });
  return {
    userId: row.id,
    created: true,
    invitation: { to: email, ...invite, link },
    accessChanged: false,
  };
}

/** Refuses a change of one's own role, status or assignment (403 naming the field). */
export function assertNotOwnAccess(
  input: TSaveUserInput,
  target: TManagedTarget,
  current: TCurrentAssignment,
) {
  const { fields } = input;
  const own = (field: string) =>
    new AppError('FORBIDDEN', `${field}: you may not change your own ${field.replace('_', ' ')}`, {
      field,
    });
  if (fields.role !== undefined && fields.role !== target.row.role) throw own('role');
  if (fields.status !== undefined && fields.status !== target.row.status) throw own('status');
  if (fields.user_type !== undefined && fields.user_type !== current?.userType) throw own('user_type');
  const facilityIds = fields.facility_fks;
  if (
    facilityIds !== undefined &&
    (facilityIds.length !== target.facilityIds.length ||
      facilityIds.some((id) => !target.facilityIds.includes(id)))
  ) {
    throw own('facility_fks');
  }
}

async function updateUser(tx: TTx, input: TSaveUserInput, id: string): Promise<TSaveUserResult> {
  const { scope, fields } = input;
  const target = await findAdministeredUser(tx, scope, { id });
  if (!target) throw AppError.notFound('User');
  const { row } = target;
  authorizeManagedUser(scope, 'edit', target);
  const facts = (await loadUserFacts(tx, [row.id])).get(row.id);
  const current: TCurrentAssignment = {
    role: row.role,
    userType: row.role === 'RADIOLOGIST' ? (facts?.radiologist?.userType ?? 'RADIOLOGIST') : null,
    facilityIds: target.facilityIds,
  };
  if (row.id === scope.principal.userId) assertNotOwnAccess(input, target, current);
  const statusChanged = fields.status !== undefined && fields.status !== row.status;
  if (statusChanged) authorizeManagedUser(scope, 'disable', target, 'status');
  const assignment = await resolveAssignment(tx, scope, fields, current);
  const roleChanged = assignment.role !== row.role;
  if (row.role === 'ADMIN' && row.status === 'ACTIVE') {
    if (roleChanged) await assertNotLastActiveAdmin(tx, scope, row.id, 'role');
    if (statusChanged) await assertNotLastActiveAdmin(tx, scope, row.id, 'status');
  }
  // After the last-admin rule: of two admins demoting each other at once, the second learns that
  // the organisation would be left without one (its own demotion is why).
  await assertCallerStillAdministers(tx, scope);
  const email = fields.email === undefined ? undefined : normalEmail(fields.email);
  if (email !== undefined && email !== row.email.toLowerCase()) await assertEmailFree(tx, email, row.id);
  const signatureFileId = await storeSignature(tx, input);
  await withEmailGuard(() =>
    tx
      .update(users)
      .set({
        updatedAt: new Date(),
        ...(email !== undefined ? { email } : {}),
        ...(fields.first_name !== undefined ? { firstName: fields.first_name } : {}),
        ...(fields.last_name !== undefined ? { lastName: fields.last_name } : {}),
        ...(fields.display_name !== undefined ? { displayName: fields.display_name } : {}),
        ...(roleChanged ? { role: assignment.role } : {}),
        ...(fields.status === 'ACTIVE' ? { status: 'ACTIVE' as const } : {}),
        ...signatureChange(signatureFileId, fields),
      })
      .where(eq(users.id, row.id)),
  );
  const written = await writeAssignment(tx, row.id, assignment, current);
  const actor = { actorUserId: scope.principal.userId };
  if (statusChanged && fields.status === 'INACTIVE') {
    await disableUser(tx, row.id, { ...actor, origin: input.origin });
  }
  if (roleChanged) await revokeUserTokens(tx, row.id, 'role_changed');
  const accessChanged = statusChanged || roleChanged || written.facilitiesChanged || written.userTypeChanged;
  if (accessChanged) await publishUserChange(tx, row.id);
  await recordUserAdminEvent(tx, {
    action: 'user.updated',
    ...actor,
    organisationId: scope.organisationId,
    subjectUserId: row.id,
    origin: input.origin,
    data: {
      fields: Object.keys(fields).filter((key) => key !== 'by_user_id' && key !== 'id'),
      ...(roleChanged ? { role: { from: row.role, to: assignment.role } } : {}),
      ...(statusChanged ? { status: { from: row.status, to: fields.status } } : {}),
      ...(written.facilitiesChanged ? { facility_fks: assignment.facilityIds } : {}),
      ...(input.signature ? { signature: 'replaced' } : {}),
    },
  });
  return { userId: row.id, created: false, invitation: null, accessChanged };
}

/** The use case: under the organisation's lock (the caller checked again), create or change the user. */
export async function saveUser(tx: TTx, input: TSaveUserInput): Promise<TSaveUserResult> {
  const { scope, fields } = input;
  if (fields.organisation_fk !== undefined && fields.organisation_fk !== scope.organisationId) {
    throw new AppError('FORBIDDEN', 'organisation_fk: you may manage users of your own organisation only', {
      field: 'organisation_fk',
    });
  }
  const organisation = await lockOrganisation(tx, scope);
  if (fields.id !== undefined) return updateUser(tx, input, fields.id);
  const caller = await assertCallerStillAdministers(tx, scope);
  return createUser(tx, input, { invitedBy: caller.name, organisationName: organisation.name });
}
