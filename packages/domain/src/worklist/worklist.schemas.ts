import { z } from 'zod';
import { ZUuid } from '../common/uuid.ts';
import { ZBirthDate, ZPatientSex } from '../orders/order.schemas.ts';
import { ZReviewTransition } from '../reports/report.schemas.ts';
import { MAX_PAGE_LIMIT, ZPagination } from '../api/pagination.ts';
import { ZDateRangeType } from '../dates/date-range.schemas.ts';
import { DEFAULT_DATE_RANGE_TYPE } from '../dates/date-ranges.ts';
import { ZModality } from '../studies/modalities.ts';
import { ZPriorityTag } from '../studies/priority-tags.ts';
import { ZStudyStatus } from '../studies/status.schemas.ts';
import { STATUS_GROUPS } from '../studies/statuses.ts';
import { ZSortOrder } from './column.schemas.ts';
import { DEFAULT_SORT_ORDER } from './columns.ts';

/**
 * A query parameter that may be repeated (`?statuses=A&statuses=B`, spec §7): a single value arrives
 * as a string, several as an array; both become an array.
 */
export function ZRepeatedParam<TItem extends z.ZodType>(item: TItem) {
  return z.preprocess(
    (value) => (value === undefined || value === '' ? [] : Array.isArray(value) ? value : [value]),
    z.array(item).max(200),
  );
}

/** Columns GET /worklist may sort by (anything else is a 400 naming sort_by). */
export const WORKLIST_SORT_FIELDS = [
  'created_at',
  'updated_at',
  'datetime',
  'patient_name',
  'patient_id',
  'modality',
  'study',
  'status',
  'priority_tag',
  'series_count',
] as const;
export type TWorklistSortField = (typeof WORKLIST_SORT_FIELDS)[number];
export const ZWorklistSortField = z.enum(WORKLIST_SORT_FIELDS);

/** ISO 8601 date-time with offset, or a date (YYYY-MM-DD, taken at midnight in time_zone). */
const ZDateParam = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

/** The worklist filters of spec §3 (GET /worklist and GET /worklist/status/count). */
export const ZWorklistFilters = z.object({
  by_user_ids: ZRepeatedParam(ZUuid),
  statuses: ZRepeatedParam(ZStudyStatus),
  modalities: ZRepeatedParam(ZModality),
  /** Studies with one of these priority tags (an untagged study matches none). */
  priority_tags: ZRepeatedParam(ZPriorityTag),
  facility_ids: ZRepeatedParam(ZUuid),
  date_range_type: ZDateRangeType.default(DEFAULT_DATE_RANGE_TYPE),
  /** Used when date_range_type is CUSTOM (either bound may be left open). */
  start_date: ZDateParam.optional(),
  end_date: ZDateParam.optional(),
  /** IANA time zone for the presets' midnights (Today, Yesterday); default UTC. */
  time_zone: z.string().min(1).max(64).default('UTC'),
  /**
   * Substring of patient name, patient id, accession or study; case- and accent-insensitive. A NUL
   * byte (never in stored text) is a 400 naming it.
   */
  search: z
    .string()
    .trim()
    .max(200)
    .refine((value) => !value.includes('\u0000'), 'must not contain NUL (\\u0000) characters')
    .optional(),
});
export type TWorklistFilters = z.infer<typeof ZWorklistFilters>;

export const ZWorklistListQuery = ZWorklistFilters.extend({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(10),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  sort_by: ZWorklistSortField.default('created_at'),
  sort_order: ZSortOrder.default(DEFAULT_SORT_ORDER),
});
export type TWorklistListQuery = z.infer<typeof ZWorklistListQuery>;

export const ZPatientDocument = z.object({
  id: ZUuid,
  filename: z.string(),
  media_type: z.string(),
  size_bytes: z.number().int(),
  created_at: z.iso.datetime({ offset: true }),
});

/**
 * What the caller may do with a worklist item now: the server's worklist policy (worklist.policy.ts
 * canWorklist; keys are its actions in snake_case) together with the study's state, and
 * `write_report` from the report policy (canReport edit on a study whose report may be written). The
 * web offers exactly these; the server still checks every request.
 */
