import { Outlet } from 'react-router';
import { OpenTabsBar } from '../tabs/open-tabs-bar.tsx';
import { AppHeader } from './app-header.tsx';
import { SidebarNav } from './sidebar-nav.tsx';
import { useRealtimeSession } from './use-realtime-session.ts';

/**
 * The frame of every authenticated screen: header on top, navigation on the left, screen in the
 * middle.
 */
export function AppLayout() {
  useRealtimeSession();
  return (
    <div className="flex h-full flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-accent focus:px-3 focus:py-1.5 focus:text-accent-fg"
      >
        Skip to content
      </a>
      <AppHeader />
      <div className="flex min-h-0 flex-1">
        <aside className="hidden w-48 shrink-0 border-r border-line bg-surface md:block 2xl:w-56">
          <SidebarNav />
        </aside>
        <div className="flex min-w-0 flex-1 flex-col">
          <OpenTabsBar />
          <main id="main" className="relative min-h-0 min-w-0 flex-1 overflow-y-auto">
            <Outlet />
          </main>
        </div>
      </div>
    </div>
  );
}
