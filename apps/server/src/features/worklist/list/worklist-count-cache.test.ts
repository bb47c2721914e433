// The count cache on its own: when an entry still counts for a moved date window, and when it is dead.
import { describe, expect, it } from 'vitest';
import { WorklistCountCache, windowStillCounts, type TCountWindow } from './worklist-count-cache.ts';

const t = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes));
const ms = (minutes: number) => t(minutes).getTime();
const win = (from: number | null, to: number | null, inclusive = true): TCountWindow => ({
  from: from === null ? null : t(from),
  to: to === null ? null : { at: t(to), inclusive },
});
const ORG = 'org-1';

describe('windowStillCounts', () => {
  it('holds while the lower bound has not passed the first study at or after it', () => {
    const edges = { firstFrom: ms(10), nextTo: null };
    expect(windowStillCounts(win(0, 60), edges, win(0, 60))).toBe(true);
    expect(windowStillCounts(win(0, 60), edges, win(10, 60))).toBe(true);
    expect(windowStillCounts(win(0, 60), edges, win(11, 60))).toBe(false);
    expect(windowStillCounts(win(0, 60), { firstFrom: null, nextTo: null }, win(50, 60))).toBe(true);
    // Backwards: studies before from0 were never counted.
    expect(windowStillCounts(win(5, 60), edges, win(4, 60))).toBe(false);
  });

  it('holds while the upper bound has not reached the next study after it', () => {
    const edges = { firstFrom: null, nextTo: ms(70) };
    expect(windowStillCounts(win(0, 60), edges, win(0, 69))).toBe(true);
    expect(windowStillCounts(win(0, 60), edges, win(0, 70))).toBe(false);
    expect(windowStillCounts(win(0, 60), { firstFrom: null, nextTo: null }, win(0, 600))).toBe(true);
    expect(windowStillCounts(win(0, 60), edges, win(0, 59))).toBe(false);
    // Exclusive upper bound: a study exactly at `to` is still outside.
    const exclusive = { firstFrom: null, nextTo: ms(70) };
    expect(windowStillCounts(win(0, 60, false), exclusive, win(0, 70, false))).toBe(true);
    expect(windowStillCounts(win(0, 60, false), exclusive, win(0, 71, false))).toBe(false);
  });

  it('never mixes open and closed bounds, or inclusive and exclusive ends', () => {
    const edges = { firstFrom: null, nextTo: null };
    expect(windowStillCounts(win(null, 60), edges, win(0, 60))).toBe(false);
    expect(windowStillCounts(win(0, null), edges, win(0, 60))).toBe(false);
    expect(windowStillCounts(win(0, 60, true), edges, win(0, 60, false))).toBe(false);
    expect(windowStillCounts(win(null, null), edges, win(null, null))).toBe(true);
  });
});

describe('WorklistCountCache', () => {
  const edges = { firstFrom: null, nextTo: null };

  it('serves a stored count until a change of its organisation', () => {
    const cache = new WorklistCountCache();
    const ticket = cache.ticket(ORG);
    if (!ticket) throw new Error('no ticket');
    cache.set('k', ticket, win(0, 60), edges, 42);
    expect(cache.get('k', ORG, win(0, 61))).toBe(42);
    cache.invalidate('another-org');
    expect(cache.get('k', ORG, win(0, 61))).toBe(42);
    cache.invalidate(ORG);
    expect(cache.get('k', ORG, win(0, 61))).toBeUndefined();
  });

  it('does not store a count read while a change was heard of', () => {
    const cache = new WorklistCountCache();
    const ticket = cache.ticket(ORG);
    if (!ticket) throw new Error('no ticket');
    cache.invalidate(ORG);
    cache.set('k', ticket, win(0, 60), edges, 42);
    expect(cache.get('k', ORG, win(0, 60))).toBeUndefined();
    const cleared = cache.ticket(ORG);
    if (!cleared) throw new Error('no ticket');
    cache.clear();
    cache.set('k', cleared, win(0, 60), edges, 42);
    expect(cache.get('k', ORG, win(0, 60))).toBeUndefined();
  });

  it('serves and stores nothing while unreliable or disabled', () => {
    const cache = new WorklistCountCache();
    const ticket = cache.ticket(ORG);
    if (!ticket) throw new Error('no ticket');
    cache.set('k', ticket, win(0, 60), edges, 42);
    cache.reliable = false;
    expect(cache.get('k', ORG, win(0, 60))).toBeUndefined();
    expect(cache.ticket(ORG)).toBeNull();
    cache.reliable = true;
    cache.enabled = false;
    expect(cache.ticket(ORG)).toBeNull();
    expect(cache.get('k', ORG, win(0, 60))).toBeUndefined();
  });

  it('is bounded: least recently used first out, and entries age out', () => {
    let now = 0;
    const cache = new WorklistCountCache({ maxEntries: 2, maxAgeMs: 1000, now: () => now });
    const put = (key: string) => {
      const ticket = cache.ticket(ORG);
      if (ticket) cache.set(key, ticket, win(0, 60), edges, key);
    };
    put('a');
    put('b');
    expect(cache.get('a', ORG, win(0, 60))).toBe('a');
    put('c');
    expect(cache.size).toBe(2);
    expect(cache.get('b', ORG, win(0, 60))).toBeUndefined();
    expect(cache.get('a', ORG, win(0, 60))).toBe('a');
    now = 1001;
    expect(cache.get('c', ORG, win(0, 60))).toBeUndefined();
  });
});

describe('WorklistCountCache.through', () => {
  /** A read that finishes when told to, counting how often it ran. */
  function gatedRead(value: number) {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const read = {
      runs: 0,
      release,
      compute: async () => {
        read.runs += 1;
        await gate;
        return { value, edges: { firstFrom: null, nextTo: null } };
      },
    };
    return read;
  }

  it('reads once for every request that misses the same key together', async () => {
    const cache = new WorklistCountCache();
    const read = gatedRead(7);
    const answers = Promise.all(
      Array.from({ length: 5 }, () => cache.through('k', ORG, win(0, 60), read.compute)),
    );
    read.release();
    expect(await answers).toEqual([7, 7, 7, 7, 7]);
    expect(read.runs).toBe(1);
    // Kept: the next request is answered without a read.
    const later = gatedRead(8);
    expect(await cache.through('k', ORG, win(0, 60), later.compute)).toBe(7);
    expect(later.runs).toBe(0);
  });

  it('does not hand a read begun before a change to a request that came after it', async () => {
    const cache = new WorklistCountCache();
    const before = gatedRead(1);
    const first = cache.through('k', ORG, win(0, 60), before.compute);
    cache.invalidate(ORG);
    const after = gatedRead(2);
    const second = cache.through('k', ORG, win(0, 60), after.compute);
    after.release();
    before.release();
    expect(await second).toBe(2);
    expect(await first).toBe(1);
    expect(after.runs).toBe(1);
    // The read begun before the change was not kept; the one after it was.
    expect(await cache.through('k', ORG, win(0, 60), gatedRead(3).compute)).toBe(2);
  });

  it('reads anew when the shared read is not valid for the window asked', async () => {
    const cache = new WorklistCountCache();
    const shared = {
      runs: 0,
      compute: async () => {
        shared.runs += 1;
        // A study right after the first window's end: a later end must count it.
        return { value: 1, edges: { firstFrom: null, nextTo: ms(65) } };
      },
    };
    const [a, b] = await Promise.all([
      cache.through('k', ORG, win(0, 60), shared.compute),
      cache.through('k', ORG, win(0, 70), async () => ({ value: 2, edges: null })),
    ]);
    expect([a, b]).toEqual([1, 2]);
  });
});
