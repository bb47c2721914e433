import { describe, expect, it } from 'vitest';
import { WORKLIST_COLUMNS } from '@ris/domain';
import {
  defaultWorklistColumns,
  moveColumn,
  moveColumnOnto,
  normaliseWorklistColumns,
  setColumnVisible,
  visibleColumnIds,
} from './worklist-table-settings.ts';

const ids = (columns: { id: string }[]): string[] => columns.map((column) => column.id);

describe('worklist table settings', () => {
  it('shows every column by default, patient_name first and actions last', () => {
    const columns = defaultWorklistColumns();
    expect(ids(columns)).toEqual([...WORKLIST_COLUMNS]);
    expect(columns.every((column) => column.visible)).toBe(true);
  });

  it('hides and shows columns but never the pinned ones', () => {
    let columns = setColumnVisible(defaultWorklistColumns(), 'modality', false);
    columns = setColumnVisible(columns, 'patient_name', false);
    columns = setColumnVisible(columns, 'actions', false);
    expect(visibleColumnIds(columns)).not.toContain('modality');
    expect(visibleColumnIds(columns)[0]).toBe('patient_name');
    expect(visibleColumnIds(columns).at(-1)).toBe('actions');
    expect(visibleColumnIds(setColumnVisible(columns, 'modality', true))).toContain('modality');
  });

  it('moves a column but keeps patient_name first and actions last', () => {
    const toStart = moveColumn(defaultWorklistColumns(), 'status', 0);
    expect(ids(toStart).slice(0, 2)).toEqual(['patient_name', 'status']);
    const toEnd = moveColumn(defaultWorklistColumns(), 'patient_id', 99);
    expect(ids(toEnd).slice(-2)).toEqual(['patient_id', 'actions']);
    expect(ids(moveColumn(defaultWorklistColumns(), 'actions', 2))).toEqual([...WORKLIST_COLUMNS]);
  });

  it('repairs a stale stored list: unknown dropped, missing added visible, order kept', () => {
    const columns = normaliseWorklistColumns([
      { id: 'actions', visible: false },
      { id: 'status', visible: false },
      { id: 'obsolete', visible: true },
      { id: 'patient_id', visible: true },
    ]);
    expect(ids(columns).slice(0, 3)).toEqual(['patient_name', 'status', 'patient_id']);
    expect(ids(columns).at(-1)).toBe('actions');
    expect(ids(columns)).toHaveLength(WORKLIST_COLUMNS.length);
    expect(columns.find((column) => column.id === 'status')?.visible).toBe(false);
    expect(columns.find((column) => column.id === 'actions')?.visible).toBe(true);
    expect(columns.find((column) => column.id === 'facility')?.visible).toBe(true);
  });

  it('drops a column onto another: before it moving up, after it moving down, pinned ones fixed', () => {
    const up = moveColumnOnto(defaultWorklistColumns(), 'facility', 'modality');
    expect(ids(up).slice(0, 4)).toEqual(['patient_name', 'patient_id', 'facility', 'modality']);
    const down = moveColumnOnto(defaultWorklistColumns(), 'patient_id', 'study');
    expect(ids(down).slice(0, 4)).toEqual(['patient_name', 'modality', 'study', 'patient_id']);
    expect(ids(moveColumnOnto(defaultWorklistColumns(), 'modality', 'patient_name'))[0]).toBe('patient_name');
    expect(ids(moveColumnOnto(defaultWorklistColumns(), 'modality', 'actions')).at(-1)).toBe('actions');
    expect(ids(moveColumnOnto(defaultWorklistColumns(), 'actions', 'modality'))).toEqual([
      ...WORKLIST_COLUMNS,
    ]);
  });
});
