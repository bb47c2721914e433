import {
  FIRST_WORKLIST_COLUMN,
  LAST_WORKLIST_COLUMN,
  WORKLIST_COLUMNS,
  normaliseColumnOrder,
  type TWorklistColumn,
} from '../worklist/columns.ts';

/** One column of the worklist table as a person arranged it (a preference, spec §2). */
export interface TWorklistColumnSetting {
  id: TWorklistColumn;
  visible: boolean;
}

/** The columns that are always shown: patient_name first and actions last. */
export function isPinnedColumn(id: TWorklistColumn): boolean {
  return id === FIRST_WORKLIST_COLUMN || id === LAST_WORKLIST_COLUMN;
}

/** Every column, visible, in default order. */
export function defaultWorklistColumns(): TWorklistColumnSetting[] {
  return WORKLIST_COLUMNS.map((id) => ({ id, visible: true }));
}

/**
 * A complete, valid column list from a stored one (which may be stale or hand-edited): order by the
 * domain rule (patient_name first, actions last, unknown dropped, missing appended), stored
 * visibility kept (the first mention of a column wins), new columns visible, and the two pinned
 * columns always visible.
 */
export function normaliseWorklistColumns(
  stored: readonly { id: string; visible?: boolean }[],
): TWorklistColumnSetting[] {
  const visibility = new Map<string, boolean>();
  for (const column of stored) {
    if (!visibility.has(column.id)) visibility.set(column.id, column.visible !== false);
  }
  return normaliseColumnOrder(stored.map((column) => column.id)).map((id) => ({
    id,
    visible: isPinnedColumn(id) || (visibility.get(id) ?? true),
  }));
}
