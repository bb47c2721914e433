import type { TWorklistColumn, TWorklistSortField } from '@ris/domain';

/** Header text of each worklist column. */
export const COLUMN_LABELS = {
  patient_name: 'Patient',
  patient_id: 'Patient ID',
  modality: 'Modality',
  study: 'Study',
  datetime: 'Date & time',
  series_count: 'Series',
  status: 'Status',
  radiologist: 'Radiologist',
  referring_physician: 'Referring physician',
  facility: 'Facility',
  actions: 'Actions',
} as const satisfies Record<TWorklistColumn, string>;

/** The sort field of each sortable column (the server's whitelist); others cannot be sorted. */
export const COLUMN_SORT_FIELDS: Partial<Record<TWorklistColumn, TWorklistSortField>> = {
  patient_name: 'patient_name',
  patient_id: 'patient_id',
  modality: 'modality',
  study: 'study',
  datetime: 'datetime',
  series_count: 'series_count',
  status: 'status',
};

/** Page sizes offered under the table; the session's own size is kept even when not listed. */
export const PAGE_SIZE_OPTIONS = [10, 25, 50, 100] as const;
