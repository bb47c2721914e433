import { normaliseWorklistColumns, type TPreferences } from '@ris/domain';
import {
  tableSettingsOf,
  worklistFiltersFromDefaults,
  type PreferenceOnlyData,
  type SettingsData,
  type SettingsState,
} from '../../stores/settings-store.ts';

/** A user's preferences as the settings store holds them (the one mapping store → document). */
export function preferencesOf(state: SettingsState, userId: string): TPreferences {
  const table = tableSettingsOf(state, userId);
  return {
    worklist_columns: table.worklistColumns,
    quick_action: table.quickAction,
    default_viewer: table.defaultViewer,
    page_sizes: { worklist: state.pageSizes.worklist, reportFinder: state.pageSizes.reportFinder },
    theme: state.theme,
    default_date_range: state.defaultDateRange,
    default_worklist_filters: state.defaultWorklistFilters,
    notifications: state.notifications,
  };
}

/**
 * The store's values for a user's resolved preferences (the one mapping document → store).
 * `inherited` (organisation over default) is what "Reset columns" goes back to. A tab whose
 * worklist filters no default has started yet (a new tab, a fresh sign-in) starts them from the
 * default date range and filters; a reloaded tab keeps the filters of its session.
 */
export function settingsFromPreferences(
  state: SettingsState,
  userId: string,
  preferences: TPreferences,
  inherited: TPreferences,
): Partial<SettingsData & PreferenceOnlyData> {
  return {
    tableSettingsByUser: {
      ...state.tableSettingsByUser,
      [userId]: {
        worklistColumns: normaliseWorklistColumns(preferences.worklist_columns),
        quickAction: preferences.quick_action,
        defaultViewer: preferences.default_viewer,
      },
    },
    theme: preferences.theme,
    pageSizes: { ...preferences.page_sizes },
    defaultDateRange: preferences.default_date_range,
    defaultWorklistFilters: preferences.default_worklist_filters,
    notifications: preferences.notifications,
    inheritedWorklistColumns: normaliseWorklistColumns(inherited.worklist_columns),
    ...(state.filtersStartedFor === userId
      ? {}
      : {
          ...worklistFiltersFromDefaults(
            preferences.default_date_range,
            preferences.default_worklist_filters,
          ),
          filtersStartedFor: userId,
        }),
  };
}

/** The parts of the store the preferences are read from: when none changed, neither did they. */
export function preferenceSlices(state: SettingsState, userId: string): readonly unknown[] {
  return [
    state.tableSettingsByUser[userId],
    state.theme,
    state.pageSizes,
    state.defaultDateRange,
    state.defaultWorklistFilters,
    state.notifications,
  ];
}
