/** Worklist table columns in default order: patient_name is pinned first and actions last. */
export const WORKLIST_COLUMNS = [
  'patient_name',
  'patient_id',
  'modality',
  'study',
  'datetime',
  'series_count',
  'status',
  'radiologist',
  'referring_physician',
  'facility',
  'actions',
] as const;
export type TWorklistColumn = (typeof WORKLIST_COLUMNS)[number];

export const FIRST_WORKLIST_COLUMN = 'patient_name' satisfies TWorklistColumn;
export const LAST_WORKLIST_COLUMN = 'actions' satisfies TWorklistColumn;

/**
 * Columns listed in the filter settings: every data column except series_count. The actions column
 * is pinned and has no setting.
 */
export const FILTER_SETTINGS_COLUMNS = WORKLIST_COLUMNS.filter(
  (column): column is Exclude<TWorklistColumn, 'series_count' | 'actions'> =>
    column !== 'series_count' && column !== 'actions',
);

export function isWorklistColumn(value: unknown): value is TWorklistColumn {
  return typeof value === 'string' && (WORKLIST_COLUMNS as readonly string[]).includes(value);
}

/**
 * A complete column order from a stored one: patient_name first, actions last, unknown names and
 * repeats dropped (first occurrence wins), and columns missing from the stored order (e.g. added in a
 * later release) appended before actions in default order. The result is always a permutation of
 * WORKLIST_COLUMNS.
 */
export function normaliseColumnOrder(order: readonly string[]): TWorklistColumn[] {
  const middle: TWorklistColumn[] = [];
  const seen = new Set<string>([FIRST_WORKLIST_COLUMN, LAST_WORKLIST_COLUMN]);
  const take = (column: string): void => {
    if (isWorklistColumn(column) && !seen.has(column)) {
      seen.add(column);
      middle.push(column);
    }
  };
  order.forEach(take);
  WORKLIST_COLUMNS.forEach(take);
  return [FIRST_WORKLIST_COLUMN, ...middle, LAST_WORKLIST_COLUMN];
}

/** Action run by a worklist row's quick-action button. */
export const QUICK_ACTIONS = ['edit', 'view'] as const;
export type TQuickAction = (typeof QUICK_ACTIONS)[number];
export const DEFAULT_QUICK_ACTION: TQuickAction = 'edit';

/** Sorting of the worklist: newest first by default. */
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type TSortOrder = (typeof SORT_ORDERS)[number];
export const DEFAULT_SORT_ORDER: TSortOrder = 'desc';
export const DEFAULT_WORKLIST_SORT_BY = 'created_at';
