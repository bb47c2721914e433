import {
  AUTH_MESSAGES,
  FALLBACK_ERROR_MESSAGES,
  NO_CAPABILITIES,
  isAdminRole,
  type TFacility,
  type TRole,
} from '@ris/domain';
import { errorMessage, isApiError } from '../../api/api-error.ts';
import type { AuthApi } from '../../api/auth-api.ts';
import type { AuthFlag, VerifiedUser } from '../../stores/auth-store.ts';

export type VerifyApi = Pick<AuthApi, 'fetchUserByEmail' | 'fetchUserDetails'>;

export type VerificationResult =
  { ok: true; verified: VerifiedUser; warning: string | null } | { ok: false; message: string };

/** Spec §5: a non-admin who may work in no facility is warned (and still let in). */
export function needsNoCentersWarning(role: TRole | null, facilities: readonly TFacility[]): boolean {
  return !isAdminRole(role) && facilities.length === 0;
}

function fetchFailure(error: unknown): VerificationResult {
  const missing = isApiError(error) && error.status === 404;
  return {
    ok: false,
    message: missing ? AUTH_MESSAGES.userNotFound : errorMessage(error, FALLBACK_ERROR_MESSAGES.fetchUser),
  };
}

/**
 * The verification of spec §2/§5 after sign-in or a restored session: fetch the user by e-mail
 * (a 404 is 'User not found'), refuse one without an organisation, load the role details and
 * facilities, warn a non-admin without facilities. Raises the guard's flags while it runs.
 */
export async function verifyUser(
  email: string,
  api: VerifyApi,
  setFlag: (flag: AuthFlag, value: boolean) => void,
): Promise<VerificationResult> {
  setFlag('fetchUserByEmailInflight', true);
  let user;
  try {
    user = await api.fetchUserByEmail(email);
  } catch (error) {
    return fetchFailure(error);
  } finally {
    setFlag('fetchUserByEmailInflight', false);
  }

  setFlag('verifyUserInflight', true);
  try {
    if (!user.organisation_fk) return { ok: false, message: AUTH_MESSAGES.noOrganisation };
    let details;
    try {
      details = await api.fetchUserDetails(user.id);
    } catch (error) {
      return fetchFailure(error);
    }
    const { radiologist_details, transcriptionist_details, facility_details, facilities } = details;
    return {
      ok: true,
      verified: {
        user,
        roleDetails: { radiologist_details, transcriptionist_details, facility_details },
        facilities,
        capabilities: details.capabilities ?? NO_CAPABILITIES,
      },
      warning: needsNoCentersWarning(user.role, facilities) ? AUTH_MESSAGES.noCentersFound : null,
    };
  } finally {
    setFlag('verifyUserInflight', false);
  }
}
