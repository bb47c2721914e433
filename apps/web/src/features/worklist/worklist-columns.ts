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

/**
 * How wide each column is drawn in the fixed-layout table: `fixed` columns always take their width
 * (short values, headers that must not be cut); `flexible` ones share what is left equally, never
 * below their floor. Sized so that every column fits 1366 px and wider with the sidebar open; below
 * that, the table scrolls sideways with the checkbox and patient columns kept in view.
 */
export type TColumnWidth = { fixed: number } | { min: number };

export const COLUMN_WIDTHS: Record<TWorklistColumn | 'select', TColumnWidth> = {
  select: { fixed: 36 },
  patient_name: { fixed: 160 },
  patient_id: { fixed: 100 },
  modality: { fixed: 96 },
  study: { min: 96 },
  datetime: { fixed: 124 },
  series_count: { fixed: 80 },
  status: { fixed: 92 },
  radiologist: { min: 88 },
  referring_physician: { min: 88 },
  facility: { min: 88 },
  actions: { fixed: 76 },
};

/** The narrowest the table may get with these columns; below it, it scrolls sideways. */
export function tableMinWidth(columns: readonly TWorklistColumn[]): number {
  return (['select', ...columns] as const).reduce((sum, column) => {
    const width = COLUMN_WIDTHS[column];
    return sum + ('fixed' in width ? width.fixed : width.min);
  }, 0);
}
