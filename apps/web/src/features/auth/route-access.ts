import type { TRole } from '@ris/domain';
import { allowedRolesFor } from '../../paths.ts';
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
  if (allowedRoles && !isRoleAllowed(auth.user?.role, allowedRoles)) return { kind: 'redirect', to: '/' };
  if (!auth.user?.id) return { kind: 'redirect', to: '/login' };
  return { kind: 'allow' };
}

/** Whether a user of `role` may open a route restricted to `allowedRoles` (no role: never). */
export function isRoleAllowed(role: TRole | null | undefined, allowedRoles: readonly TRole[]): boolean {
  return Boolean(role) && allowedRoles.includes(role as TRole);
}

/** Whether the navigation should offer `path` to a user of `role` (same rule as the guard). */
export function canOpen(path: string, role: TRole | null | undefined): boolean {
  const allowedRoles = allowedRolesFor(path);
  return !allowedRoles || isRoleAllowed(role, allowedRoles);
}
