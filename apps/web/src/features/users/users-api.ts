import {
  PAGE_SIZES,
  ZAdminResetPasswordResponse,
  ZResendInvitationResponse,
  ZSaveUserResponse,
  ZUserList,
  type TAdminResetPasswordResponse,
  type TRecordStatus,
  type TResendInvitationResponse,
  type TRole,
  type TSaveUserResponse,
  type TUserList,
} from '@ris/domain';
import { apiClient } from '../../api/client.ts';

const enc = encodeURIComponent;

/** The filters of the users table (GET /user), page size 10 (spec §9). */
export interface TUserListParams {
  search?: string | undefined;
  role?: TRole | undefined;
  status?: TRecordStatus | undefined;
  facility_ids?: readonly string[];
  offset: number;
  limit?: number;
}

export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (params: TUserListParams) => [...userKeys.lists(), params] as const,
  signature: (path: string) => [...userKeys.all, 'signature', path] as const,
};

export const FETCH_USERS_FAILED = 'Failed to fetch user';
export const SAVE_USER_FAILED = 'Failed to create/update user';
export const RESET_PASSWORD_FAILED = 'Failed to reset password';
export const RESEND_INVITATION_FAILED = 'Failed to send the invitation';

export const usersApi = {
  /** GET /user: the users the caller administers, filtered and paged. */
  list: (params: TUserListParams, signal?: AbortSignal): Promise<TUserList> =>
    apiClient.get('/user', {
      query: {
        limit: params.limit ?? PAGE_SIZES.users,
        offset: params.offset,
        search: params.search || undefined,
        role: params.role,
        status: params.status,
        facility_ids: params.facility_ids ?? [],
      },
      signal,
      parse: (data) => ZUserList.parse(data),
    }),
  /**
   * POST /user (multipart): creates a user when the form has no `id`, else changes the fields given.
   * The signature is at most 1 MB, so fetch (no upload progress) is enough.
   */
  save: (form: FormData): Promise<TSaveUserResponse> =>
    apiClient.post('/user', form, { parse: (data) => ZSaveUserResponse.parse(data) }),
  /** POST /user/reset-password: mail the link, or (send_email false) get it to hand over. */
  resetPassword: (email: string, sendEmail: boolean): Promise<TAdminResetPasswordResponse> =>
    apiClient.post(
      '/user/reset-password',
      { email, send_email: sendEmail },
      { parse: (data) => ZAdminResetPasswordResponse.parse(data) },
    ),
  /** POST /user/{id}/invitation: the invitation e-mail again (the earlier link stops working). */
  resendInvitation: (id: string): Promise<TResendInvitationResponse> =>
    apiClient.post(
      `/user/${enc(id)}/invitation`,
      {},
      { parse: (data) => ZResendInvitationResponse.parse(data) },
    ),
};
