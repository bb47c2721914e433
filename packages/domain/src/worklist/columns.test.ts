import { describe, expect, it } from 'vitest';
import {
  DEFAULT_QUICK_ACTION,
  DEFAULT_SORT_ORDER,
  DEFAULT_WORKLIST_SORT_BY,
  FILTER_SETTINGS_COLUMNS,
  WORKLIST_COLUMNS,
  ZQuickAction,
  ZWorklistColumn,
  normaliseColumnOrder,
} from '../index.ts';

describe('worklist columns', () => {
  it('has patient_name first and actions last by default', () => {
    expect(WORKLIST_COLUMNS[0]).toBe('patient_name');
    expect(WORKLIST_COLUMNS.at(-1)).toBe('actions');
    expect(WORKLIST_COLUMNS).toHaveLength(11);
    expect(ZWorklistColumn.safeParse('notes').success).toBe(false);
  });

  it('omits series_count (and the pinned actions) from the filter settings', () => {
    expect(FILTER_SETTINGS_COLUMNS).toEqual([
      'patient_name',
      'patient_id',
      'modality',
      'study',
      'datetime',
      'status',
      'radiologist',
      'referring_physician',
      'facility',
    ]);
  });

  it('keeps a valid order', () => {
    expect(normaliseColumnOrder(WORKLIST_COLUMNS)).toEqual([...WORKLIST_COLUMNS]);
  });

  it('pins patient_name first and actions last', () => {
    const order = normaliseColumnOrder(['actions', 'status', 'patient_name', 'modality']);
    expect(order[0]).toBe('patient_name');
    expect(order.at(-1)).toBe('actions');
    expect(order.slice(1, 3)).toEqual(['status', 'modality']);
  });

  it('drops unknown names and duplicates, keeping the first occurrence', () => {
    const order = normaliseColumnOrder(['facility', 'bogus', 'facility', 'study', 'FACILITY', 'study']);
    expect(order.slice(0, 3)).toEqual(['patient_name', 'facility', 'study']);
    expect(order.filter((column) => column === 'facility')).toHaveLength(1);
    expect(order).not.toContain('bogus');
  });

  it('appends missing columns in default order so the result is a permutation', () => {
    const order = normaliseColumnOrder(['radiologist']);
    expect(order).toEqual([
      'patient_name',
      'radiologist',
      'patient_id',
      'modality',
      'study',
      'datetime',
      'series_count',
      'status',
      'referring_physician',
      'facility',
      'actions',
    ]);
    expect(normaliseColumnOrder([])).toEqual([...WORKLIST_COLUMNS]);
  });

  it('defaults the quick action and sort', () => {
    expect(DEFAULT_QUICK_ACTION).toBe('edit');
    expect(ZQuickAction.parse('edit')).toBe('edit');
    expect(DEFAULT_WORKLIST_SORT_BY).toBe('created_at');
    expect(DEFAULT_SORT_ORDER).toBe('desc');
  });
});
