/** One open tab of the UI (e.g. a worklist item being reported). */
export interface TTab {
  id: string;
  title: string;
  path: string;
}

export interface TTabsState {
  tabs: TTab[];
  activeTabId: string | null;
}

export const EMPTY_TABS: TTabsState = { tabs: [], activeTabId: null };

/** Opens a tab and makes it active; a tab already open is updated in place instead of duplicated. */
export function openTab(state: TTabsState, tab: TTab): TTabsState {
  const index = state.tabs.findIndex((open) => open.id === tab.id);
  const tabs = index === -1 ? [...state.tabs, tab] : state.tabs.map((open, i) => (i === index ? tab : open));
  return { tabs, activeTabId: tab.id };
}

/**
 * Closes a tab. When it was the active one, the tab before it becomes active, or the first tab when
 * it was the first; when no tab remains the active tab is cleared.
 */
export function closeTab(state: TTabsState, tabId: string): TTabsState {
  const index = state.tabs.findIndex((open) => open.id === tabId);
  if (index === -1) return state;
  const tabs = state.tabs.filter((open) => open.id !== tabId);
  if (tabs.length === 0) return { tabs, activeTabId: null };
  if (state.activeTabId !== tabId) return { tabs, activeTabId: state.activeTabId };
  const next = tabs[index - 1] ?? tabs[0];
  return { tabs, activeTabId: next?.id ?? null };
}

/** Activates an open tab; an id that is not open leaves the state unchanged. */
export function setActiveTab(state: TTabsState, tabId: string): TTabsState {
  if (!state.tabs.some((open) => open.id === tabId)) return state;
  return { tabs: state.tabs, activeTabId: tabId };
}

export function clearTabs(): TTabsState {
  return { tabs: [], activeTabId: null };
}
