import { EventEmitter } from 'node:events';
import type { TRecordStatus } from '@ris/domain';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { TDb, TDbOrTx } from '../db/client.ts';
import { authSessions, users } from '../db/schema/index.ts';

/** PostgreSQL channel on which replicas tell each other that a user's tokens changed. */
export const REVOCATION_CHANNEL = 'ris_auth_revocation';

/**
 * In-process delivery of the same news: every identity of this process hears a revocation as soon as
 * the revoking call returns, before PostgreSQL delivers the NOTIFY (which then reaches other replicas).
 */
const localRevocations = new EventEmitter();
localRevocations.setMaxListeners(0);

export function onLocalRevocation(listener: (userId: string) => void): () => void {
  localRevocations.on('user', listener);
  return () => localRevocations.off('user', listener);
}

/**
 * Tells every replica that `userId`'s sessions, status or tokens_valid_after changed. Runs NOTIFY on
 * `db` (inside the caller's transaction when given one: delivered at commit, dropped on rollback).
 */
export async function publishUserChange(db: TDbOrTx, userId: string): Promise<void> {
  await db.execute(sql`SELECT pg_notify(${REVOCATION_CHANNEL}, ${userId})`);
  localRevocations.emit('user', userId);
}

/**
 * Ends every session of a user and rejects every ID token issued so far, on every route and replica,
 * at once. Call it whenever a user is disabled or must sign in again (password change, role change
 * that must apply now, sign-out everywhere). Pass a transaction to make it part of a larger change.
 */
export async function revokeUserTokens(
  db: TDbOrTx,
  userId: string,
  reason = 'tokens_revoked',
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      // Whole seconds of this server's clock, the clock that writes `iat`: a token issued earlier in
      // the same second is still refused through its revoked session.
      .set({ tokensValidAfter: new Date(Math.floor(Date.now() / 1000) * 1000) })
      .where(eq(users.id, userId));
    await tx
      .update(authSessions)
      .set({ revokedAt: sql`now()`, revokedReason: reason })
      .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)));
    await publishUserChange(tx, userId);
  });
  localRevocations.emit('user', userId);
}

/** What the verifier needs to know about a user to accept or reject a well-signed token. */
export type TUserTokenState = {
  status: TRecordStatus;
  /** Tokens with `iat` below this (seconds) are rejected; 0 when never set. */
  validAfterSeconds: number;
  /** Sessions not revoked when the state was loaded. */
  liveSessions: Set<string>;
  /** Session ids presented since the load and confirmed not live (no reload for each of them). */
  deadSessions: Set<string>;
};

const MAX_ENTRIES = 50_000;

/**
 * userId → token state, consulted on every authenticated request. Entries are dropped when a change
 * is announced (locally or by NOTIFY) and reloaded on the next request. While `reliable` is false
 * (the LISTEN connection is down) the cache is bypassed and every check reads the database.
 */
export class RevocationCache {
  readonly #db: TDb;
  readonly #entries = new Map<string, TUserTokenState>();
  reliable = true;

  constructor(db: TDb) {
    this.#db = db;
  }

  peek(userId: string): TUserTokenState | undefined {
    return this.reliable ? this.#entries.get(userId) : undefined;
  }

  invalidate(userId: string): void {
    this.#entries.delete(userId);
  }

  clear(): void {
    this.#entries.clear();
  }

  /** Records a session this process just created, so its first token needs no reload. */
  noteSession(userId: string, sessionId: string): void {
    this.#entries.get(userId)?.liveSessions.add(sessionId);
  }

  /** Loads (and, when reliable, caches) a user's state; null when the user does not exist. */
  async load(userId: string): Promise<TUserTokenState | null> {
    const [user] = await this.#db
      .select({ status: users.status, tokensValidAfter: users.tokensValidAfter })
      .from(users)
      .where(eq(users.id, userId));
    if (!user) return null;
    const sessions = await this.#db
      .select({ id: authSessions.id })
      .from(authSessions)
      .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)));
    const state: TUserTokenState = {
      status: user.status,
      validAfterSeconds: user.tokensValidAfter ? Math.floor(user.tokensValidAfter.getTime() / 1000) : 0,
      liveSessions: new Set(sessions.map((session) => session.id)),
      deadSessions: new Set(),
    };
    if (this.reliable) {
      if (this.#entries.size >= MAX_ENTRIES) {
        const oldest = this.#entries.keys().next();
        if (!oldest.done) this.#entries.delete(oldest.value);
      }
      this.#entries.set(userId, state);
    }
    return state;
  }
}
