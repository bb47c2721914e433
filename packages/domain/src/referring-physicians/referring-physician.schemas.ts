import { z } from 'zod';
import { MAX_PAGE_LIMIT, paginatedSchema } from '../api/pagination.ts';
import { RECORD_STATUSES } from '../common/enums.ts';
import { ZUuid } from '../common/uuid.ts';
import { ZRepeatedParam } from '../worklist/worklist.schemas.ts';

const ZPhysicianStatus = z.enum(RECORD_STATUSES);

/**
 * Whether the physician can sign in to read their patients' final reports: NOT_INVITED (no account),
 * INVITED (an account that has not set its password yet), ACTIVE, DISABLED (the account is inactive).
 */
export const REFERRING_PHYSICIAN_SIGN_IN = ['NOT_INVITED', 'INVITED', 'ACTIVE', 'DISABLED'] as const;
export type TReferringPhysicianSignIn = (typeof REFERRING_PHYSICIAN_SIGN_IN)[number];

/**
 * What the caller may do with a referring physician now (the server's referring-physician policy):
 * `edit` through POST /user/referring-physician with its id, `invite` it to sign in
 * (POST /user/referring-physician/{id}/invitation: it has an e-mail and no account that signs in).
 */
export const ZReferringPhysicianAbilities = z
  .object({ edit: z.boolean(), invite: z.boolean() })
  .describe("The caller's abilities on this referring physician (computed by the server's policy)");
export type TReferringPhysicianAbilities = z.infer<typeof ZReferringPhysicianAbilities>;

/** A referring physician of the organisation (the order dialog's picker, the management screen). */
export const ZReferringPhysician = z.object({
  id: ZUuid,
  organisation_fk: ZUuid,
  /** Their REFERRING_PHYSICIAN account, once invited. */
  user_fk: ZUuid.nullable(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  registration_number: z.string().nullable(),
  status: ZPhysicianStatus,
  /** The facilities they refer to; empty: every facility of the organisation. */
  facility_fks: z.array(ZUuid),
  sign_in: z.enum(REFERRING_PHYSICIAN_SIGN_IN),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  abilities: ZReferringPhysicianAbilities,
});
export type TReferringPhysician = z.infer<typeof ZReferringPhysician>;

/** Which statuses GET /user/referring-physicians lists (the order dialog's picker: ACTIVE only). */
export const REFERRING_PHYSICIAN_STATUS_FILTERS = ['ACTIVE', 'INACTIVE', 'ALL'] as const;

/**
 * GET /user/referring-physicians: search matches name, e-mail and phone (case- and
 * accent-insensitive); facility_fks keeps those referring to any of them (organisation-wide ones
 * included); status ACTIVE unless asked.
 */
export const ZReferringPhysicianListQuery = z.object({
  search: z.string().trim().max(200).optional(),
  facility_fks: ZRepeatedParam(ZUuid),
  status: z.enum(REFERRING_PHYSICIAN_STATUS_FILTERS).default('ACTIVE'),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});
export type TReferringPhysicianListQuery = z.input<typeof ZReferringPhysicianListQuery>;

export const ZReferringPhysicianList = paginatedSchema(ZReferringPhysician);
export type TReferringPhysicianList = z.infer<typeof ZReferringPhysicianList>;

/**
 * POST /user/referring-physician: without `id` creates one (name required; the same name may exist
 * twice, nothing is deduplicated); with `id` the fields given change (null clears e-mail, phone or
 * registration number). facility_fks: the facilities they refer to (empty: the whole organisation;
 * a facility admin's are always their own facility).
 */
export const ZSaveReferringPhysicianBody = z
  .object({
    id: ZUuid.optional(),
    name: z.string().trim().min(1).max(200).optional(),
    email: z.email().max(254).nullable().optional(),
    phone: z.string().trim().min(3).max(40).nullable().optional(),
    registration_number: z.string().trim().min(1).max(64).nullable().optional(),
    status: ZPhysicianStatus.optional(),
    facility_fks: z.array(ZUuid).max(200).optional(),
    by_user_id: ZUuid.optional(),
  })
  .superRefine((body, context) => {
    if (body.id === undefined && body.name === undefined) {
      context.addIssue({ code: 'custom', path: ['name'], message: 'A new referring physician needs a name' });
    }
  });
export type TSaveReferringPhysicianBody = z.input<typeof ZSaveReferringPhysicianBody>;

/** POST /user/referring-physician/{id}/invitation. */
export const ZInviteReferringPhysicianBody = z.object({ by_user_id: ZUuid.optional() });

/**
 * The physician with their account, and when the one-time link mailed to them expires. sent false
 * (expires_at null): an account of theirs that signs in already was linked, nothing was mailed.
 */
export const ZInviteReferringPhysicianResult = z.object({
  physician: ZReferringPhysician,
  sent: z.boolean(),
  expires_at: z.iso.datetime({ offset: true }).nullable(),
});
export type TInviteReferringPhysicianResult = z.infer<typeof ZInviteReferringPhysicianResult>;

/** The standard error body plus `detail` (the message), which these routes' clients read. */
export const ZErrorWithDetail = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
  detail: z.string(),
});
