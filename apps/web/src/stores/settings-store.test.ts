import { describe, expect, it } from 'vitest';
import { createSettingsStore } from './settings-store.ts';
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
    expect(state.tableSettings.quickAction).toBe('edit');
    expect(state.tableSettings.defaultViewer).toBe('ohif');
    expect(state.tableSettings.worklistColumns[0]?.id).toBe('patient_name');
    expect(state.tableSettings.worklistColumns.at(-1)?.id).toBe('actions');
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
        version: 1,
        state: { tableSettings: { worklistColumns: [{ id: 'actions', visible: true }, { id: 'gone' }] } },
      }),
    );
    const state = createSettingsStore(storage).getState();
    expect(state.tableSettings.worklistColumns[0]?.id).toBe('patient_name');
    expect(state.tableSettings.worklistColumns.at(-1)?.id).toBe('actions');
    expect(state.tableSettings.quickAction).toBe('edit');
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
    store.getState().setWorklistColumnVisible('facility', false);
    store.getState().reset();
    expect(store.getState().theme).toBe('dark');
    expect(store.getState().tableSettings.worklistColumns.every((column) => column.visible)).toBe(true);
  });
});
