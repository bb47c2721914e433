import { and, eq, isNull, sql } from 'drizzle-orm';
import type { TDb, TDbOrTx } from '../db/client.ts';
import { authRefreshTokens, authSessions, users } from '../db/schema/index.ts';
import type { TRequestOrigin } from './audit.ts';
import { hashToken, randomToken } from './secrets.ts';

const DAY_MS = 86_400_000;

export type TSessionMethod = 'password' | 'email_link' | 'test';
export type TIssuedRefresh = { sessionId: string; refreshToken: string; expiresAt: Date };

export type TRotation =
  /** `grace`: the token had just been rotated by a concurrent refresh (another tab); see rotate(). */
  | { kind: 'rotated'; userId: string; refresh: TIssuedRefresh; grace: boolean }
  /** An already-used token came back: the whole session was revoked. */
  | { kind: 'reused'; userId: string; sessionId: string }
  | { kind: 'disabled'; userId: string; sessionId: string }
  | { kind: 'invalid' };

/** The longest reuse grace allowed (seconds): a replay within it is indistinguishable from a tab. */
export const MAX_REUSE_GRACE_SECONDS = 10;

/**
 * Sign-in sessions and their refresh tokens: opaque, random, stored only as SHA-256 hashes, used
 * once. Refreshing exchanges a token for the next one; presenting a used token again means it was
 * stolen or replayed, so the session and every token of it end.
 *
 * One exception, for browsers: tabs of one origin share the refresh cookie, and where they cannot
 * take turns (no Web Locks on plain-http origins) two of them may refresh with the same cookie at
 * once. A cookie that was rotated less than `reuseGraceSeconds` ago, and is still the last one
 * rotated in its session, therefore gets a new token of the same session instead of ending it. The
 * tokens issued that way are siblings: the first of them to be rotated retires the others. A token in
 * the request body never gets this grace (a client holding its own token has no tab to race with).
 */
export class RefreshSessions {
  readonly #db: TDb;
  readonly #ttlMs: number;
  readonly #graceSeconds: number;

