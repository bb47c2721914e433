import { EventEmitter } from 'node:events';
import type { TRadiologistUserType, TRecordStatus, TRole } from '@ris/domain';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { TDb, TDbOrTx, TTx } from '../db/client.ts';
import { authSessions, radiologistDetails, users } from '../db/schema/index.ts';

/** PostgreSQL channel on which replicas tell each other that a user's tokens changed. */
export const REVOCATION_CHANNEL = 'ris_auth_revocation';
/** The payload on REVOCATION_CHANNEL that means every user (user_facilities was truncated). */
export const EVERY_USER = '*';

/**
 * In-process delivery of the same news, to every identity (revocation cache) of this process:
 * - 'user': the change is committed; drop the user's entry now, before PostgreSQL delivers the NOTIFY.
 * - 'hold': a transaction that is not committed yet changes the user; until the NOTIFY of its commit
 *   arrives (or an announcement after commit), the user is not cached, so a load that reads the old
 *   rows before the commit cannot keep them.
 */
const localRevocations = new EventEmitter();
localRevocations.setMaxListeners(0);

export function onLocalRevocation(listener: (userId: string) => void): () => void {
  localRevocations.on('user', listener);
  return () => localRevocations.off('user', listener);
}

export function onLocalHold(listener: (userId: string) => void): () => void {
  localRevocations.on('hold', listener);
  return () => localRevocations.off('hold', listener);
}

function isTransaction(db: TDbOrTx): db is TTx {
  return db instanceof PgTransaction;
}

/**
 * Tells every replica that `userId`'s sessions, status, tokens_valid_after, role, organisation,
 * radiologist user type or facility assignments (user_facilities) changed, so their verifiers reload
 * it. Runs NOTIFY on `db`: inside the caller's transaction it is delivered at commit and dropped on
 * rollback.
 *
 * The tables themselves announce every such write whoever makes it (triggers: migration 0006 for
 * user_facilities, 0010 for users, radiologist_details and auth_sessions; 0010 also ends the sessions
 * of a user disabled or moved out of their organisation), and each request waits for the news
 * committed before it (RevocationCache.sync). Commands call this too, inside their transaction after
 * the change: it covers what no trigger sees, and this process stops caching the user until the
 * commit's NOTIFY comes back; announceUserChange after the commit lets it reload the user at once.
 */
export async function publishUserChange(db: TDbOrTx, userId: string): Promise<void> {
  await db.execute(sql`SELECT pg_notify(${REVOCATION_CHANNEL}, ${userId})`);
  if (isTransaction(db)) localRevocations.emit('hold', userId);
  else announceUserChange(userId);
}

/** After the commit of a change published with publishUserChange: this process reloads the user now. */
export function announceUserChange(userId: string): void {
  localRevocations.emit('user', userId);
}

/** announceUserChange after `db` commits: now when `db` is not a transaction, else at its commit (NOTIFY). */
export function announceAfterCommit(db: TDbOrTx, userId: string): void {
  if (!isTransaction(db)) announceUserChange(userId);
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
  announceAfterCommit(db, userId);
}

/** What the verifier needs to know about a user to accept or reject a well-signed token. */
export type TUserTokenState = {
  status: TRecordStatus;
  /** Tokens with `iat` below this (seconds) are rejected; 0 when never set. */
  validAfterSeconds: number;
  /** The user's current role, organisation and radiologist type: they win over the token's claims. */
  role: TRole | null;
  organisationId: string | null;
  userType: TRadiologistUserType | null;
  /** The facilities the user is assigned to (user_facilities) within that organisation. */
  facilityIds: readonly string[];
  /** Sessions not revoked when the state was loaded. */
  liveSessions: Set<string>;
  /** Session ids presented since the load and confirmed not live (no reload for each of them). */
  deadSessions: Set<string>;
};

const MAX_ENTRIES = 50_000;
/** How long a change published inside a transaction keeps its user out of the cache at most. */
const HOLD_MS = 60_000;

/** One load in flight: set stale when the user changes meanwhile, so its result is not cached. */
type TLoad = { stale: boolean };

/**
 * userId → token state, consulted on every authenticated request. Entries are dropped when a change
 * is announced (locally or by NOTIFY) and reloaded on the next request. A load that overlaps an
 * announcement is answered but not cached (it may have read the rows before the change). While
 * `reliable` is false (the LISTEN connection is down) the cache is bypassed and every check reads
 * the database.
 */
export class RevocationCache {
  readonly #db: TDb;
  readonly #entries = new Map<string, TUserTokenState>();
  readonly #loads = new Map<string, Set<TLoad>>();
  /** Users changed by a transaction not known to be committed yet → until when not to cache them. */
  readonly #held = new Map<string, number>();
  /** Resolves once every announcement committed before the call has reached this cache (the listener's). */
  #barrier: () => Promise<boolean> = async () => true;
  reliable = true;

  constructor(db: TDb) {
    this.#db = db;
  }

