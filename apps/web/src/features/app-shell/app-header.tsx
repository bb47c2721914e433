import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { label } from '@ris/domain';
import { Brand } from '../../components/layout/brand.tsx';
import { ThemeToggle } from '../../components/layout/theme-toggle.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useAuth, type TAuthUser } from '../../stores/auth-store.ts';
import { authSession } from '../auth/session.ts';
import { NotificationBell } from '../notifications/notification-bell.tsx';
import { PATHS } from '../../paths.ts';

/** Two letters for the avatar: from first and last name when known, else from the shown name. */
function initials(user: TAuthUser, name: string): string {
  const source = user.first_name && user.last_name ? `${user.first_name} ${user.last_name}` : name;
  const letters = source
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase());
  return letters.join('') || '?';
}

/** Top bar: product name, the signed-in user, notifications, theme toggle and sign-out. */
export function AppHeader() {
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  const user = useAuth((state) => state.user);
  const name =
    user?.display_name || [user?.first_name, user?.last_name].filter(Boolean).join(' ') || user?.email || '';

  async function signOut(): Promise<void> {
    setSigningOut(true);
    await authSession.logout();
    void navigate(PATHS.login, { replace: true });
  }

  return (
    <header className="flex h-12 shrink-0 items-center justify-between border-b border-line bg-surface px-4">
      <Brand />
      <div className="flex items-center gap-1.5">
        {user ? (
          <div className="mr-2 hidden items-center gap-2.5 sm:flex">
            <div className="text-right leading-tight">
              <p className="text-[13px] font-medium text-fg">{name}</p>
              {user.role ? <p className="text-[11px] text-fg-subtle">{label(user.role)}</p> : null}
            </div>
            <span
              aria-hidden="true"
              className="flex size-7 items-center justify-center rounded-full border border-line-strong bg-surface-raised text-[11px] font-semibold text-fg-muted"
            >
              {initials(user, name)}
            </span>
          </div>
        ) : null}
        {user ? <NotificationBell userId={user.id} /> : null}
        <ThemeToggle />
        <Button variant="ghost" size="md" onClick={() => void signOut()} disabled={signingOut}>
          {signingOut ? <Spinner /> : <LogOut aria-hidden="true" className="size-4" />}
          Sign out
        </Button>
      </div>
    </header>
  );
}
