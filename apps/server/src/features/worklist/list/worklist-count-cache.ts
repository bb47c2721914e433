/**
 * Exact worklist counts (the list's `total`, the tabs' counts) kept in memory between changes, so the
 * busiest read does not count thousands of index entries on every request.
 *
 * An entry is the count of the studies matching one caller scope and filter set over one date window
 * [from0, to0], read in one snapshot. It is served only while nothing can have changed it:
 * - No study of the organisation changed since. Every committed change is announced: in this process
 *   by app.events ('worklist.item.changed' / 'worklist.item.deleted', emitted after commit), from the
 *   other replicas by PostgreSQL NOTIFY (worklist-count-invalidation.ts). Either bumps the
 *   organisation's generation; an entry of an older generation is dead. A count read while a change
 *   committed is not stored (the generation moved while it ran), so nothing older than the last
 *   change this replica heard of is ever served.
 * - The window moved over no matching study. Presets move with the clock (LAST_1_WEEK is now−7 days
 *   … now): each entry keeps the first matching created_at at or after from0 and the first after
 *   to0, read in the same statement as the count, and serves a later window [from, to] only while
 *   from has not passed the first (no study left the window) and to has not reached the next (no
 *   study entered it). Both are floored to the millisecond, which can only make the test stricter.
 * - The listener is connected (`reliable`): while NOTIFY may be missed, nothing is served or stored.
 *
 * Bounded: at most `maxEntries` entries (least recently used dropped first), each at most `maxAgeMs`
 * old (a safety net, not a correctness device). Callers never cache what depends on data no study
 * change announces (see worklist-cache-keys.ts: searches and referring physicians are not cached).
 */

/** The date window a count covers: created_at ≥ from, and ≤ / < to; null = open. */
export type TCountWindow = {
  from: Date | null;
  to: { at: Date; inclusive: boolean } | null;
};

/** What the counting statement reads next to the count, for the window checks (epoch ms, floored). */
export type TWindowEdges = {
  /** The first matching created_at at or after from0 (null: none, or no lower bound). */
  firstFrom: number | null;
  /** The first matching created_at after to0 (at or after when exclusive; null: none, or no upper bound). */
  nextTo: number | null;
};

type TEntry = {
  organisationId: string;
  epoch: number;
  generation: number;
  storedAt: number;
  maxAgeMs: number;
  window: TCountWindow;
  edges: TWindowEdges;
  value: unknown;
};

/** Taken before counting; the count is stored only if no change was heard of in between. */
export type TCountTicket = { organisationId: string; epoch: number; generation: number };

/** A cache lookup: the count when cached, else whether to read the window edges and how to keep it. */
export type TCountLookup<TValue> = {
  value: TValue | undefined;
  /** Read the window edges with the count (it will be kept). */
  readEdges: boolean;
  /** Keeps the count read (with its edges), unless a change was heard of since the lookup. */
  store(value: TValue, edges: TWindowEdges | null): void;
};

export type TCountCacheOptions = {
  maxEntries?: number;
  maxAgeMs?: number;
  now?: () => number;
};

/** Whether an entry counted over `stored` (with its edges) is the count over `wanted`. */
export function windowStillCounts(stored: TCountWindow, edges: TWindowEdges, wanted: TCountWindow): boolean {
  if ((stored.from === null) !== (wanted.from === null)) return false;
  if (stored.from && wanted.from) {
    const from0 = stored.from.getTime();
    const from = wanted.from.getTime();
    // Studies in [from0, from) left the window: there must be none.
    if (from < from0) return false;
    if (from > from0 && edges.firstFrom !== null && edges.firstFrom < from) return false;
  }
  if ((stored.to === null) !== (wanted.to === null)) return false;
  if (stored.to && wanted.to) {
    if (stored.to.inclusive !== wanted.to.inclusive) return false;
    const to0 = stored.to.at.getTime();
    const to = wanted.to.at.getTime();
    // Studies in (to0, to] (inclusive) or [to0, to) (exclusive) entered the window: there must be none.
    if (to < to0) return false;
    if (to > to0 && edges.nextTo !== null) {
      if (wanted.to.inclusive ? edges.nextTo <= to : edges.nextTo < to) return false;
    }
  }
  return true;
}

export class WorklistCountCache {
  /** False while changes may go unheard (the NOTIFY listener is not connected): nothing is served. */
  reliable = true;
  /** False turns the cache off (benchmarks measure the uncached path); nothing is served or stored. */
  enabled = true;
  readonly #entries = new Map<string, TEntry>();
  /** Reads in flight (see through()), by epoch, generation and key. */
  readonly #flights = new Map<string, Promise<void>>();
  readonly #generations = new Map<string, number>();
  /** Bumped by clear(): every entry and every ticket taken before is dead. */
  #epoch = 0;
  readonly #maxEntries: number;
  readonly #maxAgeMs: number;
  readonly #now: () => number;

