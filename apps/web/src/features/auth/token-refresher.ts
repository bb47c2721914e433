import {
  SESSION_SYNC_MAX_AGE_MS,
  TOKEN_REFRESH_LEAD_MS,
  tokenRefreshBackoffMs,
  type TSessionResponse,
  type TUser,
} from '@ris/domain';
import { isFinalRefreshFailure } from '../../api/session-errors.ts';
import type { ChannelLike, LockManagerLike } from './cross-tab.ts';

/** Web Locks name under which every tab of the origin refreshes, one at a time. */
export const TOKEN_REFRESH_LOCK = 'ris-token-refresh';
/** BroadcastChannel on which tabs share a new ID token and sign-outs. */
export const SESSION_CHANNEL = 'ris-session';

/**
 * Each scheduled refresh starts up to this much earlier than TOKEN_REFRESH_LEAD_MS, at random, so
 * tabs that cannot take turns (no Web Locks on plain-http origins) rarely refresh at the same moment:
 * the first one shares its token and the others reschedule from it.
 */
export const TOKEN_REFRESH_JITTER_MS = 30_000;

/** setTimeout cannot wait longer than this (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The identity session of this tab: held in memory only, never in any storage. */
export interface TokenSession {
  idToken: string;
  /** Epoch milliseconds at which idToken expires. */
  expiresAt: number;
  /** Epoch milliseconds at which this tab or another one obtained it. */
  obtainedAt: number;
  user: TUser;
}

export type SessionMessage =
  { type: 'session'; session: TokenSession } | { type: 'signed-out'; userId: string };

export type RefresherEvent =
  /** A scheduled refresh found the session gone (401 from /auth/refresh): sign out locally. */
  | { type: 'ended'; error: unknown }
  /** Another tab signed this user out. */
  | { type: 'signed-out-elsewhere' };

