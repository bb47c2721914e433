import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DATE_RANGE_TYPE,
  DEFAULT_QUICK_ACTION,
  DEFAULT_THEME,
  DEFAULT_VIEWER,
  PREFERENCE_FIELDS,
  SESSION_PAGE_SIZES,
  WORKLIST_COLUMNS,
  ZPreferences,
  defaultPreferences,
  normaliseWorklistColumns,
  preferenceOverrides,
  resolvePreferences,
  samePreferenceValue,
  type TPreferences,
  type TPreferencesPatch,
} from '../index.ts';

const base = defaultPreferences();

describe('defaultPreferences', () => {
  it('is complete, valid and built from the specification constants', () => {
    expect(ZPreferences.parse(base)).toEqual(base);
    expect(Object.keys(base)).toEqual([...PREFERENCE_FIELDS]);
    expect(base.worklist_columns.map((column) => column.id)).toEqual([...WORKLIST_COLUMNS]);
    expect(base.worklist_columns.every((column) => column.visible)).toBe(true);
    expect(base).toMatchObject({
      quick_action: DEFAULT_QUICK_ACTION,
      default_viewer: DEFAULT_VIEWER,
      theme: DEFAULT_THEME,
      page_sizes: SESSION_PAGE_SIZES,
      default_date_range: DEFAULT_DATE_RANGE_TYPE,
      default_worklist_filters: { status_group: 'ALL', sort_by: 'created_at', sort_order: 'desc' },
    });
  });

  it('hands out a fresh copy each time', () => {
    const mine = defaultPreferences();
    mine.page_sizes.worklist = 50;
    mine.worklist_columns[1] = { id: 'patient_id', visible: false };
    expect(defaultPreferences().page_sizes.worklist).toBe(10);
    expect(defaultPreferences().worklist_columns[1]?.visible).toBe(true);
  });
});

describe('resolvePreferences', () => {
  it('gives the default, sourced DEFAULT, when no other scope sets anything', () => {
    const { preferences, sources } = resolvePreferences({ default: base, organisation: null, user: {} });
    expect(preferences).toEqual(base);
    expect(Object.values(sources).every((source) => source === 'DEFAULT')).toBe(true);
  });

  it('takes the user over the organisation over the default, field by field', () => {
    const organisation: TPreferencesPatch = {
      theme: 'light',
      default_viewer: 'weasis',
      quick_action: 'view',
    };
    const user: TPreferencesPatch = { theme: 'dark', default_date_range: 'LAST_1_WEEK' };
    const { preferences, sources } = resolvePreferences({ default: base, organisation, user });
    expect(preferences).toMatchObject({
      theme: 'dark',
      default_viewer: 'weasis',
      quick_action: 'view',
      default_date_range: 'LAST_1_WEEK',
    });
    expect(sources).toMatchObject({
      theme: 'USER',
      default_viewer: 'ORGANISATION',
      quick_action: 'ORGANISATION',
      default_date_range: 'USER',
      page_sizes: 'DEFAULT',
    });
  });

  it('merges object fields key by key and names the highest scope that set any key', () => {
    const { preferences, sources } = resolvePreferences({
      default: base,
      organisation: { page_sizes: { reportFinder: 50 }, notifications: { status_toasts: false } },
      user: { page_sizes: { worklist: 25 }, default_worklist_filters: { modalities: ['CT'] } },
    });
    expect(preferences.page_sizes).toEqual({ worklist: 25, reportFinder: 50 });
    expect(preferences.notifications).toEqual({ status_toasts: false });
    expect(preferences.default_worklist_filters).toEqual({
      ...base.default_worklist_filters,
      modalities: ['CT'],
    });
    expect(sources).toMatchObject({
      page_sizes: 'USER',
      notifications: 'ORGANISATION',
      default_worklist_filters: 'USER',
    });
  });

  it('replaces the column list whole and normalises it (pinned columns in place, missing appended)', () => {
    const { preferences } = resolvePreferences({
      default: base,
      organisation: { worklist_columns: [{ id: 'facility', visible: false }] },
      user: {
        worklist_columns: [
          { id: 'status', visible: true },
          { id: 'actions', visible: false },
          { id: 'patient_name', visible: false },
        ],
      },
    });
    const ids = preferences.worklist_columns.map((column) => column.id);
    expect(ids[0]).toBe('patient_name');
    expect(ids[1]).toBe('status');
    expect(ids.at(-1)).toBe('actions');
    expect(new Set(ids)).toEqual(new Set(WORKLIST_COLUMNS));
    // The user's list replaced the organisation's: facility is visible again.
    expect(preferences.worklist_columns.every((column) => column.visible)).toBe(true);
  });

  it('skips an empty object field and undefined keys (nothing set there)', () => {
    const { preferences, sources } = resolvePreferences({
      default: base,
      organisation: { page_sizes: {} },
      user: { page_sizes: { worklist: undefined } },
    });
    expect(preferences.page_sizes).toEqual(base.page_sizes);
    expect(sources.page_sizes).toBe('DEFAULT');
  });

  it('does not change its inputs', () => {
    const organisation: TPreferencesPatch = { page_sizes: { worklist: 50 } };
    const copy = structuredClone(organisation);
    const before = structuredClone(base);
    resolvePreferences({ default: base, organisation, user: { page_sizes: { reportFinder: 30 } } });
    expect(organisation).toEqual(copy);
    expect(base).toEqual(before);
  });
});

describe('preferenceOverrides', () => {
  const inherited: TPreferences = resolvePreferences({
    default: base,
    organisation: { theme: 'light', page_sizes: { worklist: 25 } },
  }).preferences;

  it('is empty when the user wants what they inherit', () => {
    expect(preferenceOverrides(structuredClone(inherited), inherited)).toEqual({});
  });

  it('keeps only what differs, and of an object field only the keys that differ', () => {
    const wanted: TPreferences = {
      ...structuredClone(inherited),
      theme: 'dark',
      page_sizes: { worklist: 25, reportFinder: 40 },
      worklist_columns: normaliseWorklistColumns([{ id: 'patient_id', visible: false }]),
    };
    const patch = preferenceOverrides(wanted, inherited);
    expect(patch).toEqual({
      theme: 'dark',
      page_sizes: { reportFinder: 40 },
      worklist_columns: wanted.worklist_columns,
    });
    // Resolving the overrides over the same inheritance gives back exactly what was wanted.
    expect(
      resolvePreferences({
        default: base,
        organisation: { theme: 'light', page_sizes: { worklist: 25 } },
        user: patch,
      }).preferences,
    ).toEqual(wanted);
  });

  it('drops a setting put back to the inherited value, so it follows the organisation again', () => {
    const wanted = { ...structuredClone(inherited), theme: 'light' as const };
    expect(preferenceOverrides(wanted, inherited)).not.toHaveProperty('theme');
  });
});

describe('samePreferenceValue', () => {
  it('ignores key order and undefined keys, not array order', () => {
    expect(samePreferenceValue({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1, c: undefined })).toBe(true);
    expect(samePreferenceValue([1, 2], [2, 1])).toBe(false);
    expect(samePreferenceValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(samePreferenceValue({ a: [] }, { a: {} })).toBe(false);
    expect(samePreferenceValue(null, {})).toBe(false);
  });
});