  #isHeld(userId: string): boolean {
    const until = this.#held.get(userId);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.#held.delete(userId);
    return false;
  }

  #forget(userId: string): void {
    this.#entries.delete(userId);
    for (const load of this.#loads.get(userId) ?? []) load.stale = true;
  }

  /** The listener's barrier (revocation-listener.ts); without one, the cache hears only this process. */
  useBarrier(barrier: () => Promise<boolean>): void {
    this.#barrier = barrier;
  }

  /**
   * Waits until every change committed before this call has been announced to the cache (on
   * PostgreSQL one round trip on the LISTEN connection, shared by the calls that wait together): a
   * request that arrives after an UPDATE of the user commits is then checked against the new state,
   * even by a replica whose NOTIFY had not come in yet. False when it cannot tell (not listening):
   * the caller reads the database instead of the cache.
   */
  async sync(): Promise<boolean> {
    return this.reliable && (await this.#barrier()) && this.reliable;
  }

  /** The user's state as of now: the cached entry after sync(), else loaded. */
  async current(userId: string): Promise<TUserTokenState | null> {
    const cached = (await this.sync()) ? this.peek(userId) : undefined;
    return cached ?? (await this.load(userId));
  }

  peek(userId: string): TUserTokenState | undefined {
    return this.reliable && !this.#isHeld(userId) ? this.#entries.get(userId) : undefined;
  }

  /** The user changed (committed): drop the entry and any load in flight; caching may resume. */
  invalidate(userId: string): void {
    this.#forget(userId);
    this.#held.delete(userId);
  }

  /** The user is being changed by an uncommitted transaction: do not cache them until invalidate(). */
  hold(userId: string): void {
    this.#forget(userId);
    this.#held.set(userId, Date.now() + HOLD_MS);
  }

  clear(): void {
    this.#entries.clear();
    for (const loads of this.#loads.values()) for (const load of loads) load.stale = true;
  }

  /**
   * The facilities `userId` is assigned to within `organisationId`: from the cached state, else
   * loaded (and cached) as load() does; null when the user is gone or now in another organisation
   * (the caller then reads the database). Kept current like the rest of the state: a trigger on
   * user_facilities NOTIFYs this channel on every write (migration 0006), and commands that change
   * assignments call publishUserChange as well (so this process drops the user at once).
   */
  async facilityIdsOf(userId: string, organisationId: string): Promise<readonly string[] | null> {
    const state = this.peek(userId) ?? (await this.load(userId));
    return state && state.organisationId === organisationId ? state.facilityIds : null;
  }

  /** Records a session this process just created, so its first token needs no reload. */
  noteSession(userId: string, sessionId: string): void {
    this.#entries.get(userId)?.liveSessions.add(sessionId);
  }

  /**
   * Loads a user's state (one statement, so user row and sessions come from one snapshot) and caches
   * it when reliable and nothing was announced about the user meanwhile; null when the user does not
   * exist.
   */
  async load(userId: string): Promise<TUserTokenState | null> {
    const load: TLoad = { stale: false };
    let loads = this.#loads.get(userId);
    if (!loads) this.#loads.set(userId, (loads = new Set()));
    loads.add(load);
    let row: TStateRow | undefined;
    try {
      [row] = await this.#db
        .select({
          status: users.status,
          tokensValidAfter: users.tokensValidAfter,
          role: users.role,
          organisationId: users.organisationId,
          radiologistType: radiologistDetails.userType,
          facilityIds: sql<string[] | null>`(
            SELECT array_agg(uf.facility_id::text) FROM user_facilities uf
            JOIN facilities f ON f.id = uf.facility_id
            WHERE uf.user_id = ${users.id} AND f.organisation_id = ${users.organisationId})`,
          liveSessions: sql<string[] | null>`(
            SELECT array_agg(${authSessions.id}::text) FROM ${authSessions}
            WHERE ${authSessions.userId} = ${users.id} AND ${authSessions.revokedAt} IS NULL)`,
        })
        .from(users)
        .leftJoin(radiologistDetails, eq(radiologistDetails.userId, users.id))
        .where(eq(users.id, userId));
    } finally {
      loads.delete(load);
      if (loads.size === 0 && this.#loads.get(userId) === loads) this.#loads.delete(userId);
    }
    if (!row) return null;
    const state: TUserTokenState = {
      status: row.status,
      validAfterSeconds: row.tokensValidAfter ? Math.floor(row.tokensValidAfter.getTime() / 1000) : 0,
      role: row.role,
      organisationId: row.organisationId,
      userType: row.role === 'RADIOLOGIST' ? (row.radiologistType ?? 'RADIOLOGIST') : null,
      facilityIds: row.facilityIds ?? [],
      liveSessions: new Set(row.liveSessions ?? []),
      deadSessions: new Set(),
    };
    if (this.reliable && !load.stale && !this.#isHeld(userId)) {
      if (this.#entries.size >= MAX_ENTRIES) {
        const oldest = this.#entries.keys().next();
        if (!oldest.done) this.#entries.delete(oldest.value);
      }
      this.#entries.set(userId, state);
    }
    return state;
  }
}

type TStateRow = {
  status: TRecordStatus;
  tokensValidAfter: Date | null;
  role: TRole | null;
  organisationId: string | null;
  radiologistType: TRadiologistUserType | null;
  facilityIds: string[] | null;
  liveSessions: string[] | null;
};
