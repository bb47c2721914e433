import {
  defaultPreferences,
  preferenceOverrides,
  resolvePreferences,
  samePreferenceValue,
  type TPreferences,
  type TPreferencesPatch,
  type TToastKind,
} from '@ris/domain';
import type { StateStorage } from 'zustand/middleware';
import type { AuthStore } from '../../stores/auth-store.ts';
import type { SettingsState, SettingsStore } from '../../stores/settings-store.ts';
import type { PreferencesApi } from './preferences-api.ts';
import { preferenceSlices, preferencesOf, settingsFromPreferences } from './preference-settings.ts';

/** A change is written this long after the last one (a drag of columns is one write, not ten). */
export const PREFERENCE_SAVE_DEBOUNCE_MS = 800;
/** How long sign-in waits for the preferences, and a write for its answer. */
export const PREFERENCE_REQUEST_TIMEOUT_MS = 5_000;
/** Where a write the page could not see answered waits for the next load of this tab. */
export const PENDING_PREFERENCES_KEY = 'ris-preferences-pending';

export const PREFERENCES_LOAD_FAILED =
  'Your saved settings could not be loaded; changes you make now apply in this tab only.';
export const PREFERENCES_SAVE_FAILED =
  'Your settings could not be saved to your profile; they apply in this tab only for now.';

export interface PreferenceSyncDeps {
  settings: SettingsStore;
  /** The sync forgets its user (without writing) as soon as the signed-in user changes or leaves. */
  auth: Pick<AuthStore, 'subscribe'>;
  api: Pick<PreferencesApi, 'fetch' | 'save' | 'saveOnExit'>;
  /** Holds the last write until it is known to have arrived (sessionStorage in the app). */
  storage: Pick<StateStorage, 'getItem' | 'setItem' | 'removeItem'>;
  notify?: (kind: TToastKind, message: string) => void;
  debounceMs?: number;
  timeoutMs?: number;
}

export interface PreferenceSync {
  /**
   * Reads the user's preferences and applies them to the settings store, then writes the user's
   * changes back. Awaited at sign-in (the loading screen waits); never throws.
   */
  load: (userId: string) => Promise<void>;
  /** Writes what is waiting now and waits for it (before sign-out revokes the token); never throws. */
  flush: () => Promise<void>;
  /** Sends what is waiting with a request that outlives the page (pagehide). */
  flushOnExit: () => void;
  /** Forgets the user without writing anything. */
  stop: () => void;
}

interface SyncSession {
  userId: string;
  /** The organisation's and the default's resolved together: what the user's document overrides. */
  inherited: TPreferences;
  /** The user's document as the server last acknowledged it. */
  saved: TPreferencesPatch;
  slices: readonly unknown[];
}

async function withTimeout<T>(ms: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ms);
  try {
    return await run(abort.signal);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Keeps the settings store and the user's preferences on the server in step (DESIGN.md
 * "Preferences"): read at sign-in, written back debounced, one write at a time, the last one
 * winning. What is written is the smallest USER document over the inherited preferences, so a
 * setting put back to the organisation's value follows the organisation again.
 */
export function createPreferenceSync(deps: PreferenceSyncDeps): PreferenceSync {
  const debounceMs = deps.debounceMs ?? PREFERENCE_SAVE_DEBOUNCE_MS;
  const timeoutMs = deps.timeoutMs ?? PREFERENCE_REQUEST_TIMEOUT_MS;
  let session: SyncSession | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<void> | null = null;
  let unsubscribe: (() => void) | null = null;
  let generation = 0;
  let warned = false;

  function cancelTimer(): void {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  function readStoredPending(userId: string): TPreferencesPatch | null {
    try {
      const raw = deps.storage.getItem(PENDING_PREFERENCES_KEY);
      if (typeof raw !== 'string') return null;
      const stored = JSON.parse(raw) as { userId?: unknown; document?: unknown };
      return stored.userId === userId && typeof stored.document === 'object' && stored.document !== null
        ? (stored.document as TPreferencesPatch)
        : null;
    } catch {
      return null;
    }
  }

  function storePending(userId: string, document: TPreferencesPatch | null): void {
    if (document) void deps.storage.setItem(PENDING_PREFERENCES_KEY, JSON.stringify({ userId, document }));
    else void deps.storage.removeItem(PENDING_PREFERENCES_KEY);
  }

  /** The user's document as the store shows it now, if it differs from what the server has. */
  function pending(current: SyncSession): TPreferencesPatch | null {
    const wanted = preferencesOf(deps.settings.getState(), current.userId);
    const document = preferenceOverrides(wanted, current.inherited);
    return samePreferenceValue(document, current.saved) ? null : document;
  }

  async function writeWaiting(): Promise<void> {
    for (;;) {
      const current = session;
      const document = current ? pending(current) : null;
      if (!current || !document) return;
      storePending(current.userId, document);
      try {
        await withTimeout(timeoutMs, (signal) => deps.api.save(current.userId, document, signal));
      } catch (error) {
        console.warn('preferences: the write failed', error);
        if (!warned) deps.notify?.('warning', PREFERENCES_SAVE_FAILED);
        warned = true;
        return;
      }
      if (session !== current) return;
      current.saved = document;
      warned = false;
      if (!pending(current)) storePending(current.userId, null);
    }
  }

  async function flush(): Promise<void> {
    cancelTimer();
    while (writing) await writing;
    writing = writeWaiting().finally(() => {
      writing = null;
    });
    await writing;
  }

  function onSettings(state: SettingsState): void {
    const current = session;
    if (!current) return;
    const slices = preferenceSlices(state, current.userId);
    if (slices.every((slice, index) => slice === current.slices[index])) return;
    current.slices = slices;
    cancelTimer();
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, debounceMs);
  }

  function stop(): void {
    generation += 1;
    cancelTimer();
    unsubscribe?.();
    unsubscribe = null;
    session = null;
  }

  async function load(userId: string): Promise<void> {
    stop();
    const mine = generation;
    let answer;
    try {
      answer = await withTimeout(timeoutMs, (signal) => deps.api.fetch(userId, signal));
    } catch (error) {
      if (mine !== generation) return;
      console.warn('preferences: could not be loaded', error);
      deps.notify?.('warning', PREFERENCES_LOAD_FAILED);
      return;
    }
    if (mine !== generation) return;
    // A write this tab sent as its last page closed may not have arrived: it is the latest choice.
    const unconfirmed = readStoredPending(userId);
    const layers = { default: defaultPreferences(), organisation: answer.organisation };
    const inherited = resolvePreferences(layers).preferences;
    const wanted = resolvePreferences({ ...layers, user: unconfirmed ?? answer.user }).preferences;
    deps.settings.setState((state) => settingsFromPreferences(state, userId, wanted, inherited));
    const current: SyncSession = {
      userId,
      inherited,
      saved: answer.user,
      slices: preferenceSlices(deps.settings.getState(), userId),
    };
    session = current;
    unsubscribe = deps.settings.subscribe(onSettings);
    if (unconfirmed) void flush();
  }

  function flushOnExit(): void {
    const current = session;
    const document = current ? pending(current) : null;
    if (!current || !document) return;
    cancelTimer();
    storePending(current.userId, document);
    deps.api.saveOnExit(current.userId, document);
  }

  deps.auth.subscribe((state) => {
    if (session && state.user?.id !== session.userId) stop();
  });

  return { load, flush, flushOnExit, stop };
}
