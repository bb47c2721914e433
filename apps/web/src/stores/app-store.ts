import { createStore } from 'zustand';
import type { TToastKind } from '@ris/domain';
import { sonnerNotifier, type Notifier, type NotifyOptions } from './notify.ts';

export interface TShownToast {
  id: string | number;
  kind: TToastKind;
  message: string;
}

export interface AppState {
  /** The toast on screen: the app shows one toast at a time. */
  toast: TShownToast | null;
  showToast: (kind: TToastKind, message: string, options?: NotifyOptions) => string | number;
  dismissToast: () => void;
}

/**
 * App-wide UI state. A new toast replaces the one on screen, unless it reuses its id on purpose
 * (a loading toast turning into its result).
 */
export function createAppStore(notifier: Notifier = sonnerNotifier) {
  return createStore<AppState>()((set, get) => ({
    toast: null,
    showToast: (kind, message, options = {}) => {
      const current = get().toast;
      if (current && current.id !== options.id) notifier.dismiss(current.id);
      const id = notifier.show(kind, message, options);
      set({ toast: { id, kind, message } });
      return id;
    },
    dismissToast: () => {
      const current = get().toast;
      if (current) notifier.dismiss(current.id);
      set({ toast: null });
    },
  }));
}

export type AppStore = ReturnType<typeof createAppStore>;

export const appStore = createAppStore();

/** Shows a toast through the app store: `notify('error', errorMessage(error, 'Failed to fetch user'))`. */
export function notify(kind: TToastKind, message: string, options?: NotifyOptions): string | number {
  return appStore.getState().showToast(kind, message, options);
}
