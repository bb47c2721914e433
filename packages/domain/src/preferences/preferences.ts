// What a person sets once and finds in any browser (spec §3 "User preference", DESIGN.md
// "Preferences"): the product's DEFAULT document, and the one rule that resolves a user's
// preferences from the three scopes. The zod schemas are in ./preference.schemas.ts.
import { TEMPLATE_SCOPES, type TTemplateScope } from '../common/enums.ts';
import { DEFAULT_DATE_RANGE_TYPE, type TDateRangeType } from '../dates/date-ranges.ts';
import { DEFAULT_VIEWER } from '../studies/viewers.ts';
import { DEFAULT_THEME, SESSION_PAGE_SIZES } from '../ui-constants.ts';
import { DEFAULT_QUICK_ACTION, DEFAULT_SORT_ORDER, DEFAULT_WORKLIST_SORT_BY } from '../worklist/columns.ts';
import type { TWorklistSortField } from '../worklist/worklist.schemas.ts';
import { defaultWorklistColumns, normaliseWorklistColumns } from './column-settings.ts';
import type { TPreferences, TPreferencesPatch } from './preference.schemas.ts';

/** DEFAULT (the product's), ORGANISATION (an admin's, for everyone) and USER (a person's own). */
export const PREFERENCE_SCOPES = TEMPLATE_SCOPES;
export type TPreferenceScope = TTemplateScope;

/** The fields of a preference document, in the order the API lists them. */
export const PREFERENCE_FIELDS = [
  'worklist_columns',
  'quick_action',
  'default_viewer',
  'page_sizes',
  'theme',
  'default_date_range',
  'default_worklist_filters',
  'notifications',
] as const;
export type TPreferenceField = (typeof PREFERENCE_FIELDS)[number];

/** Fields that are objects of independent settings: a higher scope may set only some of their keys. */
const KEYED_FIELDS = new Set<TPreferenceField>(['page_sizes', 'default_worklist_filters', 'notifications']);

/** Where each resolved field came from. */
export type TPreferenceSources = Record<TPreferenceField, TPreferenceScope>;

/** Most facilities a default worklist filter may name. */
export const MAX_DEFAULT_FACILITY_IDS = 100;

/** Largest JSON body a preference write may send (a complete document is about 1.5 KB). */
export const PREFERENCES_BODY_LIMIT_BYTES = 16 * 1024;

const DEFAULT_SORT_FIELD: TWorklistSortField = DEFAULT_WORKLIST_SORT_BY;

/** A date-range preset: every type but CUSTOM, whose dates belong to one session, not to a default. */
export type TDateRangePreset = Exclude<TDateRangeType, 'CUSTOM'>;

export function isDateRangePreset(type: TDateRangeType): type is TDateRangePreset {
  return type !== 'CUSTOM';
}

/** The DEFAULT scope: complete, built from the specification's constants (a fresh copy each call). */
export function defaultPreferences(): TPreferences {
  return {
    worklist_columns: defaultWorklistColumns(),
    quick_action: DEFAULT_QUICK_ACTION,
    default_viewer: DEFAULT_VIEWER,
    page_sizes: { ...SESSION_PAGE_SIZES },
    theme: DEFAULT_THEME,
    default_date_range: isDateRangePreset(DEFAULT_DATE_RANGE_TYPE) ? DEFAULT_DATE_RANGE_TYPE : 'TODAY',
    default_worklist_filters: {
      status_group: 'ALL',
      statuses: [],
      modalities: [],
      priority_tags: [],
      facility_ids: [],
      sort_by: DEFAULT_SORT_FIELD,
      sort_order: DEFAULT_SORT_ORDER,
    },
    notifications: { status_toasts: true },
  };
}

/** The three documents of one user; a missing one sets nothing. */
export interface TPreferenceLayers {
  default: TPreferences;
  organisation?: TPreferencesPatch | null;
  user?: TPreferencesPatch | null;
}

export interface TResolvedPreferences {
  preferences: TPreferences;
  sources: TPreferenceSources;
}

function definedKeys(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined));
}

/**
 * A user's preferences: USER over ORGANISATION over DEFAULT, field by field. A field left out of a
 * higher scope is inherited; an object field (page sizes, default filters, notifications) is merged
 * key by key; any other field (the column list included) is replaced whole. The column list comes
 * out normalised (pinned columns in place, missing columns appended). `sources` names the highest
 * scope that set any part of each field.
 */
export function resolvePreferences(layers: TPreferenceLayers): TResolvedPreferences {
  const resolved: Record<string, unknown> = {};
  const sources = {} as TPreferenceSources;
  const stack: [TPreferenceScope, TPreferencesPatch | null | undefined][] = [
    ['ORGANISATION', layers.organisation],
    ['USER', layers.user],
  ];
  for (const field of PREFERENCE_FIELDS) {
    let value: unknown = layers.default[field];
    let source: TPreferenceScope = 'DEFAULT';
    for (const [scope, document] of stack) {
      const layer: unknown = document?.[field];
      if (layer === undefined) continue;
      if (KEYED_FIELDS.has(field) && typeof layer === 'object' && layer !== null) {
        const keys = definedKeys(layer);
        if (Object.keys(keys).length === 0) continue;
        value = { ...(value as object), ...keys };
      } else {
        value = layer;
      }
      source = scope;
    }
    resolved[field] = value;
    sources[field] = source;
  }
  const preferences = resolved as unknown as TPreferences;
  return {
    preferences: { ...preferences, worklist_columns: normaliseWorklistColumns(preferences.worklist_columns) },
    sources,
  };
}

/** Structural equality of JSON values (key order ignored; array order matters). */
export function samePreferenceValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => samePreferenceValue(item, b[index]));
  }
  const left = definedKeys(a);
  const right = definedKeys(b);
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every((key) => key in right && samePreferenceValue(left[key], right[key]))
  );
}

/**
 * The smallest USER document that, over `inherited` (the organisation's and the default's resolved
 * together), resolves to `wanted`: only what differs, and of an object field only the keys that
 * differ. So a setting put back to what the organisation says follows the organisation again.
 */
export function preferenceOverrides(wanted: TPreferences, inherited: TPreferences): TPreferencesPatch {
  const patch: Record<string, unknown> = {};
  for (const field of PREFERENCE_FIELDS) {
    const want: unknown =
      field === 'worklist_columns' ? normaliseWorklistColumns(wanted.worklist_columns) : wanted[field];
    const base: unknown = inherited[field];
    if (samePreferenceValue(want, base)) continue;
    if (KEYED_FIELDS.has(field)) {
      const baseKeys = base as Record<string, unknown>;
      patch[field] = Object.fromEntries(
        Object.entries(want as Record<string, unknown>).filter(
          ([key, item]) => !samePreferenceValue(item, baseKeys[key]),
        ),
      );
    } else {
      patch[field] = want;
    }
  }
  return patch as TPreferencesPatch;
}
