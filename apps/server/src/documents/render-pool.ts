// Report rendering off the main thread: a small pool of worker threads (piscina) with a time and a
// memory budget per render, so no document, however large or hostile, stops the server answering.
//
// At most `threads` renders run at once; up to `maxQueue` more wait their turn (first come, first
// served); past that a render is refused at once (BUSY). A render's time budget starts when it gets
// a thread: a render still running when it ends has its worker terminated (TIMEOUT); a worker that
// outgrows its heap limit dies (MEMORY). Either way the pool starts a fresh worker for the next one.
// Workers start on first use (not at server start), run at a lower CPU priority than the main thread
// and stop after a minute idle.
import { EventEmitter } from 'node:events';
import { Piscina } from 'piscina';
import type { TReportDocumentInput } from './report-document.ts';
import { DEFAULT_RENDER_SETTINGS, type TRenderSettings } from './render-settings.ts';
import type { TRenderFormat, TRenderTask } from './render-worker.ts';

export type { TRenderFormat } from './render-worker.ts';
export type { TRenderSettings } from './render-settings.ts';

export type TRenderFailure = 'TIMEOUT' | 'MEMORY' | 'BUSY';

/** A render the pool gave up on; features/report-output answers it as 422 or 503. */
export class DocumentRenderError extends Error {
  readonly reason: TRenderFailure;

  constructor(reason: TRenderFailure, message: string) {
    super(message);
    this.name = 'DocumentRenderError';
    this.reason = reason;
  }
}

const fromSource = import.meta.url.endsWith('.ts');
const SOURCE_CONDITION = '--conditions=ris-source';

/** The worker's entry beside this module: render-worker.js in dist/, render-worker.ts from source. */
function workerOptions(): { filename: string; execArgv: string[] } {
  const filename = new URL(fromSource ? './render-worker.ts' : './render-worker.js', import.meta.url).href;
  const execArgv = [...process.execArgv];
  // From source (vitest, tsx) the worker loads TypeScript the way Node strips it, and the workspace
  // packages from their source: the same condition the process was started with.
  if (fromSource && !execArgv.includes(SOURCE_CONDITION)) execArgv.push(SOURCE_CONDITION);
  return { filename, execArgv };
}

function isOutOfMemory(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY';
}

/** 'start': a render got its thread (tests and the bench wait for it instead of sleeping). */
type TRenderPoolEvents = { start: [format: TRenderFormat] };

export class RenderPool extends EventEmitter<TRenderPoolEvents> {
  readonly settings: TRenderSettings;
  #pool: Piscina<TRenderTask, Uint8Array> | null = null;
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(settings: TRenderSettings) {
    super();
    this.settings = settings;
  }

  /** Renders in a worker thread. Throws DocumentRenderError (BUSY, TIMEOUT, MEMORY) past a budget. */
  async render(format: TRenderFormat, input: TReportDocumentInput): Promise<Buffer> {
    await this.#acquire();
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    try {
      this.emit('start', format);
      const bytes = await this.#piscina().run({ format, input }, { signal });
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      if (signal.aborted) {
        const { timeoutMs } = this.settings;
        const budget = timeoutMs < 1_000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1_000)} s`;
        throw new DocumentRenderError('TIMEOUT', `The document could not be rendered within ${budget}`);
      }
      if (isOutOfMemory(error)) {
        throw new DocumentRenderError('MEMORY', 'The document needs more memory to render than allowed');
      }
      throw error;
    } finally {
      this.#release();
    }
  }

  /** Renders running now and waiting for a thread. */
  get load(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#waiting.length };
  }

  /** Stops the workers once their renders are done (piscina's own close timeout forces the rest). */
  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = null;
    await pool?.close();
  }

  #piscina(): Piscina<TRenderTask, Uint8Array> {
    this.#pool ??= new Piscina<TRenderTask, Uint8Array>({
      ...workerOptions(),
      name: 'default',
      minThreads: 0,
      maxThreads: this.settings.threads,
      idleTimeout: 60_000,
      // Workers run at a lower CPU priority (Linux: nice +10, per thread): on a busy machine the main
      // thread, which answers every request, goes first.
      niceIncrement: 10,
      resourceLimits: { maxOldGenerationSizeMb: this.settings.memoryMb },
    });
    // A task's own failure reaches its run(); a worker that fails before it takes a task (e.g. out of
    // memory while loading) is reported here only, and the task waiting for it ends with its budget.
    this.#pool.on('error', () => undefined);
    return this.#pool;
  }

  #acquire(): Promise<void> {
    if (this.#running < this.settings.threads) {
      this.#running++;
      return Promise.resolve();
    }
    if (this.#waiting.length >= this.settings.maxQueue) {
      return Promise.reject(
        new DocumentRenderError('BUSY', 'Too many documents are being rendered; try again shortly'),
      );
    }
    // The slot passes straight from the render that releases it (#running stays the same).
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#running--;
  }
}

let current: RenderPool | null = null;
let settings = DEFAULT_RENDER_SETTINGS;

/** Sets the process's render settings (the server's config); a pool with other settings is replaced. */
export function configureRendering(next: TRenderSettings): void {
  settings = next;
  const old = current;
  if (old && JSON.stringify(old.settings) !== JSON.stringify(next)) {
    current = null;
    // Renders already running on the old pool finish; its workers stop when they are idle.
    void old.close().catch(() => undefined);
  }
}

/** The process's render pool (created on first use). */
export function renderPool(): RenderPool {
  current ??= new RenderPool(settings);
  return current;
}

/** Renders the report as PDF or DOCX in a worker thread of the process's pool. */
export function renderDocument(format: TRenderFormat, input: TReportDocumentInput): Promise<Buffer> {
  return renderPool().render(format, input);
}

/** Stops the process's render workers (server shutdown); a later render starts a new pool. */
export async function closeRendering(): Promise<void> {
  const old = current;
  current = null;
  await old?.close();
}
