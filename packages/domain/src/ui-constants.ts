/** Page sizes of the lists (specification §9). */
export const PAGE_SIZES = {
  worklistInitial: 25,
  fetchDefaultLimit: 10,
  orders: 10,
  users: 10,
  templates: 10,
  macros: 10,
  patients: 10,
} as const;

/** Page sizes kept in session storage, by table. */
export const SESSION_PAGE_SIZES = {
  worklist: 10,
  reportFinder: 20,
} as const;

export const TOAST_KINDS = ['success', 'info', 'warning', 'error', 'loading'] as const;
export type TToastKind = (typeof TOAST_KINDS)[number];

/** A transcriptionist's "report marked as draft" toast stays 10 s. */
export const DRAFT_TOAST_DURATION_MS = 10_000;
export const SUCCESS_TOAST_DURATION_MS = 3_000;
/** The app store shows one toast at a time: a new one replaces the current one. */
export const MAX_VISIBLE_TOASTS = 1;
/** Keyboard shortcut that focuses the notifications (toast) region. */
export const NOTIFICATIONS_HOTKEY = 'alt+T';

export const THEMES = ['dark', 'light'] as const;
export type TTheme = (typeof THEMES)[number];
export const DEFAULT_THEME: TTheme = 'dark';

/** Sizes of the loading overlay's indicator. */
export const LOADER_SIZES = ['small', 'medium', 'large'] as const;
export type TLoaderSize = (typeof LOADER_SIZES)[number];
