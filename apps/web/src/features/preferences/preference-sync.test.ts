import {
  NO_CAPABILITIES,
  defaultPreferences,
  resolvePreferences,
  type TPreferencesPatch,
  type TUser,
  type TUserPreferences,
} from '@ris/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuthStore } from '../../stores/auth-store.ts';
import { createMemoryStorage } from '../../stores/session-storage.ts';
import { createSettingsStore, tableSettingsOf } from '../../stores/settings-store.ts';
import {
  PENDING_PREFERENCES_KEY,
  PREFERENCE_SAVE_DEBOUNCE_MS,
  PREFERENCES_LOAD_FAILED,
  PREFERENCES_SAVE_FAILED,
  createPreferenceSync,
  type PreferenceSyncDeps,
} from './preference-sync.ts';

const ORG = '00000000-0000-4000-8000-000000000001';
const user: TUser = {
  id: '00000000-0000-4000-8000-0000000000a1',
  email: 'radiologist@demo.test',
  role: 'RADIOLOGIST',
  first_name: 'Asha',
  last_name: 'Rao',
  display_name: 'Dr Asha Rao',
  status: 'ACTIVE',
  organisation_fk: ORG,
  facility_fks: [],
  user_type: 'RADIOLOGIST',
  radiologist_description: null,
  staff_kind: null,
  has_signature: false,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
};

/** The server's side of GET/PUT /user/preference/{user}, in memory, resolving as the server does. */
function fakeServer(documents: { user?: TPreferencesPatch; organisation?: TPreferencesPatch } = {}) {
  const state = { user: documents.user ?? {}, organisation: documents.organisation ?? {} };
  const saves: TPreferencesPatch[] = [];
  const exits: TPreferencesPatch[] = [];
  let hold: Promise<void> | null = null;
  let failSaves = false;
  let failFetch = false;
  const api: PreferenceSyncDeps['api'] = {
    fetch: (userId) => {
      if (failFetch) return Promise.reject(new Error('offline'));
      const answer: TUserPreferences = {
        user_fk: userId,
        organisation_fk: ORG,
        ...resolvePreferences({ default: defaultPreferences(), ...state }),
        user: state.user,
        organisation: state.organisation,
        updated_at: null,
      };
      return Promise.resolve(structuredClone(answer));
    },
    save: async (_userId, document) => {
      saves.push(document);
      if (hold) await hold;
      if (failSaves) throw new Error('offline');
      state.user = document;
    },
    saveOnExit: (_userId, document) => void exits.push(document),
  };
  return {
    state,
    saves,
    exits,
    api,
    holdSaves(until: Promise<void> | null) {
      hold = until;
    },
    failSaves(fail: boolean) {
      failSaves = fail;
    },
    failFetch(fail: boolean) {
      failFetch = fail;
    },
  };
}

function setup(server = fakeServer(), storage = createMemoryStorage()) {
  const settings = createSettingsStore(createMemoryStorage());
  const auth = createAuthStore();
  const toasts: string[] = [];
  auth.getState().setVerifiedUser({
    user,
    roleDetails: { radiologist_details: null, transcriptionist_details: null, facility_details: null },
    facilities: [],
    capabilities: NO_CAPABILITIES,
  });
  const sync = createPreferenceSync({
    settings,
    auth,
    api: server.api,
    storage,
    notify: (kind, message) => void toasts.push(`${kind}:${message}`),
  });
  return { settings, auth, sync, server, storage, toasts };
}

