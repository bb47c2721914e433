import { describe, expect, it } from 'vitest';
import {
  DEFAULT_THEME,
  DRAFT_TOAST_DURATION_MS,
  MAX_VISIBLE_TOASTS,
  NOTIFICATIONS_HOTKEY,
  PAGE_SIZES,
  SESSION_PAGE_SIZES,
  SUCCESS_TOAST_DURATION_MS,
  TOAST_KINDS,
  ZTheme,
  ZToastKind,
} from './index.ts';
import {
  LOCAL_VIEWER_PORT,
  REACHABILITY_CHECK_PORT,
  REACHABILITY_CHECK_TIMEOUT_MS,
} from './studies/viewers.ts';

describe('UI constants', () => {
  it('has the page sizes of the specification', () => {
    expect(PAGE_SIZES).toEqual({
      worklistInitial: 25,
      fetchDefaultLimit: 10,
      orders: 10,
      users: 10,
      templates: 10,
      macros: 10,
      patients: 10,
    });
    expect(SESSION_PAGE_SIZES).toEqual({ worklist: 10, reportFinder: 20 });
  });

  it('has the toast settings', () => {
    expect(TOAST_KINDS).toEqual(['success', 'info', 'warning', 'error', 'loading']);
    expect(ZToastKind.safeParse('danger').success).toBe(false);
    expect(DRAFT_TOAST_DURATION_MS).toBe(10_000);
    expect(SUCCESS_TOAST_DURATION_MS).toBe(3_000);
    expect(MAX_VISIBLE_TOASTS).toBe(1);
    expect(NOTIFICATIONS_HOTKEY).toBe('alt+T');
  });

  it('defaults to the dark theme', () => {
    expect(DEFAULT_THEME).toBe('dark');
    expect(ZTheme.parse(DEFAULT_THEME)).toBe('dark');
  });

  it('has the viewer ports and reachability timeout', () => {
    expect(LOCAL_VIEWER_PORT).toBe(8843);
    expect(REACHABILITY_CHECK_PORT).toBe(8443);
    expect(REACHABILITY_CHECK_TIMEOUT_MS).toBe(1000);
  });
});
