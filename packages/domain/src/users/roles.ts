/** The main role scheme. */
export const ROLES = [
  'ADMIN',
  'FACILITY_ADMIN',
  'RADIOLOGIST',
  'TRANSCRIPTIONIST',
  'REFERRING_PHYSICIAN',
] as const;
export type TRole = (typeof ROLES)[number];

/** The alternative (two-role) scheme of the specification. */
export const REPORTER_SCHEME_ROLES = ['ADMIN', 'REPORTER'] as const;
export type TReporterSchemeRole = (typeof REPORTER_SCHEME_ROLES)[number];

/** radiologist_details.user_type: a REPORTER is a radiologist typed as reporter. */
export const RADIOLOGIST_USER_TYPES = ['RADIOLOGIST', 'REPORTER'] as const;
export type TRadiologistUserType = (typeof RADIOLOGIST_USER_TYPES)[number];

/** Kinds of non-reporting staff at a facility. */
export const STAFF_KINDS = ['MANAGER', 'TECHNICIAN'] as const;
export type TStaffKind = (typeof STAFF_KINDS)[number];

/**
 * A reporter's own id is always added to the worklist's by_user_ids, so this decides it once:
 * role REPORTER (alternative scheme) or a RADIOLOGIST whose user_type is REPORTER.
 */
export function isReporter(role: string | null | undefined, userType?: string | null): boolean {
  return role === 'REPORTER' || (role === 'RADIOLOGIST' && userType === 'REPORTER');
}

/** Admins see every facility of the organisation; everyone else is limited to assigned facilities. */
export function isAdminRole(role: string | null | undefined): boolean {
  return role === 'ADMIN';
}
