// Settings of the render pool (render-pool.ts), apart from it so the server's config can name them
// without loading the pool.
import { availableParallelism } from 'node:os';

export type TRenderSettings = {
  /** Renders at once, each in its own worker thread (RENDER_THREADS). */
  threads: number;
  /** Time budget of one render once it has a thread, in ms (RENDER_TIMEOUT_MS). */
  timeoutMs: number;
  /** Heap (old generation) limit of a render worker, in MB (RENDER_MEMORY_MB). */
  memoryMb: number;
  /** Renders that may wait for a thread; one more is refused as busy (RENDER_QUEUE_MAX). */
  maxQueue: number;
};

/**
 * Threads by default: the cores less one for the main thread, at least 2 (so one long render does
 * not hold up every other) and at most 4 (renders are short and rare).
 */
export function defaultRenderThreads(cores = availableParallelism()): number {
  return Math.min(4, Math.max(2, cores - 1));
}

/**
 * Measured (BENCHMARKS.md): a 1,000,000-character report renders as PDF in 2-3 s on a quiet core and
 * 4-7 s on a busy 2-core machine, and needs more than 64 MB of heap (128 MB works, with much garbage
 * collection); the budgets leave room for a busy machine.
 */
export const DEFAULT_RENDER_SETTINGS: TRenderSettings = {
  threads: defaultRenderThreads(),
  timeoutMs: 30_000,
  memoryMb: 512,
  maxQueue: 32,
};
