import { defaultPreferences } from '@ris/domain';
import { describe, expect, it } from 'vitest';
import { createSettingsStore, tableSettingsOf } from './settings-store.ts';
import { STORAGE_KEYS, createMemoryStorage } from './session-storage.ts';

function stored(storage: ReturnType<typeof createMemoryStorage>): Record<string, unknown> {
  const raw = storage.getItem(STORAGE_KEYS.settings);
  if (raw === null) throw new Error('nothing stored');
  return (JSON.parse(raw) as { state: Record<string, unknown> }).state;
}

describe('settings store', () => {
  it('starts with the specification defaults', () => {
    const state = createSettingsStore(createMemoryStorage()).getState();
    expect(state.theme).toBe('dark');
    expect(state.pageSizes).toEqual({ worklist: 10, reportFinder: 20 });
    const table = tableSettingsOf(state, 'any-user');
    expect(table.quickAction).toBe('edit');
    expect(table.defaultViewer).toBe('ohif');
    expect(table.worklistColumns[0]?.id).toBe('patient_name');
    expect(table.worklistColumns.at(-1)?.id).toBe('actions');
    expect(state.worklistGroup).toBe('ALL');
    expect(state.worklistFilters).toMatchObject({
      date_range_type: 'TODAY',
      sort_by: 'created_at',
      sort_order: 'desc',
    });
    expect(state.tabs).toEqual([]);
    expect(state.activeTabId).toBeNull();
  });

  it('persists changes to the given storage and reads them back', () => {
    const storage = createMemoryStorage();
    const store = createSettingsStore(storage);
    store.getState().toggleTheme();
    store.getState().setPageSize('worklist', 50);
    store.getState().openTab({ id: 'w1', title: 'Jane Doe', path: '/worklist/w1' });
    expect(stored(storage)).toMatchObject({ theme: 'light', activeTabId: 'w1' });

    const reloaded = createSettingsStore(storage).getState();
    expect(reloaded.theme).toBe('light');
    expect(reloaded.pageSizes.worklist).toBe(50);
    expect(reloaded.pageSizes.reportFinder).toBe(20);
    expect(reloaded.tabs.map((tab) => tab.id)).toEqual(['w1']);
  });

  it('repairs stale stored columns on load', () => {
    const storage = createMemoryStorage();
    storage.setItem(
      STORAGE_KEYS.settings,
      JSON.stringify({
        version: 2,
        state: {
          worklistGroup: 'NOPE',
          tableSettingsByUser: {
            u1: { worklistColumns: [{ id: 'actions', visible: true }, { id: 'gone' }], quickAction: 'zap' },
          },
        },
      }),
    );
    const state = createSettingsStore(storage).getState();
    const table = tableSettingsOf(state, 'u1');
    expect(table.worklistColumns[0]?.id).toBe('patient_name');
    expect(table.worklistColumns.at(-1)?.id).toBe('actions');
    expect(table.quickAction).toBe('edit');
    expect(state.worklistGroup).toBe('ALL');
  });

  it('reads filters stored before the priority filter as none, and starts a session with the default ones', () => {
    const storage = createMemoryStorage();
    storage.setItem(
      STORAGE_KEYS.settings,
      JSON.stringify({ version: 2, state: { worklistFilters: { modalities: ['CT'], search: 'doe' } } }),
    );
    const store = createSettingsStore(storage);
    expect(store.getState().worklistFilters).toMatchObject({ modalities: ['CT'], priority_tags: [] });
    store.getState().setDefaultWorklistFilters({ priority_tags: ['EMERGENCY', 'URGENT'] });
    store.getState().resetWorklistFilters();
    expect(store.getState().worklistFilters.priority_tags).toEqual(['EMERGENCY', 'URGENT']);
  });

  it('runs the tab operations and rejects invalid page sizes', () => {
    const store = createSettingsStore(createMemoryStorage());
    const { openTab, closeTab, setPageSize } = store.getState();
    openTab({ id: 'a', title: 'A', path: '/worklist/a' });
    openTab({ id: 'b', title: 'B', path: '/worklist/b' });
    closeTab('b');
    expect(store.getState().activeTabId).toBe('a');
    store.getState().clearTabs();
    expect(store.getState()).toMatchObject({ tabs: [], activeTabId: null });
    setPageSize('reportFinder', 0);
    expect(store.getState().pageSizes.reportFinder).toBe(20);
  });

  it('updates and resets filters', () => {
    const store = createSettingsStore(createMemoryStorage());
    store.getState().setWorklistFilters({ search: 'doe', statuses: ['FINAL'] });
    expect(store.getState().worklistFilters).toMatchObject({
      search: 'doe',
      statuses: ['FINAL'],
      sort_order: 'desc',
    });
    store.getState().resetWorklistFilters();
    expect(store.getState().worklistFilters.search).toBe('');
  });

  it('reset returns to the defaults', () => {
    const store = createSettingsStore(createMemoryStorage());
    store.getState().setTheme('light');
    store.getState().setWorklistColumnVisible('u1', 'facility', false);
    store.getState().reset();
    expect(store.getState().theme).toBe('dark');
    const columns = tableSettingsOf(store.getState(), 'u1').worklistColumns;
    expect(columns.every((column) => column.visible)).toBe(true);
  });

  it('keeps table settings per user and across a reload', () => {
    const storage = createMemoryStorage();
    const store = createSettingsStore(storage);
    const { setWorklistColumnVisible, moveWorklistColumnTo, setQuickAction, setDefaultViewer } =
      store.getState();
    setWorklistColumnVisible('u1', 'facility', false);
    moveWorklistColumnTo('u1', 'status', 'patient_id');
    setQuickAction('u1', 'view');
    setDefaultViewer('u2', 'weasis');

    const reloaded = createSettingsStore(storage).getState();
    const first = tableSettingsOf(reloaded, 'u1');
    expect(first.worklistColumns.find((column) => column.id === 'facility')?.visible).toBe(false);
    expect(first.worklistColumns.map((column) => column.id).slice(0, 3)).toEqual([
      'patient_name',
      'status',
      'patient_id',
    ]);
    expect(first.quickAction).toBe('view');
    expect(first.defaultViewer).toBe('ohif');
    const second = tableSettingsOf(reloaded, 'u2');
    expect(second.defaultViewer).toBe('weasis');
    expect(second.worklistColumns.every((column) => column.visible)).toBe(true);
    expect(tableSettingsOf(reloaded, undefined).quickAction).toBe('edit');
  });
});

