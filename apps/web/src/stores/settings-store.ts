import { createStore, useStore } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';
import {
  DEFAULT_DATE_RANGE_TYPE,
  DEFAULT_QUICK_ACTION,
  DEFAULT_SORT_ORDER,
  DEFAULT_THEME,
  DEFAULT_VIEWER,
  DEFAULT_WORKLIST_SORT_BY,
  QUICK_ACTIONS,
  SESSION_PAGE_SIZES,
  STATUS_GROUPS,
  THEMES,
  VIEWERS,
  defaultPreferences,
  type TDateRangePreset,
  type TDateRangeType,
  type TModality,
  type TPreferences,
  type TPriorityTag,
  type TQuickAction,
  type TSortOrder,
  type TStatusGroup,
  type TStudyStatus,
  type TTheme,
  type TViewer,
  type TWorklistColumn,
} from '@ris/domain';
import {
  defaultReportFinderFilters,
  repairReportFinderFilters,
  type TReportFinderFilters,
} from './report-finder-filters.ts';
import { STORAGE_KEYS, sessionOrMemoryStorage } from './session-storage.ts';
import * as tabOps from './tabs.ts';
import {
  defaultWorklistColumns,
  moveColumn,
  moveColumnOnto,
  normaliseWorklistColumns,
  setColumnVisible,
  type TWorklistColumnSetting,
} from './worklist-table-settings.ts';

/** Worklist filters as the specification names them on the wire. */
export interface TWorklistFilters {
  start_date: string | null;
  end_date: string | null;
  date_range_type: TDateRangeType;
  facility_ids: string[];
  sort_by: string;
  sort_order: TSortOrder;
  search: string;
  statuses: TStudyStatus[];
  modalities: TModality[];
  priority_tags: TPriorityTag[];
  by_user_ids: string[];
}

export interface TTableSettings {
  worklistColumns: TWorklistColumnSetting[];
  quickAction: TQuickAction;
  defaultViewer: TViewer;
}

export type TPageSizeKey = keyof typeof SESSION_PAGE_SIZES;
export type TPageSizes = Record<TPageSizeKey, number>;
export type TDefaultWorklistFilters = TPreferences['default_worklist_filters'];
export type TNotificationChoices = TPreferences['notifications'];

/**
 * What is kept in sessionStorage (spec §3 "session-stored": filters, table settings, theme, tabs,
 * active tab, page sizes): survives a reload, forgotten when the tab closes or on logout. Table
 * settings, theme and page sizes are also preferences: the server's copy replaces them at sign-in.
 */
export interface SettingsData extends tabOps.TTabsState {
  worklistFilters: TWorklistFilters;
  /** The worklist's filter tab (ALL, ORDERED, ON_PROGRESS, COMPLETED). */
  worklistGroup: TStatusGroup;
  reportFinderFilters: TReportFinderFilters;
  /** Table settings per user id: two people sharing a browser tab keep their own columns. */
  tableSettingsByUser: Record<string, TTableSettings>;
  theme: TTheme;
  pageSizes: TPageSizes;
  /** The user whose default filters started worklistFilters in this tab (null: nobody's yet). */
  filtersStartedFor: string | null;
}

/**
 * Preferences that are not session-stored (spec §3): they come from the server at sign-in
 * (features/preferences) and are written back there, never to sessionStorage.
 */
export interface PreferenceOnlyData {
  /** The date range and filters a new session's worklist starts with. */
  defaultDateRange: TDateRangePreset;
  defaultWorklistFilters: TDefaultWorklistFilters;
  notifications: TNotificationChoices;
  /** What "Reset columns" returns to: the organisation's columns, else the product's. */
  inheritedWorklistColumns: TWorklistColumnSetting[];
}

export interface SettingsActions {
  setWorklistFilters: (patch: Partial<TWorklistFilters>) => void;
  resetWorklistFilters: () => void;
  setWorklistGroup: (group: TStatusGroup) => void;
  setReportFinderFilters: (patch: Partial<TReportFinderFilters>) => void;
  resetReportFinderFilters: () => void;
  setWorklistColumnVisible: (userId: string, id: TWorklistColumn, visible: boolean) => void;
  moveWorklistColumn: (userId: string, id: TWorklistColumn, toIndex: number) => void;
  /** Moves a column to where another one is (drag and drop onto `overId`). */
  moveWorklistColumnTo: (userId: string, id: TWorklistColumn, overId: TWorklistColumn) => void;
  resetWorklistColumns: (userId: string) => void;
  setQuickAction: (userId: string, action: TQuickAction) => void;
  setDefaultViewer: (userId: string, viewer: TViewer) => void;
  setTheme: (theme: TTheme) => void;
  toggleTheme: () => void;
  setPageSize: (key: TPageSizeKey, size: number) => void;
  setDefaultDateRange: (range: TDateRangePreset) => void;
  setDefaultWorklistFilters: (patch: Partial<TDefaultWorklistFilters>) => void;
  setNotificationChoices: (patch: Partial<TNotificationChoices>) => void;
  openTab: (tab: tabOps.TTab) => void;
  closeTab: (tabId: string) => void;
  setActiveTab: (tabId: string) => void;
  clearTabs: () => void;
  /** Back to the defaults (used by logout). */
  reset: () => void;
}

