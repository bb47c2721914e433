import { ROLES, type TRole } from '@ris/domain';
import type { TAuthUser } from '../stores/auth-store.ts';
import type { HttpClient } from './http.ts';

export interface TSignInRequest {
  email: string;
  password: string;
}

export interface TSignInResponse {
  id_token: string;
  refresh_token: string;
  /** Seconds until id_token expires. */
  expires_in: number;
  user: TAuthUser;
}

export interface TSignUpRequest {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
}

export interface TPasswordResetRequest {
  email: string;
}

/** Thrown when a success response does not have the shape the client relies on. */
export class UnexpectedResponseError extends Error {
  constructor(what: string) {
    super(`Unexpected response: ${what}`);
    this.name = 'UnexpectedResponseError';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function optionalString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function isRole(value: unknown): value is TRole {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Reads a user record of the API; unknown fields are ignored, a missing id or e-mail is an error. */
export function parseAuthUser(data: unknown): TAuthUser {
  if (!isRecord(data) || typeof data.id !== 'string' || typeof data.email !== 'string') {
    throw new UnexpectedResponseError('user without id or email');
  }
  return {
    id: data.id,
    email: data.email,
    role: isRole(data.role) ? data.role : null,
    first_name: optionalString(data.first_name),
    last_name: optionalString(data.last_name),
    display_name: optionalString(data.display_name),
    organisation_fk: optionalString(data.organisation_fk),
    facility_fks: Array.isArray(data.facility_fks)
      ? data.facility_fks.filter((id): id is string => typeof id === 'string')
      : [],
  };
}

export function parseSignInResponse(data: unknown): TSignInResponse {
  if (!isRecord(data) || typeof data.id_token !== 'string' || data.id_token === '') {
    throw new UnexpectedResponseError('sign-in without id_token');
  }
  return {
    id_token: data.id_token,
    refresh_token: typeof data.refresh_token === 'string' ? data.refresh_token : '',
    expires_in: typeof data.expires_in === 'number' ? data.expires_in : 0,
    user: parseAuthUser(data.user),
  };
}

/** Identity and user calls used by sign-in, sign-up, password reset and session verification. */
export function createAuthApi(http: HttpClient) {
  return {
    signIn: (body: TSignInRequest) => http.post('/auth/sign-in', body, { parse: parseSignInResponse }),
    signUp: (body: TSignUpRequest) => http.post('/auth/sign-up', body),
    requestPasswordReset: (body: TPasswordResetRequest) => http.post('/auth/password-reset/request', body),
    fetchUserByEmail: (email: string) =>
      http.get(`/user/email/${encodeURIComponent(email)}`, { parse: parseAuthUser }),
  };
}

export type AuthApi = ReturnType<typeof createAuthApi>;
