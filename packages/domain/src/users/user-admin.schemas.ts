// User administration (spec §7 GET /user, GET /user/all/{organisation id}, POST /user,
// POST /user/reset-password): an organisation's users as their administrators see and change them.
// Passwords never appear here: a new user is invited by e-mail and sets their own.
import { z } from 'zod';
import { paginatedSchema, ZPaginationQuery } from '../api/pagination.ts';
import { RECORD_STATUSES } from '../common/enums.ts';
import { ZUuid } from '../common/uuid.ts';
import { ZFormBoolean } from '../reports/report-output.schemas.ts';
import { ZRepeatedParam } from '../worklist/worklist.schemas.ts';
import { RADIOLOGIST_USER_TYPES, ROLES, STAFF_KINDS } from './roles.ts';

const ZAdminRole = z.enum(ROLES);
const ZAdminStatus = z.enum(RECORD_STATUSES);
const ZAdminUserType = z.enum(RADIOLOGIST_USER_TYPES);

/** Signature images: PNG or JPEG checked by content, at most 1 MB and 4 megapixels. */
export const SIGNATURE_MEDIA_TYPES = ['image/png', 'image/jpeg'] as const;
export const MAX_SIGNATURE_BYTES = 1024 * 1024;
export const MAX_SIGNATURE_PIXELS = 4_000_000;

/** API path of a user's signature image (GET with the bearer token). */
export const userSignaturePath = (userId: string) => `/api/v1/user/${userId}/signature`;

/**
 * What the caller may do with one user (the server's users policy): `edit` their fields through
 * POST /user, `disable` set their status (disable or enable again), `reset_password` start a reset
 * (POST /user/reset-password), `resend_invitation` send the invitation again (POST /user/{id}/invitation,
 * only while the user has not set a password yet).
 */
export const ZManagedUserAbilities = z
  .object({
    edit: z.boolean(),
    disable: z.boolean(),
    reset_password: z.boolean(),
    resend_invitation: z.boolean(),
  })
  .describe("The caller's abilities on this user (computed by the server's users policy)");
export type TManagedUserAbilities = z.infer<typeof ZManagedUserAbilities>;

/** A user as their administrators see them (GET /user items, POST /user response). */
export const ZManagedUser = z.object({
  id: ZUuid,
  email: z.string(),
  role: ZAdminRole.nullable(),
  first_name: z.string(),
  last_name: z.string(),
  display_name: z.string(),
  status: ZAdminStatus,
  organisation_fk: ZUuid.nullable(),
  /** Facilities the user is assigned to (admins: empty — they see every facility of the organisation). */
  facility_fks: z.array(ZUuid),
  /** For radiologists: RADIOLOGIST or REPORTER; null otherwise. */
  user_type: ZAdminUserType.nullable(),
  radiologist_description: z.string().nullable(),
  radiologist_details: z
    .object({ user_type: ZAdminUserType, facility_fks: z.array(ZUuid), description: z.string().nullable() })
    .nullable(),
  transcriptionist_details: z.object({ facility_fks: z.array(ZUuid) }).nullable(),
  facility_details: z
    .object({ facility_fk: ZUuid.nullable(), staff_kind: z.enum(STAFF_KINDS).nullable() })
    .nullable(),
  /** userSignaturePath(id) when a signature image is on file, else null. */
  signature_url: z.string().nullable(),
  /** Invited and has not set a password yet (the invitation can be sent again). */
  invitation_pending: z.boolean(),
  last_sign_in_at: z.iso.datetime({ offset: true }).nullable(),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  abilities: ZManagedUserAbilities,
});
export type TManagedUser = z.infer<typeof ZManagedUser>;

/**
 * GET /user: the caller's organisation's users (an admin: all of them; a facility admin: those of
 * their facility). organisation_id, when given, must be the caller's own. search matches names and
 * e-mail (substring, case-insensitive); facility_ids keeps users assigned to any of them.
 */