export type SettingsState = SettingsData & PreferenceOnlyData & SettingsActions;

export function defaultWorklistFilters(): TWorklistFilters {
  return {
    start_date: null,
    end_date: null,
    date_range_type: DEFAULT_DATE_RANGE_TYPE,
    facility_ids: [],
    sort_by: DEFAULT_WORKLIST_SORT_BY,
    sort_order: DEFAULT_SORT_ORDER,
    search: '',
    statuses: [],
    modalities: [],
    priority_tags: [],
    by_user_ids: [],
  };
}

/** The filters a session starts with: the default date range and filters, nothing searched. */
export function worklistFiltersFromDefaults(
  range: TDateRangePreset,
  defaults: TDefaultWorklistFilters,
): Pick<SettingsData, 'worklistFilters' | 'worklistGroup'> {
  return {
    worklistFilters: {
      ...defaultWorklistFilters(),
      date_range_type: range,
      facility_ids: [...defaults.facility_ids],
      statuses: [...defaults.statuses],
      modalities: [...defaults.modalities],
      priority_tags: [...defaults.priority_tags],
      sort_by: defaults.sort_by,
      sort_order: defaults.sort_order,
    },
    worklistGroup: defaults.status_group,
  };
}

export function defaultTableSettings(): TTableSettings {
  return {
    worklistColumns: defaultWorklistColumns(),
    quickAction: DEFAULT_QUICK_ACTION,
    defaultViewer: DEFAULT_VIEWER,
  };
}

const DEFAULT_TABLE_SETTINGS = defaultTableSettings();

/** A user's table settings, or the defaults (the same object each time, so selectors stay stable). */
export function tableSettingsOf(
  state: Pick<SettingsData, 'tableSettingsByUser'>,
  userId: string | undefined,
) {
  return (userId ? state.tableSettingsByUser[userId] : undefined) ?? DEFAULT_TABLE_SETTINGS;
}

export function defaultSettings(): SettingsData & PreferenceOnlyData {
  const preferences = defaultPreferences();
  return {
    worklistFilters: defaultWorklistFilters(),
    worklistGroup: 'ALL',
    reportFinderFilters: defaultReportFinderFilters(),
    tableSettingsByUser: {},
    theme: DEFAULT_THEME,
    pageSizes: { ...SESSION_PAGE_SIZES },
    filtersStartedFor: null,
    ...tabOps.EMPTY_TABS,
    defaultDateRange: preferences.default_date_range,
    defaultWorklistFilters: preferences.default_worklist_filters,
    notifications: preferences.notifications,
    inheritedWorklistColumns: preferences.worklist_columns,
  };
}

function isTheme(value: unknown): value is TTheme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

function isStatusGroup(value: unknown): value is TStatusGroup {
  return typeof value === 'string' && (STATUS_GROUPS as readonly string[]).includes(value);
}

/** One user's stored table settings over the defaults, with the column list repaired. */
function repairTableSettings(stored: unknown): TTableSettings {
  const data = typeof stored === 'object' && stored !== null ? (stored as Partial<TTableSettings>) : {};
  const merged = { ...defaultTableSettings(), ...data };
  return {
    quickAction: (QUICK_ACTIONS as readonly string[]).includes(merged.quickAction)
      ? merged.quickAction
      : DEFAULT_QUICK_ACTION,
    defaultViewer: (VIEWERS as readonly string[]).includes(merged.defaultViewer)
      ? merged.defaultViewer
      : DEFAULT_VIEWER,
    worklistColumns: normaliseWorklistColumns(
      Array.isArray(merged.worklistColumns) ? merged.worklistColumns : [],
    ),
  };
}

