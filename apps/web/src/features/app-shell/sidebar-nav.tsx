import { NavLink } from 'react-router';
import { canOpen } from '../auth/route-access.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { cn } from '../../components/ui/cn.ts';
import { NAV_ITEMS } from './nav-items.ts';

/**
 * The left navigation, without the screens the user's role may not open; NavLink marks the current
 * item with aria-current="page".
 */
export function SidebarNav() {
  const role = useAuth((state) => state.user?.role);
  return (
    <nav aria-label="Main" className="flex flex-col gap-0.5 p-2">
      {NAV_ITEMS.filter((item) => canOpen(item.to, role)).map(({ label, to, icon: Icon, end }) => (
        <NavLink
          key={to}
          to={to}
          end={end}
          className={({ isActive }) =>
            cn(
              'group flex h-8 items-center gap-2.5 rounded-md px-2.5 text-[13px] font-medium transition-colors',
              isActive ? 'bg-accent-soft text-fg' : 'text-fg-muted hover:bg-surface-hover hover:text-fg',
            )
          }
        >
          {({ isActive }) => (
            <>
              <Icon
                aria-hidden="true"
                className={cn(
                  'size-4 shrink-0',
                  isActive ? 'text-accent' : 'text-fg-subtle group-hover:text-fg-muted',
                )}
              />
              {label}
            </>
          )}
        </NavLink>
      ))}
    </nav>
  );
}