export const ZUserListQuery = ZPaginationQuery.extend({
  organisation_id: ZUuid.optional(),
  search: z.string().trim().max(200).optional(),
  role: ZAdminRole.optional(),
  status: ZAdminStatus.optional(),
  facility_ids: ZRepeatedParam(ZUuid),
});
export type TUserListQuery = z.input<typeof ZUserListQuery>;

export const ZUserList = paginatedSchema(ZManagedUser);
export type TUserList = z.infer<typeof ZUserList>;

/** GET /user/all/{organisation id}: every active user of the organisation in short, for pickers. */
export const ZUserPickerItem = z.object({
  id: ZUuid,
  display_name: z.string(),
  role: ZAdminRole.nullable(),
  user_type: ZAdminUserType.nullable(),
  facility_fks: z.array(ZUuid),
});
export type TUserPickerItem = z.infer<typeof ZUserPickerItem>;

export const ZUserPickerList = z.object({ items: z.array(ZUserPickerItem) });
export type TUserPickerList = z.infer<typeof ZUserPickerList>;

export const ZUserOrganisationParams = z.object({ organisationId: ZUuid });
export const ZUserIdParams = z.object({ id: ZUuid });

const ZName = z.string().trim().min(1).max(100);

/**
 * POST /user multipart text fields (the file part is `signature_file`: PNG/JPEG, see
 * MAX_SIGNATURE_BYTES). Without `id` a user is created (role, first_name, last_name and email are
 * required) and invited by e-mail; with `id` the fields given change and the others stay.
 * by_user_id must be the caller's own id. facility_fks may be repeated; it sets the radiologist's,
 * transcriptionist's or referring physician's facilities, or the facility admin's one facility.
 * user_type (RADIOLOGIST or REPORTER) is for radiologists only.
 */
export const ZSaveUserFields = z.object({
  id: ZUuid.optional(),
  role: ZAdminRole.optional(),
  first_name: ZName.optional(),
  last_name: ZName.optional(),
  email: z.email().max(254).optional(),
  /** Defaults to "first_name last_name" on create. */
  display_name: ZName.max(200).optional(),
  status: ZAdminStatus.optional(),
  by_user_id: ZUuid,
  organisation_fk: ZUuid.optional(),
  radiologist_description: z.string().trim().max(2000).optional(),
  user_type: ZAdminUserType.optional(),
  facility_fks: ZRepeatedParam(ZUuid).optional(),
  /** true: remove the signature image on file (ignored when a new signature_file comes with it). */
  delete_signature: ZFormBoolean.optional(),
});
export type TSaveUserFields = z.infer<typeof ZSaveUserFields>;

/** POST /user response: the user as saved; invitation_sent on create (the e-mail is queued). */
export const ZSaveUserResponse = z.object({
  user: ZManagedUser,
  created: z.boolean(),
  invitation_sent: z.boolean(),
});
export type TSaveUserResponse = z.infer<typeof ZSaveUserResponse>;

/**
 * POST /user/reset-password: an administrator starts a password reset for a user they manage.
 * send_email true (default): the link is mailed to the user; false: the one-time link is returned
 * to hand over in person. Either way the audit log records who did it.
 */
export const ZAdminResetPasswordBody = z.object({
  email: z.email().max(254),
  send_email: ZFormBoolean.default(true),
});
export type TAdminResetPasswordBody = z.input<typeof ZAdminResetPasswordBody>;

/** reset_link (and its expiry) only when send_email was false; otherwise both null. */
export const ZAdminResetPasswordResponse = z.object({
  sent: z.boolean(),
  reset_link: z.string().nullable(),
  expires_at: z.iso.datetime({ offset: true }).nullable(),
});
export type TAdminResetPasswordResponse = z.infer<typeof ZAdminResetPasswordResponse>;

/** POST /user/{id}/invitation: the invitation e-mail is sent again (the earlier link stops working). */
export const ZResendInvitationResponse = z.object({
  sent: z.boolean(),
  expires_at: z.iso.datetime({ offset: true }),
});
export type TResendInvitationResponse = z.infer<typeof ZResendInvitationResponse>;
