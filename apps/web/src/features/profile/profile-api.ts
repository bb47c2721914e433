import type { TChangePasswordRequest } from '@ris/domain';
import { apiClient } from '../../api/client.ts';

export const CHANGE_PASSWORD_FAILED = 'Failed to change the password';

export const profileApi = {
  /** POST /auth/password: one's own password, proven by the current one; other sessions end. */
  changePassword: (body: TChangePasswordRequest): Promise<{ message: string }> =>
    apiClient.post('/auth/password', body),
};