/** Lets every settled promise's callbacks run (fake timers do not move them). */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('preference sync: load', () => {
  it('applies the user’s resolved preferences to the store, and starts a new tab’s filters from the defaults', async () => {
    const { settings, sync } = setup(
      fakeServer({
        organisation: { theme: 'light', default_date_range: 'LAST_1_WEEK', quick_action: 'view' },
        user: {
          quick_action: 'edit',
          page_sizes: { worklist: 25 },
          worklist_columns: [{ id: 'facility', visible: false }],
          default_worklist_filters: { modalities: ['CT'], status_group: 'COMPLETED' },
          notifications: { status_toasts: false },
        },
      }),
    );
    await sync.load(user.id);
    const state = settings.getState();
    const table = tableSettingsOf(state, user.id);
    expect(table.quickAction).toBe('edit');
    expect(table.worklistColumns.find((column) => column.id === 'facility')?.visible).toBe(false);
    expect(table.worklistColumns[0]?.id).toBe('patient_name');
    expect(state).toMatchObject({
      theme: 'light',
      pageSizes: { worklist: 25, reportFinder: 20 },
      defaultDateRange: 'LAST_1_WEEK',
      notifications: { status_toasts: false },
      worklistGroup: 'COMPLETED',
      filtersStartedFor: user.id,
    });
    expect(state.worklistFilters).toMatchObject({ date_range_type: 'LAST_1_WEEK', modalities: ['CT'] });
    // "Reset columns" goes back to what the organisation (here: the product) shows.
    settings.getState().resetWorklistColumns(user.id);
    expect(tableSettingsOf(settings.getState(), user.id).worklistColumns.every((c) => c.visible)).toBe(true);
  });

  it('keeps the filters of a reloaded tab’s session', async () => {
    const { settings, sync } = setup(fakeServer({ user: { default_date_range: 'YESTERDAY' } }));
    settings.setState({ filtersStartedFor: user.id });
    settings.getState().setWorklistFilters({ date_range_type: 'LAST_3_DAYS', search: 'doe' });
    await sync.load(user.id);
    expect(settings.getState().worklistFilters).toMatchObject({
      date_range_type: 'LAST_3_DAYS',
      search: 'doe',
    });
    expect(settings.getState().defaultDateRange).toBe('YESTERDAY');
  });

  it('says so when the preferences cannot be read, and then writes nothing', async () => {
    const server = fakeServer();
    server.failFetch(true);
    const { settings, sync, toasts } = setup(server);
    await sync.load(user.id);
    expect(toasts).toEqual([`warning:${PREFERENCES_LOAD_FAILED}`]);
    settings.getState().setTheme('light');
    await vi.advanceTimersByTimeAsync(PREFERENCE_SAVE_DEBOUNCE_MS * 2);
    expect(server.saves).toEqual([]);
  });
});

