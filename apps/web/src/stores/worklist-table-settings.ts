import {
  FIRST_WORKLIST_COLUMN,
  LAST_WORKLIST_COLUMN,
  WORKLIST_COLUMNS,
  normaliseColumnOrder,
  type TWorklistColumn,
} from '@ris/domain';

/** One column of the worklist table as the user arranged it. */
export interface TWorklistColumnSetting {
  id: TWorklistColumn;
  visible: boolean;
}

function isPinned(id: TWorklistColumn): boolean {
  return id === FIRST_WORKLIST_COLUMN || id === LAST_WORKLIST_COLUMN;
}

/** Every column, visible, in default order. */
export function defaultWorklistColumns(): TWorklistColumnSetting[] {
  return WORKLIST_COLUMNS.map((id) => ({ id, visible: true }));
}

/**
 * A complete, valid column list from a stored one (which may be stale or hand-edited): order by the
 * domain rule (patient_name first, actions last, unknown dropped, missing appended), stored
 * visibility kept, new columns visible, and the two pinned columns always visible.
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
    visible: isPinned(id) || (visibility.get(id) ?? true),
  }));
}

/** Shows or hides a column; the pinned columns cannot be hidden. */
export function setColumnVisible(
  columns: readonly TWorklistColumnSetting[],
  id: TWorklistColumn,
  visible: boolean,
): TWorklistColumnSetting[] {
  return normaliseWorklistColumns(
    columns.map((column) => (column.id === id ? { id, visible: isPinned(id) || visible } : column)),
  );
}

/**
 * Moves a column to a new index of the list. Pinned columns stay where they are, and nothing can be
 * moved before patient_name or after actions.
 */
export function moveColumn(
  columns: readonly TWorklistColumnSetting[],
  id: TWorklistColumn,
  toIndex: number,
): TWorklistColumnSetting[] {
  const from = columns.findIndex((column) => column.id === id);
  const moving = columns[from];
  if (!moving || isPinned(id)) return normaliseWorklistColumns(columns);
  const rest = columns.filter((column) => column.id !== id);
  const target = Math.min(Math.max(toIndex, 1), rest.length - 1);
  return normaliseWorklistColumns([...rest.slice(0, target), moving, ...rest.slice(target)]);
}

/**
 * Moves a column to the place of another one (a drop in the settings list, which omits some
 * columns): before it when moving up, after it when moving down. Pinned columns stay put.
 */
export function moveColumnOnto(
  columns: readonly TWorklistColumnSetting[],
  id: TWorklistColumn,
  overId: TWorklistColumn,
): TWorklistColumnSetting[] {
  const to = columns.findIndex((column) => column.id === overId);
  if (to === -1 || id === overId) return normaliseWorklistColumns(columns);
  return moveColumn(columns, id, to);
}

/** The ids of the columns to render, in order. */
export function visibleColumnIds(columns: readonly TWorklistColumnSetting[]): TWorklistColumn[] {
  return columns.filter((column) => column.visible).map((column) => column.id);
}
