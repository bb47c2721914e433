// The zod schemas of ./roles.ts, apart from its constants: a screen that needs only the constants (the
// sign-in page) loads no zod.
import { z } from 'zod';
import { RADIOLOGIST_USER_TYPES, REPORTER_SCHEME_ROLES, ROLES, STAFF_KINDS } from './roles.ts';

export const ZRole = z.enum(ROLES);

export const ZReporterSchemeRole = z.enum(REPORTER_SCHEME_ROLES);

export const ZRadiologistUserType = z.enum(RADIOLOGIST_USER_TYPES);

export const ZStaffKind = z.enum(STAFF_KINDS);
