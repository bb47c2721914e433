import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_REFRESH_LEAD_MS, type TSessionResponse } from '@ris/domain';
import { ApiError } from '../../api/api-error.ts';
import { createLocalLocks, type LockManagerLike } from './cross-tab.ts';
import { buildUser, createChannelHub, deferred, sessionResponse } from './test-support.ts';
import {
  createTokenRefresher,
  TOKEN_REFRESH_JITTER_MS,
  type RefresherEvent,
  type SessionMessage,
  type TokenRefresher,
} from './token-refresher.ts';

const HOUR_S = 3600;
const SECOND = 1000;

/** A fake /auth/refresh shared by every tab of a test: counts calls, hands out t2, t3, … */
function fakeServer(answer?: () => Promise<TSessionResponse>) {
  const calls: number[] = [];
  let issued = 1;
  return {
    calls,
    refresh: () => {
      calls.push(Date.now());
      if (answer) return answer();
      issued += 1;
      return Promise.resolve(sessionResponse(`t${issued}`));
    },
  };
}

function tab(
  server: { refresh: () => Promise<TSessionResponse> },
  shared: { locks: LockManagerLike; hub: ReturnType<typeof createChannelHub<SessionMessage>> },
  // No jitter unless a test is about it: the schedule is then exact.
  jitter: () => number = () => 0,
): { refresher: TokenRefresher; events: RefresherEvent[] } {
  const refresher = createTokenRefresher({
    refresh: server.refresh,
    locks: shared.locks,
    channel: shared.hub.connect(),
    jitter,
  });
  const events: RefresherEvent[] = [];
  refresher.subscribe((event) => void events.push(event));
  return { refresher, events };
}

