// Rows of the report finder's statement → GET /report/search's response (typed by the domain schema).
import {
  paginate,
  type TModality,
  type TPriorityTag,
  type TReportSearchHit,
  type TReportSearchResponse,
  type TReportStatus,
  type TStudyStatus,
} from '@ris/domain';
import type { TReportFinderCriteria } from './report-finder-criteria.ts';
import type { TReportFinderRow } from './report-finder.queries.ts';
import { snippetFromHeadline, snippetFromOpening } from './report-snippet.ts';

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

function presentHit(row: TReportFinderRow & { report_id: string }, searched: boolean): TReportSearchHit {
  return {
    report_id: row.report_id,
    study_id: row.study_id,
    patient_id: row.patient_id,
    patient_name: row.patient_name,
    patient_identifier: row.patient_identifier,
    accession_number: row.accession_number,
    study_description: row.study_description,
    modality: row.modality,
    modality_group: row.modality_group as TModality | null,
    facility_id: row.facility_id,
    facility_name: row.facility_name,
    study_status: row.study_status as TStudyStatus,
    priority_tag: row.priority_tag as TPriorityTag | null,
    created_at: iso(row.created_at),
    study_datetime: isoOrNull(row.study_datetime),
    report_status: row.report_status as TReportStatus,
    radiologist:
      row.radiologist_id === null
        ? null
        : { id: row.radiologist_id, display_name: row.radiologist_name ?? '' },
    finalized_at: isoOrNull(row.finalized_at),
    updated_at: iso(row.updated_at),
    snippet: searched ? snippetFromHeadline(row.snippet_source) : snippetFromOpening(row.snippet_source),
    rank: row.rank === null ? null : Number(row.rank),
    has_pdf: row.has_pdf,
  };
}

/**
 * The page: the statement's rows (one row with no report when the page is empty) and the total, a
 * lower bound when total_capped (counted up to the cap, or as far as the walk read).
 */
export function presentReportSearch(
  rows: readonly TReportFinderRow[],
  criteria: Pick<TReportFinderCriteria, 'limit' | 'offset' | 'text'>,
): TReportSearchResponse {
  const total = Number(rows[0]?.total ?? 0);
  const capped = rows[0]?.total_capped ?? false;
  const items = rows
    .filter((row): row is TReportFinderRow & { report_id: string } => row.report_id !== null)
    .map((row) => presentHit(row, criteria.text !== null));
  return { ...paginate(total, criteria.limit, criteria.offset), total_capped: capped, items };
}