  constructor(db: TDb, options: { ttlDays: number; reuseGraceSeconds?: number }) {
    this.#db = db;
    this.#ttlMs = options.ttlDays * DAY_MS;
    this.#graceSeconds = Math.min(
      MAX_REUSE_GRACE_SECONDS,
      Math.max(0, options.reuseGraceSeconds ?? MAX_REUSE_GRACE_SECONDS),
    );
  }

  async start(
    db: TDbOrTx,
    userId: string,
    method: TSessionMethod,
    origin: TRequestOrigin,
  ): Promise<TIssuedRefresh> {
    const expiresAt = new Date(Date.now() + this.#ttlMs);
    const [session] = await db
      .insert(authSessions)
      .values({
        userId,
        method,
        expiresAt,
        ip: origin.ip,
        userAgent: origin.userAgent?.slice(0, 512) ?? null,
      })
      .returning({ id: authSessions.id });
    if (!session) throw new Error('session insert returned no row');
    return this.#issue(db, userId, session.id, expiresAt);
  }

  async #issue(db: TDbOrTx, userId: string, sessionId: string, expiresAt: Date): Promise<TIssuedRefresh> {
    const refreshToken = randomToken();
    await db
      .insert(authRefreshTokens)
      .values({ sessionId, userId, tokenHash: hashToken(refreshToken), expiresAt });
    return { sessionId, refreshToken, expiresAt };
  }

  /**
   * Exchanges a refresh token for the next one of the same session, in one transaction that holds
   * the session's row lock, so the rotations of one session happen one after the other.
   * `fromCookie`: the token came in the browser's cookie and may use the reuse grace.
   */
  async rotate(refreshToken: string, options: { fromCookie?: boolean } = {}): Promise<TRotation> {
    const tokenHash = hashToken(refreshToken);
    return this.#db.transaction(async (tx) => {
      // First lock the session; then read the token in a new statement, whose snapshot includes
      // whatever the rotation that held the lock before committed.
      const [locked] = await tx
        .select({ id: authSessions.id })
        .from(authRefreshTokens)
        .innerJoin(authSessions, eq(authSessions.id, authRefreshTokens.sessionId))
        .where(eq(authRefreshTokens.tokenHash, tokenHash))
        .for('update', { of: authSessions });
      if (!locked) return { kind: 'invalid' };
      const [row] = await tx
        .select({
          id: authRefreshTokens.id,
          sessionId: authRefreshTokens.sessionId,
          userId: authRefreshTokens.userId,
          used: sql<boolean>`${authRefreshTokens.usedAt} is not null`,
          expired: sql<boolean>`${authRefreshTokens.expiresAt} <= now()`,
          // Used within the grace and no token of the session used after it (siblings retired
          // together with it share its used_at).
          inGrace: sql<boolean>`coalesce(
            ${authRefreshTokens.usedAt} > now() - make_interval(secs => ${this.#graceSeconds})
            AND NOT EXISTS (
              SELECT 1 FROM auth_refresh_tokens later
              WHERE later.session_id = ${authRefreshTokens.sessionId}
                AND later.used_at > ${authRefreshTokens.usedAt}
            ), false)`,
          revoked: sql<boolean>`${authSessions.revokedAt} is not null`,
          userStatus: users.status,
        })
        .from(authRefreshTokens)
        .innerJoin(authSessions, eq(authSessions.id, authRefreshTokens.sessionId))
        .innerJoin(users, eq(users.id, authRefreshTokens.userId))
        .where(eq(authRefreshTokens.tokenHash, tokenHash));
      if (!row) return { kind: 'invalid' };
      // A disabled account is told so (its session ended with it), whatever state the token is in.
      if (row.userStatus !== 'ACTIVE') {
        await this.revoke(tx, row.sessionId, 'user_disabled');
        return { kind: 'disabled', userId: row.userId, sessionId: row.sessionId };
      }
      if (row.revoked || row.expired) return { kind: 'invalid' };
      const grace = row.used && options.fromCookie === true && this.#graceSeconds > 0 && row.inGrace;
      if (row.used && !grace) {
        await this.revoke(tx, row.sessionId, 'refresh_reuse');
        return { kind: 'reused', userId: row.userId, sessionId: row.sessionId };
      }
      if (!row.used) {
        // This token and any sibling issued in a grace: one live token per session again.
        await tx
          .update(authRefreshTokens)
          .set({ usedAt: sql`now()` })
          .where(and(eq(authRefreshTokens.sessionId, row.sessionId), isNull(authRefreshTokens.usedAt)));
      }
      const expiresAt = new Date(Date.now() + this.#ttlMs);
      await tx
        .update(authSessions)
        .set({ expiresAt, lastRefreshedAt: sql`now()` })
        .where(eq(authSessions.id, row.sessionId));
      const refresh = await this.#issue(tx, row.userId, row.sessionId, expiresAt);
      return { kind: 'rotated', userId: row.userId, refresh, grace };
    });
  }

  /** The live session a refresh token belongs to (used or not), for signing out without an ID token. */
  async sessionOf(refreshToken: string): Promise<{ sessionId: string; userId: string } | null> {
    const [row] = await this.#db
      .select({ sessionId: authSessions.id, userId: authSessions.userId })
      .from(authRefreshTokens)
      .innerJoin(authSessions, eq(authSessions.id, authRefreshTokens.sessionId))
      .where(and(eq(authRefreshTokens.tokenHash, hashToken(refreshToken)), isNull(authSessions.revokedAt)));
    return row ?? null;
  }

  /** Ends one session; true when it was live. The caller publishes the change (publishUserChange). */
  async revoke(db: TDbOrTx, sessionId: string, reason: string): Promise<boolean> {
    const ended = await db
      .update(authSessions)
      .set({ revokedAt: sql`now()`, revokedReason: reason })
      .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)))
      .returning({ id: authSessions.id });
    return ended.length > 0;
  }
}
