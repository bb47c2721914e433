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
