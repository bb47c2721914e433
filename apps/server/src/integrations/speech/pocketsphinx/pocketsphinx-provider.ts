// The offline speech engine (issue 17): CMU PocketSphinx in a pool of worker threads, so decoding
// never runs on the main thread. A stream stays on one worker (its decoder holds the utterance);
// a new stream goes to the worker with the fewest streams. Workers start on first use.
//
// Every request to a worker is answered in order; a worker that has work and answers nothing for
// `timeoutMs` is hung: its streams fail with ENGINE_TIMEOUT and it is replaced. A worker that dies fails its streams with ENGINE_UNAVAILABLE. Audio is never
// logged; the worker sees samples and model paths only.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  SpeechEngineError,
  type SpeechProvider,
  type SpeechStream,
  type SpeechStreamOptions,
} from '../speech-provider.ts';
import { CMU_DICT_PATH, GENERIC_LM_PATH } from './pocketsphinx-library.ts';
import type { TWorkerReply, TWorkerRequest } from './pocketsphinx-worker.ts';

export { pocketsphinxAvailable } from './pocketsphinx-library.ts';

export type TLanguageModelFiles = { lmPath: string; dictPath: string };

export type TPocketsphinxProviderOptions = {
  /** The organisation's own model; null → the generic en-us model. */
  languageModelFor(organisationId: string): Promise<TLanguageModelFiles | null>;
  /** Worker threads (default: the machine's cores). */
  workers?: number;
  /** A worker with work that answers nothing this long is hung (default 10 s). */
  timeoutMs?: number;
};

export type TPocketsphinxProvider = SpeechProvider & { close(): Promise<void> };

const fromSource = import.meta.url.endsWith('.ts');
const SOURCE_CONDITION = '--conditions=ris-source';

/** The worker's entry beside this module: .js in dist/, .ts from source (as documents/render-pool). */
function startWorker(): Worker {
  const file = new URL(fromSource ? './pocketsphinx-worker.ts' : './pocketsphinx-worker.js', import.meta.url);
  const execArgv = [...process.execArgv];
  if (fromSource && !execArgv.includes(SOURCE_CONDITION)) execArgv.push(SOURCE_CONDITION);
  return new Worker(file, { execArgv });
}

type TStreamHandlers = {
  onPartial(text: string): void;
  onFinal(text: string): void;
  /** The answer to this stream's oldest unanswered request. */
  onDone(): void;
  onFailed(error: SpeechEngineError): void;
};

/** One worker thread, its streams and its unanswered requests (oldest first). */
class DecoderThread {
  readonly streams = new Map<number, TStreamHandlers>();
  /** Requests not answered yet, and when the worker last answered one (or got work while idle). */
  #pending = 0;
  #progressAt = 0;
  readonly #worker = startWorker();
  readonly #onGone: (thread: DecoderThread) => void;
  #dead = false;

  constructor(onGone: (thread: DecoderThread) => void) {
    this.#onGone = onGone;
    this.#worker.on('message', (reply: TWorkerReply) => this.#receive(reply));
    this.#worker.on('error', () => this.fail('ENGINE_UNAVAILABLE', 'The offline speech engine stopped'));
    this.#worker.on('exit', () => this.fail('ENGINE_UNAVAILABLE', 'The offline speech engine stopped'));
  }

  get alive(): boolean {
    return !this.#dead;
  }

