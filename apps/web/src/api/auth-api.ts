import type {
  TAuthConfig,
  TPasswordPolicy,
  TSessionResponse,
  TSignInRequest,
  TSignUpRequest,
  TUser,
  TUserDetails,
} from '@ris/domain';
import type { HttpClient } from './http.ts';

export type { TSessionResponse, TSignInRequest, TSignUpRequest };

export interface TEmailRequest {
  email: string;
}

export interface TPasswordResetConfirmRequest {
  token: string;
  password: string;
}

export interface TNeutralResponse {
  message: string;
}

/** The schemas load with the first answer they check (./auth-schemas.ts says why). */
const schemas = () => import('./auth-schemas.ts');
const parseSession = async (data: unknown): Promise<TSessionResponse> =>
  (await schemas()).ZSessionResponse.parse(data);
const parseNeutral = async (data: unknown): Promise<TNeutralResponse> =>
  (await schemas()).ZNeutralResponse.parse(data);

/**
 * Identity calls (/auth/*) and the user calls of the verification sequence. The refresh token never
 * passes through JavaScript: the server keeps it in an httpOnly cookie scoped to /api/v1/auth.
 */
export function createAuthApi(http: HttpClient) {
  return {
    signIn: (body: TSignInRequest) => http.post('/auth/sign-in', body, { auth: 'none', parse: parseSession }),
    /**
     * Rotates the refresh cookie; 401 when the session is gone or revoked. The body is an empty object
     * (the token is in the cookie): the server's schema wants a JSON object, even an empty one.
     */
    refresh: () => http.post('/auth/refresh', {}, { auth: 'none', parse: parseSession }),
    signOut: (signal?: AbortSignal) => http.post('/auth/sign-out', {}, { auth: 'token', signal }),
    signOutAll: () => http.post('/auth/sign-out-all', {}, { auth: 'token' }),
    signUp: (body: TSignUpRequest) => http.post('/auth/sign-up', body, { auth: 'none' }),
    requestPasswordReset: (body: TEmailRequest) =>
      http.post('/auth/password-reset/request', body, { auth: 'none', parse: parseNeutral }),
    confirmPasswordReset: (body: TPasswordResetConfirmRequest) =>
      http.post('/auth/password-reset/confirm', body, { auth: 'none' }),
    requestEmailLink: (body: TEmailRequest) =>
      http.post('/auth/email-link/request', body, { auth: 'none', parse: parseNeutral }),
    signInWithEmailLink: (token: string) =>
      http.post('/auth/email-link/sign-in', { token }, { auth: 'none', parse: parseSession }),
    passwordPolicy: (): Promise<TPasswordPolicy> =>
      http.get('/auth/password-policy', {
        auth: 'none',
        parse: async (data) => (await schemas()).ZPasswordPolicy.parse(data),
      }),
    config: (): Promise<TAuthConfig> =>
      http.get('/auth/config', {
        auth: 'none',
        parse: async (data) => (await schemas()).ZAuthConfig.parse(data),
      }),
    fetchUserByEmail: (email: string): Promise<TUser> =>
      http.get(`/user/email/${encodeURIComponent(email)}`, {
        parse: async (data) => (await schemas()).ZUser.parse(data),
      }),
    fetchUserDetails: (id: string): Promise<TUserDetails> =>
      http.get(`/user/details/${encodeURIComponent(id)}`, {
        parse: async (data) => (await schemas()).ZUserDetails.parse(data),
      }),
  };
}

export type AuthApi = ReturnType<typeof createAuthApi>;