export const ZWorklistItemAbilities = z
  .object({
    /** POST /worklist/activate (an ORDERED study). */
    activate: z.boolean(),
    /** POST /worklist/duplicate. */
    duplicate: z.boolean(),
    /** PUT /worklist/{id} with patient and study details. */
    edit_details: z.boolean(),
    /** PUT /worklist/{id} priority_tag, PUT /worklist/assign|unassign/priority-tag. */
    set_priority: z.boolean(),
    /** PUT /worklist/{id} collaboration_enabled. */
    toggle_collaboration: z.boolean(),
    /** PUT /worklist/assign/radiologist with any radiologist. */
    assign_anyone: z.boolean(),
    /** PUT /worklist/assign/radiologist with oneself. */
    assign_self: z.boolean(),
    /** PUT /worklist/unassign/radiologist (refused later if the report has content). */
    unassign: z.boolean(),
    /** DELETE /worklist/{id}. */
    delete: z.boolean(),
    /** Create and write the study's report (POST /worklist/report). */
    write_report: z.boolean(),
    /** Add, keep and remove patient documents (/worklist/{id}/document). */
    manage_documents: z.boolean(),
  })
  .describe("The caller's abilities on this worklist item (computed by the server's worklist policy)");
export type TWorklistItemAbilities = z.infer<typeof ZWorklistItemAbilities>;

/** Nothing allowed (an item whose abilities are not known yet). */
export const NO_WORKLIST_ITEM_ABILITIES: Readonly<TWorklistItemAbilities> = Object.freeze({
  activate: false,
  duplicate: false,
  edit_details: false,
  set_priority: false,
  toggle_collaboration: false,
  assign_anyone: false,
  assign_self: false,
  unassign: false,
  delete: false,
  write_report: false,
  manage_documents: false,
});

/**
 * The facts of one worklist item: what the worklist columns show (spec §2) plus what the screens
 * need. Realtime messages carry these (one message for every listener, so no one's abilities).
 */
export const ZWorklistItemFacts = z.object({
  id: ZUuid,
  facility_fk: ZUuid,
  facility: z.string(),
  study_uid: z.string().nullable(),
  accession_number: z.string(),
  patient_name: z.string(),
  patient_id: z.string(),
  /** The patient record (GET /user/patients, the report finder's patient_id: their other studies). */
  patient_fk: ZUuid,
  patient_sex: z.string().nullable(),
  patient_birth_date: z.string().nullable(),
  modality: z.string().nullable(),
  modality_group: ZModality.nullable(),
  study: z.string().nullable(),
  body_part: z.string().nullable(),
  /** Study date-time (ISO) — the worklist's `datetime` column. */
  datetime: z.iso.datetime({ offset: true }).nullable(),
  series_count: z.number().int(),
  instance_count: z.number().int(),
  /** When the image archive reported the study gone (the item is kept, its images are not). */
  images_deleted_at: z.iso.datetime({ offset: true }).nullable(),
  status: ZStudyStatus,
  priority_tag: ZPriorityTag.nullable(),
  last_assigned_user_fk: ZUuid.nullable(),
  /** The assigned radiologist's display name (the worklist's `radiologist` column). */
  last_assigned_user_display_name: z.string().nullable(),
  referring_physician_fk: ZUuid.nullable(),
  referring_physician: z.string().nullable(),
  clinical_history: z.string().nullable(),
  collaboration_enabled: z.boolean(),
  patient_documents: z.array(ZPatientDocument),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
});
export type TWorklistItemFacts = z.infer<typeof ZWorklistItemFacts>;

/** One worklist item as the API answers it: its facts and what the caller may do with it. */
export const ZWorklistItem = ZWorklistItemFacts.extend({ abilities: ZWorklistItemAbilities });
export type TWorklistItem = z.infer<typeof ZWorklistItem>;

/**
 * A worklist search over all dates (or a long range) of the whole organisation counts its matches
 * exactly up to this many (and always past the page asked for); beyond it the total says "at least"
 * (total_capped): counting every study a common name matches in years of studies would cost more
 * than finding the page.
 */
export const WORKLIST_SEARCH_COUNT_CAP = 1000;

export const ZWorklistListResponse = ZPagination.extend({
  items: z.array(ZWorklistItem),
  /**
   * true: more studies match than were counted, and `total` is a lower bound (a search counted up to
   * WORKLIST_SEARCH_COUNT_CAP, or past the page asked for); pages still follow each other newest
   * (or oldest) first. false: `total` is exact, as it always is without a search.
   */
  total_capped: z.boolean(),
});
export type TWorklistListResponse = z.infer<typeof ZWorklistListResponse>;

