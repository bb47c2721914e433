// The query string of worklist filters as the rollup tests state them (a custom range, in UTC or in
// Asia/Kolkata's dates), shared by the tests that compare the API's counts with count(*).

export type TWorklistTestFilters = {
  from?: string;
  to?: string;
  byUserIds?: string[];
  facilityIds?: string[];
  modalities?: string[];
  priorityTags?: string[];
  /** start_date and end_date are dates in Asia/Kolkata. */
  zoneDates?: boolean;
};

export function worklistFiltersQuery(filters: TWorklistTestFilters): string {
  const params = new URLSearchParams({ date_range_type: 'CUSTOM' });
  if (filters.zoneDates) params.set('time_zone', 'Asia/Kolkata');
  if (filters.from) params.set('start_date', filters.from);
  if (filters.to) params.set('end_date', filters.to);
  for (const id of filters.byUserIds ?? []) params.append('by_user_ids', id);
  for (const id of filters.facilityIds ?? []) params.append('facility_ids', id);
  for (const modality of filters.modalities ?? []) params.append('modalities', modality);
  for (const tag of filters.priorityTags ?? []) params.append('priority_tags', tag);
  return params.toString();
}
