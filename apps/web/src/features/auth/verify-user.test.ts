import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, type TUser, type TUserDetails } from '@ris/domain';
import { ApiError } from '../../api/api-error.ts';
import type { AuthFlag } from '../../stores/auth-store.ts';
import { buildDetails, buildUser, FACILITY } from './test-support.ts';
import { needsNoCentersWarning, verifyUser, type VerifyApi } from './verify-user.ts';

function run(user: TUser | ApiError, details?: TUserDetails | ApiError) {
  const flags: string[] = [];
  const calls: string[] = [];
  const api: VerifyApi = {
    fetchUserByEmail: (email) => {
      calls.push(`email:${email}`);
      return user instanceof ApiError ? Promise.reject(user) : Promise.resolve(user);
    },
    fetchUserDetails: (id) => {
      calls.push(`details:${id}`);
      if (details instanceof ApiError) return Promise.reject(details);
      return Promise.resolve(details ?? buildDetails(user as TUser));
    },
  };
  const setFlag = (flag: AuthFlag, value: boolean): void => void flags.push(`${flag}=${value}`);
  return { result: verifyUser('radiologist@demo.test', api, setFlag), flags, calls };
}

describe('verifyUser', () => {
  it('fetches the user by e-mail, then the details, raising the guard flags in turn', async () => {
    const user = buildUser();
    const { result, flags, calls } = run(user);
    expect(await result).toEqual({
      ok: true,
      verified: {
        user,
        roleDetails: {
          radiologist_details: buildDetails(user).radiologist_details,
          transcriptionist_details: null,
          facility_details: null,
        },
        facilities: [FACILITY],
        // What the server says the user may do at all travels into the store.
        capabilities: buildDetails(user).capabilities,
      },
      warning: null,
    });
    expect(calls).toEqual(['email:radiologist@demo.test', `details:${user.id}`]);
    expect(flags).toEqual([
      'fetchUserByEmailInflight=true',
      'fetchUserByEmailInflight=false',
      'verifyUserInflight=true',
      'verifyUserInflight=false',
    ]);
  });

  it('refuses a user without an organisation before loading any details', async () => {
    const { result, calls, flags } = run(buildUser({ organisation_fk: null }));
    expect(await result).toEqual({ ok: false, message: AUTH_MESSAGES.noOrganisation });
    expect(calls).toHaveLength(1);
    expect(flags.at(-1)).toBe('verifyUserInflight=false');
  });

  it('says "User not found" for a 404 and the fetch-user fallback for other failures', async () => {
    expect(await run(new ApiError({ status: 404, code: 'NOT_FOUND' })).result).toEqual({
      ok: false,
      message: 'User not found',
    });
    expect(await run(new ApiError({ status: 500 })).result).toEqual({
      ok: false,
      message: 'Failed to fetch user',
    });
    expect(
      await run(buildUser(), new ApiError({ status: 503, serverMessage: 'Database unavailable' })).result,
    ).toEqual({ ok: false, message: 'Database unavailable' });
  });

  it('warns a non-admin without facilities but lets them in; never warns an admin', async () => {
    const rad = buildUser({ facility_fks: [] });
    const noCenters = await run(rad, buildDetails(rad, [])).result;
    expect(noCenters).toMatchObject({ ok: true, warning: 'No centers found' });

    const admin = buildUser({ role: 'ADMIN', facility_fks: [] });
    expect(await run(admin, buildDetails(admin, [])).result).toMatchObject({ ok: true, warning: null });

    expect(needsNoCentersWarning('TRANSCRIPTIONIST', [])).toBe(true);
    expect(needsNoCentersWarning('FACILITY_ADMIN', [])).toBe(true);
    expect(needsNoCentersWarning(null, [])).toBe(true);
    expect(needsNoCentersWarning('RADIOLOGIST', [FACILITY])).toBe(false);
  });
});