describe('settings store: preferences', () => {
  it('keeps the preference-only settings out of sessionStorage, and the filters’ owner in it', () => {
    const storage = createMemoryStorage();
    const store = createSettingsStore(storage);
    store.getState().setDefaultDateRange('LAST_1_WEEK');
    store.getState().setDefaultWorklistFilters({ modalities: ['CT'] });
    store.getState().setNotificationChoices({ status_toasts: false });
    store.setState({ filtersStartedFor: 'u1' });
    const kept = stored(storage);
    expect(kept).not.toHaveProperty('defaultDateRange');
    expect(kept).not.toHaveProperty('defaultWorklistFilters');
    expect(kept).not.toHaveProperty('notifications');
    expect(kept).not.toHaveProperty('inheritedWorklistColumns');
    expect(Object.keys(kept).sort()).toEqual(
      [
        'activeTabId',
        'filtersStartedFor',
        'pageSizes',
        'reportFinderFilters',
        'tableSettingsByUser',
        'tabs',
        'theme',
        'worklistFilters',
        'worklistGroup',
      ].sort(),
    );
    const reloaded = createSettingsStore(storage).getState();
    expect(reloaded.filtersStartedFor).toBe('u1');
    expect(reloaded.defaultDateRange).toBe('TODAY');
    expect(reloaded.notifications.status_toasts).toBe(true);
  });

  it('resets the filters to the default date range and filters, and the columns to the inherited ones', () => {
    const store = createSettingsStore(createMemoryStorage());
    const state = store.getState();
    state.setDefaultDateRange('YESTERDAY');
    state.setDefaultWorklistFilters({ statuses: ['FINAL'], status_group: 'COMPLETED', sort_order: 'asc' });
    state.setWorklistFilters({ search: 'doe', date_range_type: 'CUSTOM', start_date: '2026-01-01' });
    store.getState().resetWorklistFilters();
    expect(store.getState().worklistGroup).toBe('COMPLETED');
    expect(store.getState().worklistFilters).toMatchObject({
      date_range_type: 'YESTERDAY',
      start_date: null,
      search: '',
      statuses: ['FINAL'],
      sort_order: 'asc',
    });

    store.setState({
      inheritedWorklistColumns: defaultPreferences().worklist_columns.map((column) =>
        column.id === 'modality' ? { ...column, visible: false } : column,
      ),
    });
    store.getState().setWorklistColumnVisible('u1', 'facility', false);
    store.getState().resetWorklistColumns('u1');
    const columns = tableSettingsOf(store.getState(), 'u1').worklistColumns;
    expect(columns.filter((column) => !column.visible).map((column) => column.id)).toEqual(['modality']);
  });

  it('keeps the report finder filters for the session, drops stored values it does not know, and resets them', () => {
    const storage = createMemoryStorage();
    const store = createSettingsStore(storage);
    store.getState().setReportFinderFilters({ q: '"pleural effusion"', report_statuses: ['COMPLETED'] });
    store.getState().setReportFinderFilters({ sort_by: 'date' });
    const reloaded = createSettingsStore(storage).getState().reportFinderFilters;
    expect(reloaded).toMatchObject({
      q: '"pleural effusion"',
      report_statuses: ['COMPLETED'],
      sort_by: 'date',
    });

    const raw = JSON.parse(storage.getItem('ris-settings') ?? '{}') as { state: Record<string, unknown> };
    raw.state.reportFinderFilters = { q: 7, report_statuses: ['COMPLETED', 'NOPE'], sort_by: 'nope' };
    storage.setItem('ris-settings', JSON.stringify(raw));
    const repaired = createSettingsStore(storage).getState().reportFinderFilters;
    expect(repaired).toMatchObject({ q: '', report_statuses: ['COMPLETED'], sort_by: 'relevance' });
    expect(repaired.date_range_type).toBe('CUSTOM');

    store.getState().resetReportFinderFilters();
    expect(store.getState().reportFinderFilters).toMatchObject({
      q: '',
      report_statuses: [],
      sort_by: 'relevance',
    });
  });
});
