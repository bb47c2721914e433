import { describe, expect, it } from 'vitest';
import {
  EMPTY_TABS,
  clearTabs,
  closeTab,
  openTab,
  setActiveTab,
  type TTab,
  type TTabsState,
} from './tabs.ts';

const tab = (id: string): TTab => ({ id, title: `Study ${id}`, path: `/worklist/${id}` });

function withTabs(ids: string[], activeTabId: string | null): TTabsState {
  return { tabs: ids.map(tab), activeTabId };
}

describe('tabs', () => {
  it('opens a tab at the end and activates it', () => {
    const state = openTab(openTab(EMPTY_TABS, tab('a')), tab('b'));
    expect(state.tabs.map((t) => t.id)).toEqual(['a', 'b']);
    expect(state.activeTabId).toBe('b');
  });

  it('does not duplicate a tab that is already open, but activates and updates it', () => {
    const state = openTab(withTabs(['a', 'b'], 'b'), { ...tab('a'), title: 'Renamed' });
    expect(state.tabs.map((t) => t.id)).toEqual(['a', 'b']);
    expect(state.tabs[0]?.title).toBe('Renamed');
    expect(state.activeTabId).toBe('a');
  });

  it('closing the active tab activates the previous tab', () => {
    expect(closeTab(withTabs(['a', 'b', 'c'], 'c'), 'c')).toEqual(withTabs(['a', 'b'], 'b'));
    expect(closeTab(withTabs(['a', 'b', 'c'], 'b'), 'b')).toEqual(withTabs(['a', 'c'], 'a'));
  });

  it('closing the first active tab activates the new first tab', () => {
    expect(closeTab(withTabs(['a', 'b', 'c'], 'a'), 'a')).toEqual(withTabs(['b', 'c'], 'b'));
  });

  it('closing an inactive tab keeps the active tab', () => {
    expect(closeTab(withTabs(['a', 'b', 'c'], 'c'), 'a')).toEqual(withTabs(['b', 'c'], 'c'));
  });

  it('closing the last tab clears the active tab', () => {
    expect(closeTab(withTabs(['a'], 'a'), 'a')).toEqual({ tabs: [], activeTabId: null });
  });

  it('closing an unknown tab changes nothing', () => {
    const state = withTabs(['a'], 'a');
    expect(closeTab(state, 'zzz')).toBe(state);
  });

  it('sets the active tab only to an open tab', () => {
    expect(setActiveTab(withTabs(['a', 'b'], 'b'), 'a').activeTabId).toBe('a');
    expect(setActiveTab(withTabs(['a', 'b'], 'b'), 'x').activeTabId).toBe('b');
  });

  it('clears all tabs', () => {
    expect(clearTabs()).toEqual({ tabs: [], activeTabId: null });
  });
});