  constructor(options: TCountCacheOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 5_000;
    this.#maxAgeMs = options.maxAgeMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  #generation(organisationId: string): number {
    return this.#generations.get(organisationId) ?? 0;
  }

  /** The count stored under `key` if it is still the count over `window`, else undefined. */
  get<TValue>(key: string, organisationId: string, window: TCountWindow): TValue | undefined {
    if (!this.enabled || !this.reliable) return undefined;
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (
      entry.organisationId !== organisationId ||
      entry.epoch !== this.#epoch ||
      entry.generation !== this.#generation(organisationId) ||
      this.#now() - entry.storedAt > entry.maxAgeMs ||
      !windowStillCounts(entry.window, entry.edges, window)
    ) {
      this.#entries.delete(key);
      return undefined;
    }
    // Most recently used last (Map keeps insertion order).
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value as TValue;
  }

  /** Take before the counting statement starts; null when nothing would be stored. */
  ticket(organisationId: string): TCountTicket | null {
    if (!this.enabled || !this.reliable) return null;
    return { organisationId, epoch: this.#epoch, generation: this.#generation(organisationId) };
  }

  /**
   * Stores a count read over `window`, unless a change was heard of since `ticket` was taken.
   * `maxAgeMs` shortens the entry's life below the cache's (never lengthens it).
   */
  set(
    key: string,
    ticket: TCountTicket,
    window: TCountWindow,
    edges: TWindowEdges,
    value: unknown,
    maxAgeMs?: number,
  ): void {
    if (!this.enabled || !this.reliable) return;
    if (ticket.epoch !== this.#epoch || ticket.generation !== this.#generation(ticket.organisationId)) return;
    this.#entries.delete(key);
    this.#entries.set(key, {
      organisationId: ticket.organisationId,
      epoch: ticket.epoch,
      generation: ticket.generation,
      storedAt: this.#now(),
      maxAgeMs: Math.min(maxAgeMs ?? this.#maxAgeMs, this.#maxAgeMs),
      window,
      edges,
      value,
    });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
  }

  /** get, then a ticket on a miss: `key` null = not cacheable (counted every time, never kept). */
  lookup<TValue>(
    key: string | null,
    organisationId: string,
    window: TCountWindow,
    options: { maxAgeMs?: number } = {},
  ): TCountLookup<TValue> {
    const value = key === null ? undefined : this.get<TValue>(key, organisationId, window);
    const ticket = key === null || value !== undefined ? null : this.ticket(organisationId);
    return {
      value,
      readEdges: ticket !== null,
      store: (counted, edges) => {
        if (key !== null && ticket && edges) this.set(key, ticket, window, edges, counted, options.maxAgeMs);
      },
    };
  }

  /**
   * The value under `key`: from the cache, else read by `compute` once for every request that misses
   * together. A request that misses while the same key is being read under the same generation waits
   * for that read and takes what it stored if that is valid for its own window; otherwise (or with
   * no read in flight) it reads itself. Without this, every change made each request in flight on a
   * busy key read it again at once (32 connections: 32 reads per change). `compute(readEdges)` reads
   * the value, with the window edges when asked (then it is kept).
   */
  async through<TValue>(
    key: string | null,
    organisationId: string,
    window: TCountWindow,
    compute: (readEdges: boolean) => Promise<{ value: TValue; edges: TWindowEdges | null }>,
    options: { maxAgeMs?: number } = {},
  ): Promise<TValue> {
    const lookup = this.lookup<TValue>(key, organisationId, window, options);
    if (lookup.value !== undefined) return lookup.value;
    const flightKey =
      key !== null && lookup.readEdges ? `${this.#epoch} ${this.#generation(organisationId)} ${key}` : null;
    const flight = flightKey === null ? undefined : this.#flights.get(flightKey);
    if (key !== null && flight) {
      await flight;
      const shared = this.get<TValue>(key, organisationId, window);
      if (shared !== undefined) return shared;
    }
    let landed = () => {};
    const own = new Promise<void>((resolve) => (landed = resolve));
    if (flightKey !== null && !flight) this.#flights.set(flightKey, own);
    try {
      const { value, edges } = await compute(lookup.readEdges);
      lookup.store(value, edges);
      return value;
    } finally {
      if (flightKey !== null && this.#flights.get(flightKey) === own) this.#flights.delete(flightKey);
      landed();
    }
  }

  /** A study of the organisation changed (committed): its counts are dead. */
  invalidate(organisationId: string): void {
    this.#generations.set(organisationId, (this.#generations.get(organisationId) ?? 0) + 1);
  }

  /** Forget everything (e.g. the listener reconnected: changes may have been missed). */
  clear(): void {
    this.#epoch += 1;
    this.#entries.clear();
  }
}