function browser() {
  return { locks: createLocalLocks(), hub: createChannelHub<SessionMessage>() };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('token refresher: schedule', () => {
  it('refreshes TOKEN_REFRESH_LEAD_MS (5 minutes) before the token expires', async () => {
    const server = fakeServer();
    const { refresher } = tab(server, browser());
    refresher.adopt(sessionResponse('t1', buildUser(), HOUR_S));
    expect(refresher.token()).toBe('t1');

    await vi.advanceTimersByTimeAsync(HOUR_S * SECOND - TOKEN_REFRESH_LEAD_MS - 1);
    expect(server.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.calls).toEqual([55 * 60 * SECOND]);
    expect(refresher.token()).toBe('t2');
    // The new token is refreshed on the same rule, from the moment it was obtained.
    await vi.advanceTimersByTimeAsync(HOUR_S * SECOND - TOKEN_REFRESH_LEAD_MS);
    expect(server.calls).toHaveLength(2);
  });

  it('starts each scheduled refresh up to TOKEN_REFRESH_JITTER_MS (30 s) earlier, at random by default', async () => {
    expect(TOKEN_REFRESH_JITTER_MS).toBe(30 * SECOND);
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    try {
      const server = fakeServer();
      const refresher = createTokenRefresher({
        refresh: server.refresh,
        locks: createLocalLocks(),
        channel: createChannelHub<SessionMessage>().connect(),
      });
      refresher.adopt(sessionResponse('t1', buildUser(), HOUR_S));
      const due = HOUR_S * SECOND - TOKEN_REFRESH_LEAD_MS;
      await vi.advanceTimersByTimeAsync(due - 15 * SECOND - 1);
      expect(server.calls).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(server.calls).toEqual([due - 15 * SECOND]);
    } finally {
      random.mockRestore();
    }
  });

  it('never refreshes earlier than the jitter bound, whatever the jitter source answers', async () => {
    const server = fakeServer();
    const { refresher } = tab(server, browser(), () => 10 * TOKEN_REFRESH_JITTER_MS);
    refresher.adopt(sessionResponse('t1', buildUser(), HOUR_S));
    const earliest = HOUR_S * SECOND - TOKEN_REFRESH_LEAD_MS - TOKEN_REFRESH_JITTER_MS;
    await vi.advanceTimersByTimeAsync(earliest - 1);
    expect(server.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.calls).toEqual([earliest]);
  });

  it('tabs without a shared lock (plain http) do not refresh together: the later one takes the shared token', async () => {
    const hub = createChannelHub<SessionMessage>();
    const server = fakeServer();
    // Each tab has only its own in-tab lock, as where navigator.locks is missing.
    const early = tab(server, { locks: createLocalLocks(), hub }, () => 20 * SECOND);
    const late = tab(server, { locks: createLocalLocks(), hub }, () => 5 * SECOND);
    const response = sessionResponse('t1', buildUser(), HOUR_S);
    early.refresher.adopt(response);
    late.refresher.adopt(response);
    await vi.advanceTimersByTimeAsync(HOUR_S * SECOND);
    expect(server.calls).toEqual([HOUR_S * SECOND - TOKEN_REFRESH_LEAD_MS - 20 * SECOND]);
    expect(late.refresher.token()).toBe('t2');
    expect(early.refresher.token()).toBe('t2');
  });

  it('backs off 30 s, doubling to 960 s, after failed refreshes, then returns to the normal schedule', async () => {
    let failing = true;
    let issued = 1;
    const server = fakeServer(() => {
      if (failing) return Promise.reject(new ApiError({ status: 503 }));
      issued += 1;
      return Promise.resolve(sessionResponse(`t${issued}`));
    });
    const { refresher, events } = tab(server, browser());
    refresher.adopt(sessionResponse('t1'));

    await vi.advanceTimersByTimeAsync(HOUR_S * SECOND - TOKEN_REFRESH_LEAD_MS);
    for (let i = 0; i < 7; i += 1) await vi.advanceTimersByTimeAsync(960 * SECOND);
    const gaps = server.calls.slice(1).map((at, i) => (at - (server.calls[i] ?? 0)) / SECOND);
    expect(gaps.slice(0, 7)).toEqual([30, 60, 120, 240, 480, 960, 960]);
    expect(refresher.token()).toBe('t1');
    expect(events).toEqual([]);

    failing = false;
    await vi.advanceTimersByTimeAsync(960 * SECOND);
    expect(refresher.token()).toBe('t2');
    const succeededAt = server.calls.at(-1) ?? 0;
    const afterSuccess = server.calls.length;
    await vi.advanceTimersByTimeAsync(succeededAt + HOUR_S * SECOND - TOKEN_REFRESH_LEAD_MS - 1 - Date.now());
    expect(server.calls).toHaveLength(afterSuccess);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.calls).toHaveLength(afterSuccess + 1);
  });

  it('ends the session when a scheduled refresh answers 401', async () => {
    const server = fakeServer(() =>
      Promise.reject(new ApiError({ status: 401, code: 'auth/id-token-revoked' })),
    );
    const { refresher, events } = tab(server, browser());
    refresher.adopt(sessionResponse('t1'));
    await vi.advanceTimersByTimeAsync(HOUR_S * SECOND);
    expect(events).toHaveLength(1);
    expect(events[0]?.type).toBe('ended');
    expect(refresher.token()).toBeNull();
    await vi.advanceTimersByTimeAsync(HOUR_S * SECOND);
    expect(server.calls).toHaveLength(1);
  });

  it('shares one request between concurrent refreshes of one tab', async () => {
    const server = fakeServer();
    const { refresher } = tab(server, browser());
    refresher.adopt(sessionResponse('t1'));
    const [a, b] = await Promise.all([refresher.refresh(), refresher.refresh()]);
    expect(a).toBe(b);
    expect(server.calls).toHaveLength(1);
  });
});