  send(request: TWorkerRequest): void {
    if (this.#dead) return;
    if (this.#pending === 0) this.#progressAt = Date.now();
    this.#pending++;
    if (request.kind === 'audio') this.#worker.postMessage(request, [request.samples.buffer as ArrayBuffer]);
    else this.#worker.postMessage(request);
  }

  /**
   * How long the worker has had work without answering any of it (0 when idle). Not the age of the
   * oldest request: a recording fed at once queues minutes of audio that the worker works through.
   */
  stalledMs(now: number): number {
    return this.#pending === 0 ? 0 : now - this.#progressAt;
  }

  /** Fails every stream of this worker and stops it; the pool starts a fresh one when needed. */
  fail(code: 'ENGINE_UNAVAILABLE' | 'ENGINE_TIMEOUT', message: string): void {
    if (this.#dead) return;
    this.#dead = true;
    this.#onGone(this);
    const streams = [...this.streams.values()];
    this.streams.clear();
    for (const stream of streams) stream.onFailed(new SpeechEngineError(code, message));
    // A thread blocked inside a native call stops when that call returns.
    void this.#worker.terminate().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.#dead = true;
    await this.#worker.terminate();
  }

  #receive(reply: TWorkerReply): void {
    const handlers = this.streams.get(reply.stream);
    this.#progressAt = Date.now();
    if (reply.kind === 'done' || reply.kind === 'failed') this.#pending--;
    if (!handlers) return;
    if (reply.kind === 'partial') handlers.onPartial(reply.text);
    else if (reply.kind === 'final') handlers.onFinal(reply.text);
    else if (reply.kind === 'done') handlers.onDone();
    else handlers.onFailed(new SpeechEngineError('ENGINE_UNAVAILABLE', 'The offline speech engine failed'));
  }
}

/** PocketSphinx as a SpeechProvider; close() stops its workers (server shutdown). */
export function createPocketsphinxProvider(options: TPocketsphinxProviderOptions): TPocketsphinxProvider {
  const size = Math.max(1, options.workers ?? availableParallelism());
  const timeoutMs = options.timeoutMs ?? 10_000;
  const threads: DecoderThread[] = [];
  let nextStream = 1;
  let closed = false;

  const watchdog = setInterval(
    () => {
      const now = Date.now();
      for (const thread of [...threads]) {
        if (thread.stalledMs(now) > timeoutMs) {
          thread.fail('ENGINE_TIMEOUT', 'The offline speech engine did not answer in time');
        }
      }
    },
    Math.max(50, Math.min(1_000, timeoutMs / 4)),
  );
  watchdog.unref();

  function pickThread(): DecoderThread {
    if (threads.length < size) {
      const thread = new DecoderThread((gone) => {
        const index = threads.indexOf(gone);
        if (index >= 0) threads.splice(index, 1);
      });
      threads.push(thread);
      return thread;
    }
    return threads.reduce((best, thread) => (thread.streams.size < best.streams.size ? thread : best));
  }

  const provider: TPocketsphinxProvider = {
    name: 'pocketsphinx',
    async open(streamOptions) {
      if (closed) throw new SpeechEngineError('ENGINE_UNAVAILABLE', 'The offline speech engine is shut down');
      // No model of its own yet (or it cannot be read): the generic English model still dictates.
      const files = await options.languageModelFor(streamOptions.organisationId).catch(() => null);
      return openStream(pickThread(), nextStream++, files, streamOptions);
    },
    async close() {
      closed = true;
      clearInterval(watchdog);
      const all = threads.splice(0);
      await Promise.all(all.map((thread) => thread.close()));
    },
  };
  return provider;
}

/** Opens a decoder on the thread; resolves once it is ready for audio. */
function openStream(
  thread: DecoderThread,
  id: number,
  files: TLanguageModelFiles | null,
  handlers: SpeechStreamOptions,
): Promise<SpeechStream> {
  return new Promise((resolveOpen, rejectOpen) => {
    let state: 'opening' | 'open' | 'ending' | 'closed' = 'opening';
    let unanswered = 0;
    let ended: Promise<void> | null = null;
    let settleEnd: { resolve(): void; reject(error: SpeechEngineError): void } | null = null;

    const send = (request: TWorkerRequest): void => {
      unanswered++;
      thread.send(request);
    };
    const close = (): void => {
      state = 'closed';
      thread.streams.delete(id);
    };

    const stream: SpeechStream = {
      write(pcm) {
        if (state !== 'open') return;
        if (pcm.length % 2 !== 0) throw new SpeechEngineError('BAD_AUDIO', 'Audio must be 16-bit samples');
        // A copy the worker owns (transferred, not cloned); s16le is the host's order on x86 and ARM.
        const samples = new Int16Array(pcm.length / 2);
        Buffer.from(samples.buffer).set(pcm);
        send({ kind: 'audio', stream: id, samples });
      },
      end() {
        if (ended) return ended;
        if (state !== 'open') return Promise.resolve();
        state = 'ending';
        ended = new Promise<void>((resolve, reject) => {
          settleEnd = { resolve, reject };
        });
        send({ kind: 'end', stream: id });
        return ended;
      },
      abort() {
        if (state === 'closed') return;
        close();
        thread.send({ kind: 'abort', stream: id });
      },
    };

    thread.streams.set(id, {
      onPartial: (text) => {
        if (state === 'open' || state === 'ending') handlers.onPartial(text);
      },
      onFinal: (text) => {
        if (state === 'open' || state === 'ending') handlers.onFinal(text, null);
      },
      onDone: () => {
        unanswered--;
        if (state === 'opening') {
          state = 'open';
          resolveOpen(stream);
        } else if (state === 'ending' && unanswered === 0) {
          close();
          settleEnd?.resolve();
        }
      },
      onFailed: (error) => {
        const was = state;
        close();
        if (was === 'opening') rejectOpen(error);
        else if (was !== 'closed') {
          handlers.onError(error);
          settleEnd?.reject(error);
        }
      },
    });
    send({
      kind: 'open',
      stream: id,
      lmPath: files?.lmPath ?? GENERIC_LM_PATH,
      dictPath: files?.dictPath ?? CMU_DICT_PATH,
    });
  });
}
