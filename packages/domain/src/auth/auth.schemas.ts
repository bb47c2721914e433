import { z } from 'zod';
import { ZUser } from '../users/user.schemas.ts';

/** E-mail as typed by a person: trimmed, lower-cased for lookups by the server. */
export const ZEmail = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'Enter a valid e-mail address' }));

export const ZSignInRequest = z.object({ email: ZEmail, password: z.string().min(1).max(1024) });
export type TSignInRequest = z.infer<typeof ZSignInRequest>;

/** POST /auth/sign-in, /auth/refresh, /auth/email-link/sign-in. */
export const ZSessionResponse = z.object({
  id_token: z.string(),
  refresh_token: z.string(),
  /** Seconds until id_token expires. */
  expires_in: z.number().int().positive(),
  user: ZUser,
});
export type TSessionResponse = z.infer<typeof ZSessionResponse>;

export const ZSignUpRequest = z.object({
  email: ZEmail,
  password: z.string().max(1024),
  display_name: z.string().trim().max(200).optional(),
  first_name: z.string().trim().max(100).optional(),
  last_name: z.string().trim().max(100).optional(),
});
export type TSignUpRequest = z.infer<typeof ZSignUpRequest>;

/** The refresh token comes from the httpOnly cookie, or from the body for non-browser clients. */
export const ZRefreshRequest = z.object({ refresh_token: z.string().min(1).max(512).optional() });
export const ZPasswordResetRequest = z.object({ email: ZEmail });
export const ZPasswordResetConfirm = z.object({
  token: z.string().min(1).max(512),
  password: z.string().max(1024),
});
export const ZEmailLinkRequest = z.object({ email: ZEmail });
/** POST /auth/password: the signed-in user changes their own password (the current one proves it). */
export const ZChangePasswordRequest = z.object({
  current_password: z.string().min(1).max(1024),
  new_password: z.string().max(1024),
});
export type TChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>;
export const ZEmailLinkSignIn = z.object({ token: z.string().min(1).max(512) });

/** GET /auth/password-policy: what the client must show and check before submitting. */
export const ZPasswordPolicy = z.object({
  min_length: z.number().int().min(6),
  max_length: z.number().int(),
  /** Human-readable rules, shown under the password field. */
  rules: z.array(z.string()),
});
export type TPasswordPolicy = z.infer<typeof ZPasswordPolicy>;

/** GET /auth/config. */
export const ZAuthConfig = z.object({
  signup_enabled: z.boolean(),
  email_link_enabled: z.boolean(),
  providers: z.array(z.enum(['password', 'email-link'])),
});
export type TAuthConfig = z.infer<typeof ZAuthConfig>;

/** Neutral answer of password-reset/request and email-link/request (never says if the account exists). */
export const ZNeutralResponse = z.object({ message: z.string() });
