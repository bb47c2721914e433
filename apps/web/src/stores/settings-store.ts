import { createStore, useStore } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';
import {
  DEFAULT_DATE_RANGE_TYPE,
  DEFAULT_QUICK_ACTION,
  DEFAULT_SORT_ORDER,
  DEFAULT_THEME,
  DEFAULT_VIEWER,
  DEFAULT_WORKLIST_SORT_BY,
  SESSION_PAGE_SIZES,
  THEMES,
  type TDateRangeType,
  type TModality,
  type TQuickAction,
  type TSortOrder,
  type TStudyStatus,
  type TTheme,
  type TViewer,
  type TWorklistColumn,
} from '@ris/domain';
import { STORAGE_KEYS, sessionOrMemoryStorage } from './session-storage.ts';
import * as tabOps from './tabs.ts';
import {
  defaultWorklistColumns,
  moveColumn,
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
  by_user_ids: string[];
}

export interface TTableSettings {
  worklistColumns: TWorklistColumnSetting[];
  quickAction: TQuickAction;
  defaultViewer: TViewer;
}

export type TPageSizeKey = keyof typeof SESSION_PAGE_SIZES;
export type TPageSizes = Record<TPageSizeKey, number>;

/** What is kept in sessionStorage: survives a reload, forgotten when the tab closes or on logout. */
export interface SettingsData extends tabOps.TTabsState {
  worklistFilters: TWorklistFilters;
  tableSettings: TTableSettings;
  theme: TTheme;
  pageSizes: TPageSizes;
}

export interface SettingsActions {
  setWorklistFilters: (patch: Partial<TWorklistFilters>) => void;
  resetWorklistFilters: () => void;
  setWorklistColumnVisible: (id: TWorklistColumn, visible: boolean) => void;
  moveWorklistColumn: (id: TWorklistColumn, toIndex: number) => void;
  resetWorklistColumns: () => void;
  setQuickAction: (action: TQuickAction) => void;
  setDefaultViewer: (viewer: TViewer) => void;
  setTheme: (theme: TTheme) => void;
  toggleTheme: () => void;
  setPageSize: (key: TPageSizeKey, size: number) => void;
  openTab: (tab: tabOps.TTab) => void;
  closeTab: (tabId: string) => void;
  setActiveTab: (tabId: string) => void;
  clearTabs: () => void;
  /** Back to the defaults (used by logout). */
  reset: () => void;
}

export type SettingsState = SettingsData & SettingsActions;

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
    by_user_ids: [],
  };
}

export function defaultSettings(): SettingsData {
  return {
    worklistFilters: defaultWorklistFilters(),
    tableSettings: {
      worklistColumns: defaultWorklistColumns(),
      quickAction: DEFAULT_QUICK_ACTION,
      defaultViewer: DEFAULT_VIEWER,
    },
    theme: DEFAULT_THEME,
    pageSizes: { ...SESSION_PAGE_SIZES },
    ...tabOps.EMPTY_TABS,
  };
}

function isTheme(value: unknown): value is TTheme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

/** Merges what was stored over the defaults, repairing stale parts instead of trusting them. */
function mergeStored(stored: unknown, current: SettingsState): SettingsState {
  if (typeof stored !== 'object' || stored === null) return current;
  const data = stored as Partial<SettingsData>;
  const tableSettings = { ...current.tableSettings, ...data.tableSettings };
  return {
    ...current,
    ...data,
    worklistFilters: { ...current.worklistFilters, ...data.worklistFilters },
    tableSettings: {
      ...tableSettings,
      worklistColumns: normaliseWorklistColumns(
        Array.isArray(tableSettings.worklistColumns) ? tableSettings.worklistColumns : [],
      ),
    },
    theme: isTheme(data.theme) ? data.theme : current.theme,
    pageSizes: { ...current.pageSizes, ...data.pageSizes },
  };
}

/** The session-stored settings store; tests pass their own storage. */
export function createSettingsStore(storage: StateStorage = sessionOrMemoryStorage()) {
  return createStore<SettingsState>()(
    persist(
      (set) => {
        const setTable = (patch: (table: TTableSettings) => Partial<TTableSettings>): void => {
          set((state) => ({ tableSettings: { ...state.tableSettings, ...patch(state.tableSettings) } }));
        };
        return {
          ...defaultSettings(),
          setWorklistFilters: (patch) =>
            set((state) => ({ worklistFilters: { ...state.worklistFilters, ...patch } })),
          resetWorklistFilters: () => set({ worklistFilters: defaultWorklistFilters() }),
          setWorklistColumnVisible: (id, visible) =>
            setTable((table) => ({ worklistColumns: setColumnVisible(table.worklistColumns, id, visible) })),
          moveWorklistColumn: (id, toIndex) =>
            setTable((table) => ({ worklistColumns: moveColumn(table.worklistColumns, id, toIndex) })),
          resetWorklistColumns: () => setTable(() => ({ worklistColumns: defaultWorklistColumns() })),
          setQuickAction: (quickAction) => setTable(() => ({ quickAction })),
          setDefaultViewer: (defaultViewer) => setTable(() => ({ defaultViewer })),
          setTheme: (theme) => set({ theme }),
          toggleTheme: () => set((state) => ({ theme: state.theme === 'dark' ? 'light' : 'dark' })),
          setPageSize: (key, size) =>
            set((state) =>
              Number.isInteger(size) && size > 0 ? { pageSizes: { ...state.pageSizes, [key]: size } } : state,
            ),
          openTab: (tab) => set((state) => tabOps.openTab(state, tab)),
          closeTab: (tabId) => set((state) => tabOps.closeTab(state, tabId)),
          setActiveTab: (tabId) => set((state) => tabOps.setActiveTab(state, tabId)),
          clearTabs: () => set(tabOps.clearTabs()),
          reset: () => set(defaultSettings()),
        };
      },
      {
        name: STORAGE_KEYS.settings,
        version: 1,
        storage: createJSONStorage(() => storage),
        partialize: ({
          worklistFilters,
          tableSettings,
          theme,
          pageSizes,
          tabs,
          activeTabId,
        }): SettingsData => ({
          worklistFilters,
          tableSettings,
          theme,
          pageSizes,
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
