import { z } from 'zod';
import { ZRecordStatus } from '../common/enum.schemas.ts';
import { ZUuid } from '../common/uuid.ts';
import { ZRadiologistUserType, ZRole, ZStaffKind } from './role.schemas.ts';

/** A facility as the API sends it (organisation settings, user details, organisation details). */
export const ZFacility = z.object({
  id: ZUuid,
  organisation_fk: ZUuid,
  parent_facility_fk: ZUuid.nullable(),
  name: z.string(),
  code: z.string(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  /** IANA time zone of the facility's dates (documents print in it); null: the organisation's. */
  time_zone: z.string().nullable(),
  status: ZRecordStatus,
  letterhead_enabled: z.boolean(),
});
export type TFacility = z.infer<typeof ZFacility>;

/**
 * A user as the API sends it (GET /user/{id}, GET /user/email/{email}, sign-in). Never carries a
 * password hash or token material.
 */
export const ZUser = z.object({
  id: ZUuid,
  email: z.string(),
  role: ZRole.nullable(),
  first_name: z.string(),
  last_name: z.string(),
  display_name: z.string(),
  status: ZRecordStatus,
  organisation_fk: ZUuid.nullable(),
  /** Facilities the user is assigned to (admins: empty — they see every facility of the organisation). */
  facility_fks: z.array(ZUuid),
  /** For radiologists: RADIOLOGIST or REPORTER; null otherwise. */
  user_type: ZRadiologistUserType.nullable(),
  radiologist_description: z.string().nullable(),
  staff_kind: ZStaffKind.nullable(),
  /** Whether a signature image is on file (served by a later endpoint). */
  has_signature: z.boolean(),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
});
export type TUser = z.infer<typeof ZUser>;

/**
 * What the signed-in user may do at all, before any one record is chosen (the abilities on each
 * record say what they may do with that record). Computed by the server's policies: worklist
 * (canWorklist), tags (canTag) and templates (canTemplate); keys are their actions in snake_case.
 */
export const ZUserCapabilities = z
  .object({
    /** Create, activate and duplicate orders (canWorklist create-order). */
    create_order: z.boolean(),
    /** Assign any radiologist to studies, so list the radiologists (canWorklist assign-anyone). */
    assign_anyone: z.boolean(),
    /** Claim unassigned studies for themselves (canWorklist assign-self). */
    assign_self: z.boolean(),
    /** Put tags on studies (canTag tag-studies). */
    tag_studies: z.boolean(),
    /** Use report templates: list, open, keep their own (canTemplate use). */
    use_templates: z.boolean(),
    /** Create ORGANISATION templates (canTemplate create, scope ORGANISATION). */
    create_organisation_templates: z.boolean(),
    /** Manage users at all: GET /user, POST /user for others, resets (users policy). */
    manage_users: z.boolean(),
    /** The roles they may give a user they manage (users policy); empty for most. */
    assignable_roles: z.array(ZRole),
    /** Configure the organisation's image archives (PACS archives policy). */
    manage_archives: z.boolean(),
  })
  .describe("What the signed-in user may do at all (computed by the server's policies)");
export type TUserCapabilities = z.infer<typeof ZUserCapabilities>;

/** GET /user/email/{email}: the e-mail is matched case-insensitively. */
export const ZUserEmailParams = z.object({ email: z.string().trim().min(3).max(254) });
export type TUserEmailParams = z.infer<typeof ZUserEmailParams>;

/** GET /user/details/{id}: the user with the details of their role and their facilities. */
export const ZUserDetails = ZUser.extend({
  radiologist_details: z
    .object({
      user_type: ZRadiologistUserType,
      facility_fks: z.array(ZUuid),
      description: z.string().nullable(),
    })
    .nullable(),
  transcriptionist_details: z.object({ facility_fks: z.array(ZUuid) }).nullable(),
  facility_details: z.object({ facility_fk: ZUuid.nullable(), staff_kind: ZStaffKind.nullable() }).nullable(),
  /** The facilities the user may work in: every active facility of the organisation for an admin. */
  facilities: z.array(ZFacility),
  /** The caller's own capabilities on their own details; null on anyone else's. */
  capabilities: ZUserCapabilities.nullable(),
});
export type TUserDetails = z.infer<typeof ZUserDetails>;

/** GET /user/organisation/details/{id}. report_style is serialized JSON text, as the spec sends it. */
export const ZOrganisationDetails = z.object({
  id: ZUuid,
  name: z.string(),
  status: ZRecordStatus,
  report_style: z.string().nullable(),
  /** IANA time zone of every facility without its own (facility time_zone null). */
  time_zone: z.string(),
  all_facilities: z.array(ZFacility),
  child_facility_ids: z.array(ZUuid),
});
export type TOrganisationDetails = z.infer<typeof ZOrganisationDetails>;