/** GET /worklist/status/count: per status, and per display group (ALL, ORDERED, ON_PROGRESS, COMPLETED). */
export const ZWorklistStatusCounts = z.object({
  statuses: z.record(ZStudyStatus, z.number().int()),
  groups: z.record(z.enum(STATUS_GROUPS), z.number().int()),
  /**
   * true: a search whose listed matches (every status but DELETED, the groups' statuses) reached
   * WORKLIST_SEARCH_COUNT_CAP + 1 as they were counted (as the list counts them): the groups' counts
   * and their statuses' are lower bounds. false: they are exact.
   */
  capped: z.boolean(),
  /**
   * true: the DELETED count (admins; in no group) is a lower bound: a search that counts its deleted
   * matches up to WORKLIST_SEARCH_COUNT_CAP + 1 beside the listed ones reached that many. false: exact.
   * Apart from `capped`, so a tab is not shown as "at least" when only deleted matches were many.
   */
  deleted_capped: z.boolean(),
});
export type TWorklistStatusCounts = z.infer<typeof ZWorklistStatusCounts>;

/** One entry of GET /worklist/statuses/{worklist_id}: from, to, who, when. */
export const ZStatusHistoryEntry = z.object({
  id: ZUuid,
  from_status: ZStudyStatus.nullable(),
  to_status: ZStudyStatus,
  /** Who made the change; null when the system did (PACS import, a job). */
  by_user_fk: ZUuid.nullable(),
  by_user_display_name: z.string().nullable(),
  comment: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
});
export type TStatusHistoryEntry = z.infer<typeof ZStatusHistoryEntry>;

/** GET /worklist/statuses/{worklist_id}: the study's status changes, oldest first. */
export const ZStatusHistory = z.object({ worklist_id: ZUuid, history: z.array(ZStatusHistoryEntry) });
export type TStatusHistory = z.infer<typeof ZStatusHistory>;

const text = (max: number) => z.string().trim().min(1).max(max);

/** PUT /worklist/{id}. Every field is optional; each one needs its own permission (worklist.policy). */
export const ZUpdateWorklistBody = z.object({
  patient_name: text(200).optional(),
  patient_id: text(64).optional(),
  patient_sex: ZPatientSex.nullable().optional(),
  patient_birth_date: ZBirthDate.nullable().optional(),
  modality: text(32).optional(),
  study: z.string().trim().max(200).nullable().optional(),
  body_part: z.string().trim().max(100).nullable().optional(),
  clinical_history: z.string().trim().max(10_000).nullable().optional(),
  referring_physician_fk: ZUuid.nullable().optional(),
  referring_physician_name: z.string().trim().max(200).nullable().optional(),
  priority_tag: ZPriorityTag.nullable().optional(),
  collaboration_enabled: z.boolean().optional(),
  /** Review hand-off (ZReviewTransition): IN_REVIEW submits a draft, DRAFTED returns it from review. */
  status: ZReviewTransition.shape.status.optional(),
  /** Recorded with the status change in the history (and sent with the notification). */
  comment: ZReviewTransition.shape.comment,
  by_user_id: ZUuid.optional(),
});
export type TUpdateWorklistBody = z.infer<typeof ZUpdateWorklistBody>;

/** DELETE /worklist/{id}: who acts (the caller, or absent). */
export const ZByUser = z.object({ by_user_id: ZUuid.optional() });
export type TByUser = z.infer<typeof ZByUser>;

const ZWorklistIds = z
  .array(ZUuid)
  .min(1, 'worklist_ids must name at least one worklist item')
  .max(500)
  .transform((ids) => [...new Set(ids)]);

/** PUT /worklist/assign/radiologist. */
export const ZAssignRadiologistBody = z.object({
  worklist_ids: ZWorklistIds,
  last_assigned_user_fk: ZUuid,
  by_user_id: ZUuid.optional(),
});
export type TAssignRadiologistBody = z.input<typeof ZAssignRadiologistBody>;

/** PUT /worklist/unassign/radiologist and /worklist/unassign/priority-tag. */
export const ZBulkBody = z.object({ worklist_ids: ZWorklistIds, by_user_id: ZUuid.optional() });
export type TBulkBody = z.input<typeof ZBulkBody>;

/** PUT /worklist/assign/priority-tag. */
export const ZAssignPriorityBody = ZBulkBody.extend({ priority_tag: ZPriorityTag });
export type TAssignPriorityBody = z.input<typeof ZAssignPriorityBody>;

/** An item a bulk action left unchanged, and why (written for the person who asked). */
export const ZSkipped = z.object({ id: ZUuid, reason: z.string() });
export type TSkipped = z.infer<typeof ZSkipped>;

/** What every bulk action answers. */
export const ZBulkResult = z.object({
  /** The items changed, as they are now. */
  updated_worklists: z.array(ZWorklistItem),
  /** Items the caller may see but that were left unchanged, with the reason. */
  skipped: z.array(ZSkipped),
});
export type TBulkResult = z.infer<typeof ZBulkResult>;