describe('preference sync: writing back', () => {
  it('writes a burst of changes once, after the debounce, as the smallest user document', async () => {
    const { settings, sync, server } = setup(fakeServer({ organisation: { theme: 'light' } }));
    await sync.load(user.id);
    const state = settings.getState();
    state.setWorklistColumnVisible(user.id, 'facility', false);
    state.moveWorklistColumnTo(user.id, 'status', 'patient_id');
    state.setPageSize('worklist', 50);
    state.setTheme('dark');
    state.setTheme('light');
    state.openTab({ id: 'w1', title: 'Jane', path: '/worklist/w1' });
    await vi.advanceTimersByTimeAsync(PREFERENCE_SAVE_DEBOUNCE_MS - 1);
    expect(server.saves).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.saves).toHaveLength(1);
    const [saved] = server.saves;
    // The theme went back to the organisation's: it is not the user's own.
    expect(saved).toEqual({
      worklist_columns: tableSettingsOf(settings.getState(), user.id).worklistColumns,
      page_sizes: { worklist: 50 },
    });
    expect(saved?.worklist_columns?.slice(0, 2).map((column) => column.id)).toEqual([
      'patient_name',
      'status',
    ]);
  });

  it('writes nothing for changes outside the preferences (filters, tabs)', async () => {
    const { settings, sync, server } = setup();
    await sync.load(user.id);
    settings.getState().setWorklistFilters({ search: 'doe' });
    settings.getState().openTab({ id: 'w1', title: 'Jane', path: '/worklist/w1' });
    await vi.advanceTimersByTimeAsync(PREFERENCE_SAVE_DEBOUNCE_MS * 2);
    expect(server.saves).toEqual([]);
  });

  it('sends one write at a time, and the last change wins', async () => {
    const { settings, sync, server } = setup();
    await sync.load(user.id);
    let release: () => void = () => undefined;
    server.holdSaves(new Promise<void>((resolve) => (release = resolve)));
    settings.getState().setDefaultViewer(user.id, 'weasis');
    await vi.advanceTimersByTimeAsync(PREFERENCE_SAVE_DEBOUNCE_MS);
    expect(server.saves).toEqual([{ default_viewer: 'weasis' }]);
    settings.getState().setDefaultViewer(user.id, 'horos');
    settings.getState().setNotificationChoices({ status_toasts: false });
    await vi.advanceTimersByTimeAsync(PREFERENCE_SAVE_DEBOUNCE_MS * 3);
    expect(server.saves).toHaveLength(1);
    server.holdSaves(null);
    release();
    await settle();
    expect(server.saves).toEqual([
      { default_viewer: 'weasis' },
      { default_viewer: 'horos', notifications: { status_toasts: false } },
    ]);
    expect(server.state.user).toEqual({ default_viewer: 'horos', notifications: { status_toasts: false } });
  });

  it('flushes at once (before sign-out) and then stops when the user is signed out', async () => {
    const { settings, auth, sync, server } = setup();
    await sync.load(user.id);
    settings.getState().setQuickAction(user.id, 'view');
    await sync.flush();
    expect(server.saves).toEqual([{ quick_action: 'view' }]);
    auth.getState().clear();
    settings.getState().reset();
    await vi.advanceTimersByTimeAsync(PREFERENCE_SAVE_DEBOUNCE_MS * 2);
    expect(server.saves).toHaveLength(1);
  });

  it('warns once when writes fail, and writes again with the next change', async () => {
    const { settings, sync, server, toasts } = setup();
    await sync.load(user.id);
    server.failSaves(true);
    settings.getState().setPageSize('reportFinder', 50);
    await vi.advanceTimersByTimeAsync(PREFERENCE_SAVE_DEBOUNCE_MS);
    settings.getState().setPageSize('reportFinder', 100);
    await vi.advanceTimersByTimeAsync(PREFERENCE_SAVE_DEBOUNCE_MS);
    expect(toasts).toEqual([`warning:${PREFERENCES_SAVE_FAILED}`]);
    server.failSaves(false);
    settings.getState().setTheme('light');
    await vi.advanceTimersByTimeAsync(PREFERENCE_SAVE_DEBOUNCE_MS);
    expect(server.state.user).toEqual({ theme: 'light', page_sizes: { reportFinder: 100 } });
  });
});

describe('preference sync: leaving the page', () => {
  it('sends the waiting change with the exit request, and a reload of the tab sends it again', async () => {
    const storage = createMemoryStorage();
    const server = fakeServer({ user: { theme: 'light' } });
    const first = setup(server, storage);
    await first.sync.load(user.id);
    first.settings.getState().setWorklistColumnVisible(user.id, 'modality', false);
    first.sync.flushOnExit();
    expect(server.exits).toHaveLength(1);
    expect(server.exits[0]).toMatchObject({ theme: 'light' });
    expect(server.saves).toEqual([]);
    expect(storage.getItem(PENDING_PREFERENCES_KEY)).toContain('modality');

    // The exit request never arrived; the reloaded tab's load still shows (and re-sends) the change.
    const second = setup(server, storage);
    await second.sync.load(user.id);
    const columns = tableSettingsOf(second.settings.getState(), user.id).worklistColumns;
    expect(columns.find((column) => column.id === 'modality')?.visible).toBe(false);
    await settle();
    expect(server.saves).toEqual([server.exits[0]]);
    expect(storage.getItem(PENDING_PREFERENCES_KEY)).toBeNull();
  });

  it('sends nothing when nothing changed', async () => {
    const { sync, server } = setup();
    await sync.load(user.id);
    sync.flushOnExit();
    expect(server.exits).toEqual([]);
  });
});