describe('token refresher: tabs', () => {
  it('lets one tab refresh at a time; the other takes the token it shared', async () => {
    const answer = deferred<TSessionResponse>();
    const server = fakeServer(() => answer.promise);
    const shared = browser();
    const a = tab(server, shared);
    const b = tab(server, shared);
    a.refresher.adopt(sessionResponse('t1'));
    b.refresher.adopt(sessionResponse('t1'));

    // Both tabs hold the same token, so both timers fire together.
    await vi.advanceTimersByTimeAsync(HOUR_S * SECOND - TOKEN_REFRESH_LEAD_MS);
    expect(server.calls).toHaveLength(1);
    answer.resolve(sessionResponse('t2'));
    await vi.advanceTimersByTimeAsync(0);

    expect(server.calls).toHaveLength(1);
    expect(a.refresher.token()).toBe('t2');
    expect(b.refresher.token()).toBe('t2');
    expect(shared.hub.sent).toEqual([{ type: 'session', session: a.refresher.session() }]);
  });

  it('a tab restoring its session waits for the lock and reuses the token another tab just got', async () => {
    const answer = deferred<TSessionResponse>();
    const server = fakeServer(() => answer.promise);
    const shared = browser();
    const a = tab(server, shared);
    const b = tab(server, shared);
    a.refresher.adopt(sessionResponse('t1'));

    const first = a.refresher.refresh();
    const restored = b.refresher.refresh();
    answer.resolve(sessionResponse('t2'));
    expect((await first).idToken).toBe('t2');
    expect((await restored).idToken).toBe('t2');
    expect(b.refresher.session()?.user.id).toBe(buildUser().id);
    expect(server.calls).toHaveLength(1);
  });

  it('refreshes again when the other tab refreshed long ago', async () => {
    const server = fakeServer();
    const shared = browser();
    const a = tab(server, shared);
    const b = tab(server, shared);
    a.refresher.adopt(sessionResponse('t1'));
    b.refresher.adopt(sessionResponse('t1'));
    await a.refresher.refresh();
    await vi.advanceTimersByTimeAsync(0);
    expect(b.refresher.token()).toBe('t2');
    // B is told its token expired (e.g. the server's clock): it must ask the server, not reuse t2.
    await b.refresher.refresh();
    expect(server.calls).toHaveLength(2);
    expect(b.refresher.token()).toBe('t3');
  });

  it('signs the other tabs of the same user out', async () => {
    const server = fakeServer();
    const shared = browser();
    const a = tab(server, shared);
    const b = tab(server, shared);
    const other = tab(fakeServer(), shared);
    a.refresher.adopt(sessionResponse('t1'));
    b.refresher.adopt(sessionResponse('t1'));
    other.refresher.adopt(sessionResponse('x1', buildUser({ id: '00000000-0000-4000-8000-0000000000b2' })));

    a.refresher.stop({ announce: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(b.events).toEqual([{ type: 'signed-out-elsewhere' }]);
    expect(b.refresher.token()).toBeNull();
    expect(other.refresher.token()).toBe('x1');
    // Neither signed-out tab refreshes any more.
    await vi.advanceTimersByTimeAsync(2 * HOUR_S * SECOND);
    expect(server.calls).toEqual([]);
  });

  it('ignores a shared token of another user and a stale one', async () => {
    const shared = browser();
    const b = tab(fakeServer(), shared);
    b.refresher.adopt(sessionResponse('t1'));
    const sender = shared.hub.connect();
    const obtainedAt = Date.now();
    const session = { idToken: 'evil', expiresAt: obtainedAt + 7200_000, obtainedAt };
    sender.postMessage({
      type: 'session',
      session: { ...session, user: buildUser({ id: '00000000-0000-4000-8000-0000000000b2' }) },
    });
    sender.postMessage({
      type: 'session',
      session: { ...session, obtainedAt: obtainedAt - 600_000, user: buildUser() },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(b.refresher.token()).toBe('t1');
  });

  it('does not revive a session signed out while its refresh waited for the lock', async () => {
    const answer = deferred<TSessionResponse>();
    const server = fakeServer(() => answer.promise);
    const shared = browser();
    const a = tab(server, shared);
    const b = tab(server, shared);
    a.refresher.adopt(sessionResponse('t1'));
    b.refresher.adopt(sessionResponse('t1'));
    const first = a.refresher.refresh();
    const waiting = b.refresher.refresh();
    b.refresher.stop();
    answer.resolve(sessionResponse('t2'));
    await first;
    await expect(waiting).rejects.toThrow(/signed out/);
    expect(b.refresher.token()).toBeNull();
  });
});