export interface Timers {
  set: (callback: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
}

export interface TokenRefresherDeps {
  /** POST /auth/refresh: the browser sends the httpOnly cookie. */
  refresh: () => Promise<TSessionResponse>;
  locks: LockManagerLike;
  channel: ChannelLike<SessionMessage>;
  now?: () => number;
  timers?: Timers;
  /** How much earlier (ms, 0 to TOKEN_REFRESH_JITTER_MS) to schedule a refresh; random by default. */
  jitter?: () => number;
}

export interface TokenRefresher {
  /** Takes a session just obtained by sign-in and schedules its refresh. */
  adopt: (response: TSessionResponse) => TokenSession;
  session: () => TokenSession | null;
  token: () => string | null;
  /**
   * A fresh session: waits for the cross-tab lock, then uses the token another tab obtained while
   * this one waited, else POSTs /auth/refresh and shares the result. Concurrent calls of one tab
   * share one request. Rejects with the refresh error (the caller decides what it means).
   */
  refresh: () => Promise<TokenSession>;
  /** Refreshes now if the token is due (a tab coming back to the foreground: timers may have slept). */
  wake: () => void;
  /** Forgets the session and its timer; `announce` tells the other tabs this user signed out. */
  stop: (options?: { announce?: boolean }) => void;
  subscribe: (listener: (event: RefresherEvent) => void) => () => void;
  dispose: () => void;
}

const defaultTimers: Timers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

function isSessionMessage(value: unknown): value is SessionMessage {
  if (typeof value !== 'object' || value === null || !('type' in value)) return false;
  if (value.type === 'signed-out') return 'userId' in value && typeof value.userId === 'string';
  if (value.type !== 'session' || !('session' in value)) return false;
  const session = value.session as Partial<TokenSession> | null;
  return (
    typeof session?.idToken === 'string' &&
    typeof session.expiresAt === 'number' &&
    typeof session.obtainedAt === 'number' &&
    typeof session.user?.id === 'string'
  );
}

/**
 * Keeps the ID token fresh: TOKEN_REFRESH_LEAD_MS (plus a random jitter) before expiry, with
 * back-off, one tab at a time.
 */
export function createTokenRefresher(deps: TokenRefresherDeps): TokenRefresher {
  const now = deps.now ?? Date.now;
  const timers = deps.timers ?? defaultTimers;
  const jitter = deps.jitter ?? (() => Math.random() * TOKEN_REFRESH_JITTER_MS);
  const listeners = new Set<(event: RefresherEvent) => void>();
  let current: TokenSession | null = null;
  let pending: Promise<TokenSession> | null = null;
  let timer: unknown = null;
  let failures = 0;
  /** Bumped by stop(): a refresh that was waiting for the lock must not revive a signed-out tab. */
  let generation = 0;

  const emit = (event: RefresherEvent): void => listeners.forEach((listener) => listener(event));
  const isDue = (session: TokenSession): boolean => now() >= session.expiresAt - TOKEN_REFRESH_LEAD_MS;
  const isRecent = (session: TokenSession): boolean => now() - session.obtainedAt <= SESSION_SYNC_MAX_AGE_MS;

  function cancelTimer(): void {
    if (timer !== null) timers.clear(timer);
    timer = null;
  }

  function schedule(ms: number): void {
    cancelTimer();
    timer = timers.set(
      () => {
        timer = null;
        runScheduled();
      },
      Math.min(Math.max(0, ms), MAX_TIMER_MS),
    );
  }

  function install(session: TokenSession): void {
    current = session;
    failures = 0;
    const early = Math.min(Math.max(0, jitter()), TOKEN_REFRESH_JITTER_MS);
    schedule(session.expiresAt - TOKEN_REFRESH_LEAD_MS - early - now());
  }

  function fromResponse(response: TSessionResponse): TokenSession {
    const obtainedAt = now();
    return {
      idToken: response.id_token,
      expiresAt: obtainedAt + response.expires_in * 1000,
      obtainedAt,
      user: response.user,
    };
  }

  function runScheduled(): void {
    const started = generation;
    refresh().catch((error: unknown) => {
      if (started !== generation) return;
      if (isFinalRefreshFailure(error)) {
        stop();
        emit({ type: 'ended', error });
        return;
      }
      failures += 1;
      schedule(tokenRefreshBackoffMs(failures));
    });
  }

  function refresh(): Promise<TokenSession> {
    if (pending) return pending;
    const seen = current?.idToken ?? null;
    const started = generation;
    const run = deps.locks.request(TOKEN_REFRESH_LOCK, async () => {
      if (started !== generation) throw new Error('signed out while waiting to refresh');
      // Another tab may have refreshed while this one waited for the lock and shared the result.
      const latest = current;
      if (latest && latest.idToken !== seen && isRecent(latest) && !isDue(latest)) return latest;
      const session = fromResponse(await deps.refresh());
      if (started !== generation) throw new Error('signed out while refreshing');
      install(session);
      deps.channel.postMessage({ type: 'session', session });
      return session;
    });
    pending = run;
    const clear = (): void => {
      if (pending === run) pending = null;
    };
    run.then(clear, clear);
    return run;
  }

  function stop(options: { announce?: boolean } = {}): void {
    generation += 1;
    cancelTimer();
    if (options.announce && current) {
      deps.channel.postMessage({ type: 'signed-out', userId: current.user.id });
    }
    current = null;
    pending = null;
    failures = 0;
  }

  function onMessage(message: unknown): void {
    if (!isSessionMessage(message)) return;
    if (message.type === 'signed-out') {
      if (current?.user.id !== message.userId) return;
      stop();
      emit({ type: 'signed-out-elsewhere' });
      return;
    }
    const shared = message.session;
    if (!isRecent(shared)) return;
    // A signed-in tab takes a newer token of its own user; a tab restoring its session takes any.
    const accepts = current
      ? shared.user.id === current.user.id && shared.expiresAt >= current.expiresAt
      : pending !== null;
    if (accepts) install(shared);
  }

  const unsubscribe = deps.channel.subscribe(onMessage);

  return {
    adopt(response) {
      generation += 1;
      pending = null;
      const session = fromResponse(response);
      install(session);
      return session;
    },
    session: () => current,
    token: () => current?.idToken ?? null,
    refresh,
    wake() {
      if (current && isDue(current) && !pending && failures === 0) runScheduled();
    },
    stop,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      stop();
      unsubscribe();
      deps.channel.close();
    },
  };
}
