import type { QueryParams } from '../../api/query-string.ts';
import type { TReportFinderFilters } from '../../stores/report-finder-filters.ts';

/** Query of GET /report/search for the finder's filters, in the contract's names (paging aside). */
export function buildSearchParams(filters: TReportFinderFilters, timeZone: string): QueryParams {
  const custom = filters.date_range_type === 'CUSTOM';
  const q = filters.q.trim();
  const search = filters.search.trim();
  return {
    q: q === '' ? undefined : q,
    search: search === '' ? undefined : search,
    date_range_type: filters.date_range_type,
    // Custom with both dates open is every date; a date as end_date covers that whole day.
    start_date: custom ? filters.start_date : undefined,
    end_date: custom ? filters.end_date : undefined,
    time_zone: timeZone,
    facility_ids: filters.facility_ids,
    modalities: filters.modalities,
    priority_tags: filters.priority_tags,
    radiologist_ids: filters.radiologist_ids,
    report_statuses: filters.report_statuses,
    tag_ids: filters.tag_ids,
    referring_physician_ids: filters.referring_physician_ids,
    sort_by: filters.sort_by,
  };
}

/** The prior reports of a patient beside one of their studies: newest first, that study left out. */
export function buildPriorsParams(input: { patientId: string; studyId: string }): QueryParams {
  return {
    patient_id: input.patientId,
    exclude_study_id: input.studyId,
    // Every date: a prior from years ago is still a prior.
    date_range_type: 'CUSTOM',
    sort_by: 'date',
  };
}
