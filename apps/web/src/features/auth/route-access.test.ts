import { describe, expect, it } from 'vitest';
import type { AuthFlags } from '../../stores/auth-store.ts';
import { decideRouteAccess } from './route-access.ts';

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
