import { z } from 'zod';
import { ZUuid } from '../common/uuid.ts';
import { MAX_PAGE_LIMIT, ZPagination } from '../api/pagination.ts';
import { DEFAULT_DATE_RANGE_TYPE, ZDateRangeType } from '../dates/date-ranges.ts';
import { ZModality } from '../studies/modalities.ts';
import { ZPriorityTag } from '../studies/priority-tags.ts';
import { STATUS_GROUPS, ZStudyStatus } from '../studies/statuses.ts';
import { DEFAULT_SORT_ORDER, ZSortOrder } from './columns.ts';

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
  facility_ids: ZRepeatedParam(ZUuid),
  date_range_type: ZDateRangeType.default(DEFAULT_DATE_RANGE_TYPE),
  /** Used when date_range_type is CUSTOM (either bound may be left open). */
  start_date: ZDateParam.optional(),
  end_date: ZDateParam.optional(),
  /** IANA time zone for the presets' midnights (Today, Yesterday); default UTC. */
  time_zone: z.string().min(1).max(64).default('UTC'),
  /** Substring of patient name, patient id, accession or study; case- and accent-insensitive. */
  search: z.string().trim().max(200).optional(),
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

/** One worklist item: what the worklist columns show (spec §2) plus what the screens need. */
export const ZWorklistItem = z.object({
  id: ZUuid,
  facility_fk: ZUuid,
  facility: z.string(),
  study_uid: z.string().nullable(),
  accession_number: z.string(),
  patient_name: z.string(),
  patient_id: z.string(),
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
export type TWorklistItem = z.infer<typeof ZWorklistItem>;

export const ZWorklistListResponse = ZPagination.extend({ items: z.array(ZWorklistItem) });
export type TWorklistListResponse = z.infer<typeof ZWorklistListResponse>;

/** GET /worklist/status/count: per status, and per display group (ALL, ORDERED, ON_PROGRESS, COMPLETED). */
export const ZWorklistStatusCounts = z.object({
  statuses: z.record(ZStudyStatus, z.number().int()),
  groups: z.record(z.enum(STATUS_GROUPS), z.number().int()),
});
export type TWorklistStatusCounts = z.infer<typeof ZWorklistStatusCounts>;