/** Merges what was stored over the defaults, repairing stale parts instead of trusting them. */
function mergeStored(stored: unknown, current: SettingsState): SettingsState {
  if (typeof stored !== 'object' || stored === null) return current;
  const data = stored as Partial<SettingsData>;
  const byUser: Record<string, TTableSettings> = {};
  if (typeof data.tableSettingsByUser === 'object' && data.tableSettingsByUser !== null) {
    for (const [userId, settings] of Object.entries(data.tableSettingsByUser)) {
      byUser[userId] = repairTableSettings(settings);
    }
  }
  return {
    ...current,
    ...data,
    worklistFilters: { ...current.worklistFilters, ...data.worklistFilters },
    worklistGroup: isStatusGroup(data.worklistGroup) ? data.worklistGroup : current.worklistGroup,
    reportFinderFilters: repairReportFinderFilters(data.reportFinderFilters),
    tableSettingsByUser: byUser,
    theme: isTheme(data.theme) ? data.theme : current.theme,
    pageSizes: { ...current.pageSizes, ...data.pageSizes },
    filtersStartedFor: typeof data.filtersStartedFor === 'string' ? data.filtersStartedFor : null,
  };
}

/** The session-stored settings store; tests pass their own storage. */
export function createSettingsStore(storage: StateStorage = sessionOrMemoryStorage()) {
  return createStore<SettingsState>()(
    persist(
      (set, get) => {
        const setTable = (
          userId: string,
          patch: (table: TTableSettings) => Partial<TTableSettings>,
        ): void => {
          set((state) => {
            const current = tableSettingsOf(state, userId);
            return {
              tableSettingsByUser: {
                ...state.tableSettingsByUser,
                [userId]: { ...current, ...patch(current) },
              },
            };
          });
        };
        return {
          ...defaultSettings(),
          setWorklistFilters: (patch) =>
            set((state) => ({ worklistFilters: { ...state.worklistFilters, ...patch } })),
          resetWorklistFilters: () =>
            set((state) => worklistFiltersFromDefaults(state.defaultDateRange, state.defaultWorklistFilters)),
          setWorklistGroup: (worklistGroup) => set({ worklistGroup }),
          setReportFinderFilters: (patch) =>
            set((state) => ({ reportFinderFilters: { ...state.reportFinderFilters, ...patch } })),
          resetReportFinderFilters: () => set({ reportFinderFilters: defaultReportFinderFilters() }),
          setWorklistColumnVisible: (userId, id, visible) =>
            setTable(userId, (table) => ({
              worklistColumns: setColumnVisible(table.worklistColumns, id, visible),
            })),
          moveWorklistColumn: (userId, id, toIndex) =>
            setTable(userId, (table) => ({
              worklistColumns: moveColumn(table.worklistColumns, id, toIndex),
            })),
          moveWorklistColumnTo: (userId, id, overId) =>
            setTable(userId, (table) => ({
              worklistColumns: moveColumnOnto(table.worklistColumns, id, overId),
            })),
          resetWorklistColumns: (userId) =>
            setTable(userId, () => ({
              worklistColumns: normaliseWorklistColumns(get().inheritedWorklistColumns),
            })),
          setQuickAction: (userId, quickAction) => setTable(userId, () => ({ quickAction })),
          setDefaultViewer: (userId, defaultViewer) => setTable(userId, () => ({ defaultViewer })),
          setTheme: (theme) => set({ theme }),
          toggleTheme: () => set((state) => ({ theme: state.theme === 'dark' ? 'light' : 'dark' })),
          setPageSize: (key, size) =>
            set((state) =>
              Number.isInteger(size) && size > 0 ? { pageSizes: { ...state.pageSizes, [key]: size } } : state,
            ),
          setDefaultDateRange: (defaultDateRange) => set({ defaultDateRange }),
          setDefaultWorklistFilters: (patch) =>
            set((state) => ({ defaultWorklistFilters: { ...state.defaultWorklistFilters, ...patch } })),
          setNotificationChoices: (patch) =>
            set((state) => ({ notifications: { ...state.notifications, ...patch } })),
          openTab: (tab) => set((state) => tabOps.openTab(state, tab)),
          closeTab: (tabId) => set((state) => tabOps.closeTab(state, tabId)),
          setActiveTab: (tabId) => set((state) => tabOps.setActiveTab(state, tabId)),
          clearTabs: () => set(tabOps.clearTabs()),
          reset: () => set(defaultSettings()),
        };
      },
      {
        name: STORAGE_KEYS.settings,
        version: 2,
        storage: createJSONStorage(() => storage),
        partialize: ({
          worklistFilters,
          worklistGroup,
          reportFinderFilters,
          tableSettingsByUser,
          theme,
          pageSizes,
          filtersStartedFor,
          tabs,
          activeTabId,
        }): SettingsData => ({
          worklistFilters,
          worklistGroup,
          reportFinderFilters,
          tableSettingsByUser,
          theme,
          pageSizes,
          filtersStartedFor,
          tabs,
          activeTabId,
        }),
        merge: mergeStored,
      },
    ),
  );
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;

/** The app's one settings store. */
export const settingsStore = createSettingsStore();

export function useSettings<T>(selector: (state: SettingsState) => T): T {
  return useStore(settingsStore, selector);
}
