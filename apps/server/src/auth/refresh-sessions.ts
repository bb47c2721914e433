import { and, eq, isNull, sql } from 'drizzle-orm';
import type { TDb, TDbOrTx } from '../db/client.ts';
import { authRefreshTokens, authSessions, users } from '../db/schema/index.ts';
import type { TRequestOrigin } from './audit.ts';
import { hashToken, randomToken } from './secrets.ts';

const DAY_MS = 86_400_000;

export type TSessionMethod = 'password' | 'email_link' | 'test';
export type TIssuedRefresh = { sessionId: string; refreshToken: string; expiresAt: Date };

export type TRotation =
  | { kind: 'rotated'; userId: string; refresh: TIssuedRefresh }
  /** An already-used token came back: the whole session was revoked. */
  | { kind: 'reused'; userId: string; sessionId: string }
  | { kind: 'disabled'; userId: string; sessionId: string }
  | { kind: 'invalid' };

/**
 * Sign-in sessions and their refresh tokens: opaque, random, stored only as SHA-256 hashes, used
 * once. Refreshing exchanges a token for the next one; presenting a used token again means it was
 * stolen or replayed, so the session and every token of it end.
 */
export class RefreshSessions {
  readonly #db: TDb;
  readonly #ttlMs: number;

  constructor(db: TDb, options: { ttlDays: number }) {
    this.#db = db;
    this.#ttlMs = options.ttlDays * DAY_MS;
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

  /** Exchanges a refresh token for the next one of the same session (one transaction, row-locked). */
  async rotate(refreshToken: string): Promise<TRotation> {
    return this.#db.transaction(async (tx) => {
      const [row] = await tx
        .select({
          id: authRefreshTokens.id,
          sessionId: authRefreshTokens.sessionId,
          userId: authRefreshTokens.userId,
          used: sql<boolean>`${authRefreshTokens.usedAt} is not null`,
          expired: sql<boolean>`${authRefreshTokens.expiresAt} <= now()`,
          revoked: sql<boolean>`${authSessions.revokedAt} is not null`,
          userStatus: users.status,
        })
        .from(authRefreshTokens)
        .innerJoin(authSessions, eq(authSessions.id, authRefreshTokens.sessionId))
        .innerJoin(users, eq(users.id, authRefreshTokens.userId))
        .where(eq(authRefreshTokens.tokenHash, hashToken(refreshToken)))
        .for('update', { of: authRefreshTokens });
      if (!row) return { kind: 'invalid' };
      // A disabled account is told so (its session ended with it), whatever state the token is in.
      if (row.userStatus !== 'ACTIVE') {
        await this.revoke(tx, row.sessionId, 'user_disabled');
        return { kind: 'disabled', userId: row.userId, sessionId: row.sessionId };
      }
      if (row.revoked || row.expired) return { kind: 'invalid' };
      if (row.used) {
        await this.revoke(tx, row.sessionId, 'refresh_reuse');
        return { kind: 'reused', userId: row.userId, sessionId: row.sessionId };
      }
      await tx
        .update(authRefreshTokens)
        .set({ usedAt: sql`now()` })
        .where(eq(authRefreshTokens.id, row.id));
      const expiresAt = new Date(Date.now() + this.#ttlMs);
      await tx
        .update(authSessions)
        .set({ expiresAt, lastRefreshedAt: sql`now()` })
        .where(eq(authSessions.id, row.sessionId));
      const refresh = await this.#issue(tx, row.userId, row.sessionId, expiresAt);
      return { kind: 'rotated', userId: row.userId, refresh };
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
