import type { TRole } from '@ris/domain';
import { isAuthBusy, type AuthFlags, type TAuthUser } from '../../stores/auth-store.ts';

export type RouteAccess = { kind: 'loading' } | { kind: 'redirect'; to: '/' | '/login' } | { kind: 'allow' };

/**
 * The guard of the specification, in its order: loading while auth is busy; a route that lists roles
 * sends a user without a role, or with another role, to /; no user id goes to /login; else allow.
 */
export function decideRouteAccess(
  auth: AuthFlags & { user: Pick<TAuthUser, 'id' | 'role'> | null },
  allowedRoles?: readonly TRole[],
): RouteAccess {
  if (isAuthBusy(auth)) return { kind: 'loading' };
  if (allowedRoles) {
    const role = auth.user?.role;
    if (!role || !allowedRoles.includes(role)) return { kind: 'redirect', to: '/' };
  }
  if (!auth.user?.id) return { kind: 'redirect', to: '/login' };
  return { kind: 'allow' };
}
