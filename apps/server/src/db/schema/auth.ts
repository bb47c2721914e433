// Identity: sign-in sessions with their rotating refresh tokens, one-time action tokens (password
// reset, e-mail link) and failed sign-in attempts (rate limits shared by every replica).
// Secrets are never stored: every token column holds the SHA-256 of the token (hex).
import { sql } from 'drizzle-orm';
import { index, inet, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, primaryId, timestamptz } from './columns.ts';
import { users } from './users.ts';

/**
 * One sign-in (the `sid` claim of its ID tokens): a family of refresh tokens. Revoking it (sign-out,
 * reuse of a rotated refresh token, sign-out everywhere) rejects its ID tokens at once.
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: primaryId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'password' | 'email_link' (how the session began). */
    method: text('method').notNull(),
    /** Moves forward at each rotation; the session ends when it passes. */
    expiresAt: timestamptz('expires_at').notNull(),
    lastRefreshedAt: timestamptz('last_refreshed_at'),
    revokedAt: timestamptz('revoked_at'),
    /** 'sign_out' | 'sign_out_all' | 'refresh_reuse' | 'tokens_revoked' ... */
    revokedReason: text('revoked_reason'),
    ip: inet('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [
    // The verifier's cache loads a user's live sessions.
    index('auth_sessions_user_live_idx')
      .on(t.userId)
      .where(sql`${t.revokedAt} is null`),
  ],
);

/** A refresh token of a session. Each is used once: refreshing marks it used and issues the next. */
export const authRefreshTokens = pgTable(
  'auth_refresh_tokens',
  {
    id: primaryId(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique('auth_refresh_tokens_hash_uq'),
    expiresAt: timestamptz('expires_at').notNull(),
    /** Set when the token was exchanged; presenting it again revokes the whole session. */
    usedAt: timestamptz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('auth_refresh_tokens_session_idx').on(t.sessionId)],
);

export const AUTH_ACTION_KINDS = ['password_reset', 'email_link'] as const;
export type TAuthActionKind = (typeof AUTH_ACTION_KINDS)[number];

/** A one-time link token (password reset, e-mail sign-in link): single use, short-lived. */
export const authActionTokens = pgTable(
  'auth_action_tokens',
  {
    id: primaryId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: AUTH_ACTION_KINDS }).notNull(),
    tokenHash: text('token_hash').notNull().unique('auth_action_tokens_hash_uq'),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
    ip: inet('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('auth_action_tokens_user_kind_idx').on(t.userId, t.kind)],
);

/**
 * A failed sign-in (one row per wrong password, written before the password is checked and removed
 * when it proves right). The throttle counts them per account and source (IP, or the account's
 * device cookie), per account from every unknown browser, and per IP over distinct accounts, over a
 * sliding window. Only failures are stored, so succeeding for someone never slows them down.
 */
export const authSignInFailures = pgTable(
  'auth_sign_in_failures',
  {
    id: primaryId(),
    /** The lower-cased e-mail tried, whether or not it has an account. */
    account: text('account').notNull(),
    /** The client's address as the server sees it (TRUST_PROXY decides). */
    ip: text('ip').notNull(),
    /** The id of the account's device cookie the browser presented, null for an unknown browser. */
    deviceId: text('device_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('auth_sign_in_failures_account_created_idx').on(t.account, t.createdAt),
    index('auth_sign_in_failures_ip_created_idx').on(t.ip, t.createdAt),
  ],
);

/**
 * When the owner and the admins of an account were last told that its sign-in is under attack: at
 * most one alert per failure window, whatever the number of guesses.
 */
export const authAttackAlerts = pgTable('auth_attack_alerts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sentAt: timestamptz('sent_at').notNull(),
});
