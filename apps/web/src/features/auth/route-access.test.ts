import { describe, expect, it } from 'vitest';
import type { AuthFlags } from '../../stores/auth-store.ts';
import { PATHS, ROUTE_ALLOWED_ROLES, allowedRolesFor } from '../../paths.ts';
import { canOpen, decideRouteAccess, isRoleAllowed } from './route-access.ts';

const idle: AuthFlags = {
  isAuthInitializing: false,
  loginUserInflight: false,
  fetchUserByEmailInflight: false,
  verifyUserInflight: false,
};
const admin = { id: 'u1', role: 'ADMIN' as const };

describe('decideRouteAccess', () => {
  it('waits while any auth flag is raised', () => {
    for (const flag of Object.keys(idle) as (keyof AuthFlags)[]) {
      expect(decideRouteAccess({ ...idle, [flag]: true, user: admin })).toEqual({ kind: 'loading' });
    }
  });

  it('sends a visitor without a user to /login', () => {
    expect(decideRouteAccess({ ...idle, user: null })).toEqual({ kind: 'redirect', to: '/login' });
  });

  it('allows a signed-in user on an unrestricted route', () => {
    expect(decideRouteAccess({ ...idle, user: admin })).toEqual({ kind: 'allow' });
  });

  it('sends a user without a role or with another role to / on a restricted route', () => {
    expect(decideRouteAccess({ ...idle, user: { id: 'u1', role: null } }, ['ADMIN'])).toEqual({
      kind: 'redirect',
      to: '/',
    });
    expect(decideRouteAccess({ ...idle, user: { id: 'u1', role: 'RADIOLOGIST' } }, ['ADMIN'])).toEqual({
      kind: 'redirect',
      to: '/',
    });
    expect(decideRouteAccess({ ...idle, user: admin }, ['ADMIN', 'FACILITY_ADMIN'])).toEqual({
      kind: 'allow',
    });
  });
});

describe('route roles', () => {
  it('restricts /organisation to admins and facility admins, templates and macros to report authors', () => {
    const authors = ['ADMIN', 'FACILITY_ADMIN', 'RADIOLOGIST', 'TRANSCRIPTIONIST'];
    expect(ROUTE_ALLOWED_ROLES).toEqual({
      '/organisation': ['ADMIN', 'FACILITY_ADMIN'],
      '/templates': authors,
      '/template/:id': authors,
      '/macros': authors,
      '/macro/:id': authors,
    });
    expect(allowedRolesFor(PATHS.organisation)).toEqual(['ADMIN', 'FACILITY_ADMIN']);
    expect(allowedRolesFor(PATHS.worklist)).toBeUndefined();
  });

  it('a radiologist sent to /organisation goes to /, an admin gets in', () => {
    const roles = allowedRolesFor(PATHS.organisation);
    expect(decideRouteAccess({ ...idle, user: { id: 'u2', role: 'RADIOLOGIST' } }, roles)).toEqual({
      kind: 'redirect',
      to: '/',
    });
    expect(decideRouteAccess({ ...idle, user: { id: 'u3', role: 'FACILITY_ADMIN' } }, roles)).toEqual({
      kind: 'allow',
    });
  });

  it('waits while busy even on a restricted route, before any role check', () => {
    expect(
      decideRouteAccess(
        { ...idle, verifyUserInflight: true, user: null },
        allowedRolesFor(PATHS.organisation),
      ),
    ).toEqual({ kind: 'loading' });
  });

  it('the navigation offers a screen exactly when the guard would let the role in', () => {
    expect(canOpen(PATHS.organisation, 'ADMIN')).toBe(true);
    expect(canOpen(PATHS.organisation, 'TRANSCRIPTIONIST')).toBe(false);
    expect(canOpen(PATHS.organisation, null)).toBe(false);
    expect(canOpen(PATHS.worklist, null)).toBe(true);
    expect(isRoleAllowed(undefined, ['ADMIN'])).toBe(false);
  });
});
