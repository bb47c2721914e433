import {
  isPinnedColumn,
  normaliseWorklistColumns,
  type TWorklistColumn,
  type TWorklistColumnSetting,
} from '@ris/domain';

// The column list's shape and its repair are the preference's (@ris/domain, preferences/).
export { defaultWorklistColumns, normaliseWorklistColumns, type TWorklistColumnSetting } from '@ris/domain';

/** Shows or hides a column; the pinned columns cannot be hidden. */
export function setColumnVisible(
  columns: readonly TWorklistColumnSetting[],
  id: TWorklistColumn,
  visible: boolean,
): TWorklistColumnSetting[] {
  return normaliseWorklistColumns(
    columns.map((column) => (column.id === id ? { id, visible: isPinnedColumn(id) || visible } : column)),
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
  if (!moving || isPinnedColumn(id)) return normaliseWorklistColumns(columns);
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
