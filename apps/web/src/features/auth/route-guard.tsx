import { useShallow } from 'zustand/react/shallow';
import { Navigate, Outlet, useLocation } from 'react-router';
import type { TRole } from '@ris/domain';
import { LoadingOverlay } from '../../components/ui/loading-overlay.tsx';
import { useAuth } from '../../stores/auth-store.ts';
import { decideRouteAccess } from './route-access.ts';

/** Where the login page sends the user back to after signing in. */
export interface LoginRedirectState {
  from?: string;
}

/** Guards the nested routes (spec §2): loading screen, role check, sign-in redirect, else the screen. */
export function RouteGuard({ allowedRoles }: { allowedRoles?: readonly TRole[] }) {
  const location = useLocation();
  const auth = useAuth(
    useShallow((state) => ({
      isAuthInitializing: state.isAuthInitializing,
      loginUserInflight: state.loginUserInflight,
      fetchUserByEmailInflight: state.fetchUserByEmailInflight,
      verifyUserInflight: state.verifyUserInflight,
      user: state.user,
    })),
  );
  const access = decideRouteAccess(auth, allowedRoles);

  if (access.kind === 'loading') return <LoadingOverlay fullScreen size="large" loadingText="Loading RIS…" />;
  if (access.kind === 'redirect') {
    const state: LoginRedirectState | undefined =
      access.to === '/login' ? { from: `${location.pathname}${location.search}${location.hash}` } : undefined;
    return <Navigate to={access.to} replace state={state} />;
  }
  return <Outlet />;
}
