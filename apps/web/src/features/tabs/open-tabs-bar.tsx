import { X, XCircle } from 'lucide-react';
import { useCallback } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { TWorklistItem } from '@ris/domain';
import { cn } from '../../components/ui/cn.ts';
import { settingsStore, useSettings } from '../../stores/settings-store.ts';
import { PATHS, worklistItemPath } from '../../paths.ts';

/** Opens a worklist item in a tab (or activates its tab) and shows it. */
export function useOpenItem(): (item: Pick<TWorklistItem, 'id' | 'patient_name'>) => void {
  const navigate = useNavigate();
  return useCallback(
    (item) => {
      const path = worklistItemPath(item.id);
      settingsStore.getState().openTab({ id: item.id, title: item.patient_name, path });
      void navigate(path);
    },
    [navigate],
  );
}

/**
 * The open tabs (spec §2), kept in sessionStorage. Closing the tab on screen shows the tab that
 * becomes active — the previous one, or the first — or the worklist when none remain.
 */
export function OpenTabsBar() {
  const tabs = useSettings((state) => state.tabs);
  const activeTabId = useSettings((state) => state.activeTabId);
  const navigate = useNavigate();
  const location = useLocation();
  if (tabs.length === 0) return null;

  const close = (tabId: string): void => {
    const showing = tabs.find((tab) => tab.id === tabId)?.path === location.pathname;
    settingsStore.getState().closeTab(tabId);
    if (!showing) return;
    const { tabs: rest, activeTabId: next } = settingsStore.getState();
    void navigate(rest.find((tab) => tab.id === next)?.path ?? PATHS.worklist);
  };
  const clearAll = (): void => {
    const showingTab = tabs.some((tab) => tab.path === location.pathname);
    settingsStore.getState().clearTabs();
    if (showingTab) void navigate(PATHS.worklist);
  };

  return (
    <nav
      aria-label="Open studies"
      className="flex h-9 shrink-0 items-stretch gap-px border-b border-line bg-canvas px-2"
    >
      <ul className="flex min-w-0 flex-1 items-stretch gap-px overflow-x-auto">
        {tabs.map((tab) => {
          const active = tab.id === activeTabId;
          return (
            <li
              key={tab.id}
              data-tab-id={tab.id}
              data-active={active || undefined}
              className={cn(
                'group flex max-w-56 min-w-0 items-center border-x border-t border-transparent text-[12px]',
                active
                  ? 'border-line bg-surface text-fg'
                  : 'text-fg-muted hover:bg-surface-hover/60 hover:text-fg',
              )}
            >
              <Link
                to={tab.path}
                aria-current={active ? 'page' : undefined}
                onClick={() => settingsStore.getState().setActiveTab(tab.id)}
                className={cn('truncate py-1.5 pr-1 pl-3', active && 'font-medium')}
              >
                {tab.title}
              </Link>
              <button
                type="button"
                aria-label={`Close ${tab.title}`}
                onClick={() => close(tab.id)}
                className="mr-1 flex size-5 shrink-0 items-center justify-center rounded text-fg-subtle hover:bg-surface-hover hover:text-fg"
              >
                <X aria-hidden="true" className="size-3" />
              </button>
            </li>
          );
        })}
      </ul>
      <button
        type="button"
        onClick={clearAll}
        className="my-1 flex items-center gap-1 rounded px-2 text-[12px] text-fg-muted hover:bg-surface-hover hover:text-fg"
      >
        <XCircle aria-hidden="true" className="size-3.5" />
        Close all
      </button>
    </nav>
  );
}
