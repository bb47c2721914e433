// Facility administration and letterheads (spec §7 /user/facility/*, PUT /user/organisation/{id}).
import { z } from 'zod';
import { ZRecordStatus } from '../common/enum.schemas.ts';
import { ZUuid } from '../common/uuid.ts';
import { isValidTimeZone } from '../dates/date-ranges.ts';
import { ZArchiveUrl } from '../pacs/archive.schemas.ts';
import { ZFacility } from '../users/user.schemas.ts';
import { ZFormBoolean } from '../reports/report-output.schemas.ts';

/** Letterhead images: PNG or JPEG, at most 2 MB each (checked by content on the server). */
export const LETTERHEAD_MEDIA_TYPES = ['image/png', 'image/jpeg'] as const;
export const MAX_LETTERHEAD_BYTES = 2 * 1024 * 1024;

/** A facility with its letterhead (GET /user/facility/{id} and every facility write). */
export const ZFacilityDetails = ZFacility.extend({
  /** API paths of the letterhead images (GET with the bearer token), null when none is uploaded. */
  header_file_url: z.string().nullable(),
  footer_file_url: z.string().nullable(),
  /** The facility's own image node (its OHIF root on the facility's network), or null. */
  local_node_url: z.string().nullable(),
  updated_at: z.string(),
});
export type TFacilityDetails = z.infer<typeof ZFacilityDetails>;

/** An IANA time zone name that Intl knows (e.g. Asia/Kolkata, Europe/London, UTC). */
export const ZTimeZone = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(isValidTimeZone, 'must be an IANA time zone such as Asia/Kolkata');

const ZOptionalText = (max: number) => z.string().trim().max(max).nullable().optional();

/** POST /user/facility (administrators). */
export const ZCreateFacilityBody = z.object({
  name: z.string().trim().min(1).max(200),
  code: z
    .string()
    .trim()
    .min(1)
    .max(32)
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, "-" and "_" only'),
  address: ZOptionalText(500),
  phone: ZOptionalText(40),
  email: z.email().nullable().optional(),
  /** Omitted or null: the facility uses the organisation's time zone (and follows it when it changes). */
  time_zone: ZTimeZone.nullable().optional(),
  parent_facility_fk: ZUuid.nullable().optional(),
  /**
   * The facility's own image node on its network, as the root of its OHIF viewer (e.g.
   * https://10.0.0.5:8443/ohif): a workstation that reaches it (spec §7: port 8443, 1 s) opens
   * studies there (GET /dicom/viewer local_ip). Null: none.
   */
  local_node_url: ZArchiveUrl.nullable().optional(),
});
export type TCreateFacilityBody = z.infer<typeof ZCreateFacilityBody>;

/** PUT /user/facility/{id}: the fields given change; status ACTIVE/INACTIVE (administrators only). */
export const ZUpdateFacilityBody = ZCreateFacilityBody.partial().extend({
  status: ZRecordStatus.optional(),
});
export type TUpdateFacilityBody = z.infer<typeof ZUpdateFacilityBody>;

/** POST /user/facility/{id}/letterhead multipart text field (files: header_file, footer_file). */
export const ZLetterheadFields = z.object({ enable_letterhead: ZFormBoolean.optional() });

/** DELETE /user/facility/{id}/letterhead (query string or JSON body). */
export const ZDeleteLetterheadInput = z.object({
  delete_header: ZFormBoolean.default(false),
  delete_footer: ZFormBoolean.default(false),
});
export type TDeleteLetterheadInput = z.infer<typeof ZDeleteLetterheadInput>;

/** PUT /user/organisation/{id} (administrators): report_style is serialized JSON (ZReportStyle). */
export const ZUpdateOrganisationBody = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  report_style: z.string().max(20_000).nullable().optional(),
  /** The zone of every facility without its own. */
  time_zone: ZTimeZone.optional(),
});
export type TUpdateOrganisationBody = z.infer<typeof ZUpdateOrganisationBody>;

export const facilityHeaderPath = (facilityId: string) =>
  `/api/v1/user/facility/${facilityId}/letterhead/header`;
export const facilityFooterPath = (facilityId: string) =>
  `/api/v1/user/facility/${facilityId}/letterhead/footer`;
