// The report finder (GET /report/search): full-text search over reports (content and addenda) with
// the worklist's patient/study text search and filters, ranked, with highlighted snippets.
import { z } from 'zod';
import { MAX_PAGE_LIMIT, paginatedSchema } from '../api/pagination.ts';
import { ZUuid } from '../common/uuid.ts';
import { ZReportStatus } from '../reports/report-statuses.ts';
import { ZModality } from '../studies/modalities.ts';
import { ZPriorityTag } from '../studies/priority-tags.ts';
import { ZStudyStatus } from '../studies/status.schemas.ts';
import { SESSION_PAGE_SIZES } from '../ui-constants.ts';
import { ZRepeatedParam, ZWorklistFilters } from '../worklist/worklist.schemas.ts';

/** How results are ordered: by relevance to `q` (newest first without `q`), or newest first. */
export const REPORT_FINDER_SORTS = ['relevance', 'date'] as const;
export type TReportFinderSort = (typeof REPORT_FINDER_SORTS)[number];
export const ZReportFinderSort = z.enum(REPORT_FINDER_SORTS);

/** Longest `q` accepted (longer is a 400 naming q). */
export const REPORT_QUERY_MAX_LENGTH = 500;

/**
 * The report finder counts matches exactly up to this many (and always past the page asked for);
 * beyond it the total says "at least" (total_capped), as counting every report a common word
 * matches in a million would cost more than finding the page.
 */
export const REPORT_FINDER_COUNT_CAP = 1000;

/**
 * GET /report/search. Dates, facilities, modalities, priority tags and `search` mean what they mean
 * on the worklist (the date range applies to the study's created_at, in time_zone).
 */
export const ZReportSearchQuery = ZWorklistFilters.pick({
  date_range_type: true,
  start_date: true,
  end_date: true,
  time_zone: true,
  facility_ids: true,
  modalities: true,
  priority_tags: true,
  search: true,
}).extend({
  /**
   * Words of the report (content and addenda), web-search syntax: words (all must match, stemmed,
   * accents ignored), "an exact phrase", -excluded, OR. Empty: every report under the filters.
   */
  q: z.string().trim().max(REPORT_QUERY_MAX_LENGTH).optional(),
  /** Reports signed (finalised) by one of these radiologists. */
  radiologist_ids: ZRepeatedParam(ZUuid),
  report_statuses: ZRepeatedParam(ZReportStatus),
  /** Studies carrying one of these tags. */
  tag_ids: ZRepeatedParam(ZUuid),
  referring_physician_ids: ZRepeatedParam(ZUuid),
  /** Only this patient's reports (the reporting screen's "prior reports"). */
  patient_id: ZUuid.optional(),
  /** Leave this study's report out (the one open beside its priors). */
  exclude_study_id: ZUuid.optional(),
  sort_by: ZReportFinderSort.default('relevance'),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(SESSION_PAGE_SIZES.reportFinder),
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
});
export type TReportSearchQuery = z.infer<typeof ZReportSearchQuery>;

/**
 * A stretch of a snippet: `match` marks the words that matched `q`. Plain text, never HTML: the
 * client renders each part as text (and a match as <mark>).
 */
export const ZSnippetPart = z.object({ text: z.string(), match: z.boolean() });
export type TSnippetPart = z.infer<typeof ZSnippetPart>;

export const ZReportSearchHit = z.object({
  report_id: ZUuid,
  /** The worklist item (study) the report belongs to: the reporting screen is /worklist/{study_id}. */
  study_id: ZUuid,
  patient_id: ZUuid,
  patient_name: z.string(),
  patient_identifier: z.string(),
  accession_number: z.string(),
  study_description: z.string().nullable(),
  modality: z.string().nullable(),
  modality_group: ZModality.nullable(),
  facility_id: ZUuid,
  facility_name: z.string(),
  study_status: ZStudyStatus,
  priority_tag: ZPriorityTag.nullable(),
  /** The study's arrival (the date filters apply to it). */
  created_at: z.iso.datetime({ offset: true }),
  study_datetime: z.iso.datetime({ offset: true }).nullable(),
  report_status: ZReportStatus,
  /** Who signed the report; before it is signed, the radiologist it is assigned to (or null). */
  radiologist: z.object({ id: ZUuid, display_name: z.string() }).nullable(),
  finalized_at: z.iso.datetime({ offset: true }).nullable(),
  updated_at: z.iso.datetime({ offset: true }),
  /** Where `q` matched (the report's opening lines without `q`). */
  snippet: z.array(ZSnippetPart),
  /** Relevance to `q` (higher is better); null without `q`. */
  rank: z.number().nullable(),
  /** Whether the caller may download its PDF (a final report with a PDF). */
  has_pdf: z.boolean(),
});
export type TReportSearchHit = z.infer<typeof ZReportSearchHit>;

export const ZReportSearchResponse = paginatedSchema(ZReportSearchHit).extend({
  /**
   * true: more reports match than were counted, and `total` is a lower bound: the cap
   * (REPORT_FINDER_COUNT_CAP, or past the page asked for), or fewer when the newest-first walk of a
   * word under a narrow filter stopped first (past the first page). Sorted by relevance, the
   * matches are ranked in blocks of the cap, newest first (the newest 1,000 best first, then the
   * next 1,000 ...), so pages continue each other; past a walk's lower bound no page follows by
   * relevance (the matches counted are those ranked; by date the pages go on). false: `total` is exact.
   */
  total_capped: z.boolean(),
});
export type TReportSearchResponse = z.infer<typeof ZReportSearchResponse>;
