import {
  DATE_RANGE_TYPES,
  MODALITIES,
  PRIORITY_TAGS,
  REPORT_FINDER_SORTS,
  REPORT_STATUSES,
  type TDateRangeType,
  type TModality,
  type TPriorityTag,
  type TReportFinderSort,
  type TReportStatus,
} from '@ris/domain';

/** The report finder's filters (GET /report/search), in its wire names; session-stored (spec §3). */
export interface TReportFinderFilters {
  /** Words of the report, web-search syntax. */
  q: string;
  /** Patient name, patient id, accession or study (the worklist's search). */
  search: string;
  /** CUSTOM with both dates open is every date: the finder's default. */
  date_range_type: TDateRangeType;
  start_date: string | null;
  end_date: string | null;
  facility_ids: string[];
  modalities: TModality[];
  priority_tags: TPriorityTag[];
  radiologist_ids: string[];
  report_statuses: TReportStatus[];
  tag_ids: string[];
  referring_physician_ids: string[];
  sort_by: TReportFinderSort;
}

export function defaultReportFinderFilters(): TReportFinderFilters {
  return {
    q: '',
    search: '',
    date_range_type: 'CUSTOM',
    start_date: null,
    end_date: null,
    facility_ids: [],
    modalities: [],
    priority_tags: [],
    radiologist_ids: [],
    report_statuses: [],
    tag_ids: [],
    referring_physician_ids: [],
    sort_by: 'relevance',
  };
}

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function date(value: unknown): string | null {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
}

function listOf<T extends string>(value: unknown, allowed?: readonly T[]): T[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry): entry is T => typeof entry === 'string' && (!allowed || allowed.includes(entry as T)),
  );
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === 'string' && allowed.includes(value as T) ? (value as T) : fallback;
}

/** What was stored, over the defaults: unknown values (an older build's, a hand edit) are dropped. */
export function repairReportFinderFilters(stored: unknown): TReportFinderFilters {
  const defaults = defaultReportFinderFilters();
  if (typeof stored !== 'object' || stored === null) return defaults;
  const data = stored as Record<string, unknown>;
  return {
    q: text(data.q, defaults.q),
    search: text(data.search, defaults.search),
    date_range_type: oneOf(data.date_range_type, DATE_RANGE_TYPES, defaults.date_range_type),
    start_date: date(data.start_date),
    end_date: date(data.end_date),
    facility_ids: listOf(data.facility_ids),
    modalities: listOf(data.modalities, MODALITIES),
    priority_tags: listOf(data.priority_tags, PRIORITY_TAGS),
    radiologist_ids: listOf(data.radiologist_ids),
    report_statuses: listOf(data.report_statuses, REPORT_STATUSES),
    tag_ids: listOf(data.tag_ids),
    referring_physician_ids: listOf(data.referring_physician_ids),
    sort_by: oneOf(data.sort_by, REPORT_FINDER_SORTS, defaults.sort_by),
  };
}
