// What a user does and where: role, radiologist type and description, facilities. Resolved from
// the POST /user fields over what the user has now, checked (each refusal names its field), then
// written as radiologist_details and user_facilities rows. A facility admin's facility_details are
// their one user_facilities row.
import type { TRadiologistUserType, TRole, TSaveUserFields } from '@ris/domain';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { TScope } from '../../../access/scope.ts';
import type { TTx } from '../../../db/client.ts';
import { facilities, radiologistDetails, userFacilities } from '../../../db/schema/index.ts';
import { AppError } from '../../../http/app-error.ts';
import { assignableRoles } from '../users.policy.ts';

export type TAssignment = {
  role: TRole;
  /** RADIOLOGIST or REPORTER for a radiologist, null for every other role. */
  userType: TRadiologistUserType | null;
  facilityIds: string[];
  /** The radiologist's description; undefined: unchanged. */
  description: string | null | undefined;
};

/** What the user has now (null when creating). */
export type TCurrentAssignment = {
  role: TRole | null;
  userType: TRadiologistUserType | null;
  facilityIds: readonly string[];
} | null;

const invalid = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', `${field}: ${message}`, { field });
const forbidden = (field: string, message: string) =>
  new AppError('FORBIDDEN', `${field}: ${message}`, { field });

async function checkFacilities(tx: TTx, scope: TScope, facilityIds: readonly string[]): Promise<void> {
  if (facilityIds.length === 0) return;
  const found = await tx
    .select({ id: facilities.id })
    .from(facilities)
    .where(
      and(inArray(facilities.id, [...facilityIds]), eq(facilities.organisationId, scope.organisationId)),
    );
  if (found.length !== facilityIds.length) {
    throw invalid('facility_fks', 'each must be a facility of your organisation');
  }
  if (!scope.allFacilities && facilityIds.some((id) => !scope.facilityIds.includes(id))) {
    throw forbidden('facility_fks', 'you may assign only your own facility');
  }
}

function facilitiesOf(
  scope: TScope,
  fields: TSaveUserFields,
  role: TRole,
  current: TCurrentAssignment,
): string[] {
  if (fields.facility_fks !== undefined) return [...new Set(fields.facility_fks)];
  if (role === 'ADMIN') return [];
  if (current) return [...current.facilityIds];
  // A facility admin's new user works where they do; an administrator chooses.
  return scope.allFacilities ? [] : [...scope.facilityIds];
}

function checkRoleFacilities(role: TRole, facilityIds: readonly string[]): void {
  if (role === 'ADMIN' && facilityIds.length > 0) {
    throw invalid('facility_fks', 'an administrator works in every facility; leave it empty');
  }
  if (role === 'FACILITY_ADMIN' && facilityIds.length !== 1) {
    throw invalid('facility_fks', 'a facility administrator has exactly one facility');
  }
  if ((role === 'RADIOLOGIST' || role === 'TRANSCRIPTIONIST') && facilityIds.length === 0) {
    throw invalid('facility_fks', 'choose at least one facility');
  }
}

/** The assignment the request asks for, checked; 400/403 naming the field at fault. */
export async function resolveAssignment(
  tx: TTx,
  scope: TScope,
  fields: TSaveUserFields,
  current: TCurrentAssignment,
): Promise<TAssignment> {
  const role = fields.role ?? current?.role ?? null;
  if (!role) throw invalid('role', 'choose a role');
  if (role !== current?.role && !assignableRoles(scope.principal).includes(role)) {
    throw forbidden('role', `you may not give the role ${role}`);
  }
  const facilityIds = facilitiesOf(scope, fields, role, current);
  if (fields.facility_fks !== undefined) await checkFacilities(tx, scope, facilityIds);
  // A facility admin's users stay in one of their facilities (else they would lose sight of them).
  if (!scope.allFacilities && facilityIds.length === 0) {
    throw invalid('facility_fks', 'choose your facility');
  }
  checkRoleFacilities(role, facilityIds);
  if (fields.user_type !== undefined && role !== 'RADIOLOGIST') {
    throw invalid('user_type', 'only a radiologist has a user type (RADIOLOGIST or REPORTER)');
  }
  // Forms send line breaks as CRLF; they are stored as LF.
  const description = fields.radiologist_description?.replace(/\r\n?/g, '\n').trim();
  if (description && role !== 'RADIOLOGIST') {
    throw invalid('radiologist_description', 'only a radiologist has a description');
  }
  return {
    role,
    userType: role === 'RADIOLOGIST' ? (fields.user_type ?? current?.userType ?? 'RADIOLOGIST') : null,
    facilityIds,
    description: description === undefined ? undefined : description || null,
  };
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/**
 * Writes the assignment's rows (the users row's role is the caller's). A radiologist's details are
 * kept when they change role, so their signed reports still print their description.
 */
export async function writeAssignment(
  tx: TTx,
  userId: string,
  assignment: TAssignment,
  current: TCurrentAssignment,
): Promise<{ facilitiesChanged: boolean; userTypeChanged: boolean }> {
  const facilitiesChanged = !sameSet(assignment.facilityIds, current?.facilityIds ?? []);
  if (facilitiesChanged) {
    await tx
      .delete(userFacilities)
      .where(
        and(
          eq(userFacilities.userId, userId),
          assignment.facilityIds.length > 0
            ? notInArray(userFacilities.facilityId, assignment.facilityIds)
            : undefined,
        ),
      );
    const added = assignment.facilityIds.filter((id) => !current?.facilityIds.includes(id));
    if (added.length > 0) {
      await tx
        .insert(userFacilities)
        .values(added.map((facilityId) => ({ userId, facilityId })))
        .onConflictDoNothing();
    }
  }
  if (assignment.role === 'RADIOLOGIST' && assignment.userType) {
    const description = assignment.description === undefined ? {} : { description: assignment.description };
    await tx
      .insert(radiologistDetails)
      .values({ userId, userType: assignment.userType, ...description })
      .onConflictDoUpdate({
        target: radiologistDetails.userId,
        set: { userType: assignment.userType, ...description },
      });
  }
  return {
    facilitiesChanged,
    userTypeChanged: assignment.userType !== (current?.role === 'RADIOLOGIST' ? current.userType : null),
  };
}
