// One dictation over the speech socket (issue 17), as a state machine independent of the WebSocket
// library: 'start' (token, report) is checked before any audio is accepted, then binary PCM frames
// go to the organisation's engine, partials and finals come back, 'stop' flushes the engine. Every
// failure ends the stream with one 'error' message the user can read. Audio and the token are never
// logged.
import {
  DICTATION_MAX_FRAME_BYTES,
  DICTATION_SAMPLE_RATE,
  ZSpeechClientMessage,
  type TDictationSegment,
  type TSpeechErrorCode,
  type TSpeechProvider,
  type TSpeechServerMessage,
} from '@ris/domain';
import type { TPrincipal } from '../../../auth/principal.ts';
import {
  SpeechEngineError,
  type SpeechProvider,
  type SpeechStream,
} from '../../../integrations/speech/speech-provider.ts';
import { readDictation } from '../dictation-text.ts';

/** A refusal the user is told about ('error' message, then the socket closes). */
export class SpeechRefusal extends Error {
  readonly code: TSpeechErrorCode;

  constructor(code: TSpeechErrorCode, message: string) {
    super(message);
    this.name = 'SpeechRefusal';
    this.code = code;
  }
}

export type TSpeechSessionDeps = {
  send(message: TSpeechServerMessage): void;
  /** Closes the socket (after the last message has been sent). */
  close(code: number): void;
  /** The verified, current principal of an ID token (SpeechRefusal UNAUTHENTICATED otherwise). */
  authenticate(token: string): Promise<TPrincipal>;
  /**
   * Checks that the user may edit the report now (SpeechRefusal NOT_FOUND / FORBIDDEN otherwise) and
   * answers the organisation's engine (SpeechRefusal DICTATION_OFF when it has none on the server).
   */
  admit(
    principal: TPrincipal,
    reportId: string,
  ): Promise<{ provider: SpeechProvider; name: TSpeechProvider }>;
  /** Whether the user still may edit the report, asked before each final is sent. */
  stillAllowed(principal: TPrincipal, reportId: string): Promise<boolean>;
  /** Takes a slot for one more stream of this user (SpeechRefusal BUSY); returns its release. */
  reserve(userId: string): () => void;
  maxStreamSeconds: number;
  engineTimeoutMs: number;
  /** A started dictation that receives no audio this long is stopped as if the client had said stop. */
  idleMs: number;
  /** Logs a failure without audio or token. */
  logFailure(error: unknown): void;
};

type TState = 'waiting' | 'opening' | 'streaming' | 'stopping' | 'ended';

const CLOSE_NORMAL = 1000;
const CLOSE_POLICY = 1008;

export class SpeechSession {
  readonly #deps: TSpeechSessionDeps;
  #state: TState = 'waiting';
  #stream: SpeechStream | null = null;
  #release: (() => void) | null = null;
  #principal: TPrincipal | null = null;
  #reportId = '';
  #samples = 0;
  #idleTimer: NodeJS.Timeout | null = null;
  /** Finals go out one after another, each after its access check. */
  #finals: Promise<void> = Promise.resolve();

  constructor(deps: TSpeechSessionDeps) {
    this.#deps = deps;
  }

  get state(): TState {
    return this.#state;
  }

  /** Read through a getter so that narrowing across awaits does not hide a change. */
  get #ended(): boolean {
    return this.#state === 'ended';
  }

  /** A text frame from the client. */
  text(raw: string): void {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = null;
    }
    const parsed = ZSpeechClientMessage.safeParse(json);
    if (!parsed.success) {
      this.#fail('BAD_MESSAGE', 'The dictation client sent a message the server does not understand.');
      return;
    }
    const message = parsed.data;
    if (message.type === 'start') {
      if (this.#state !== 'waiting') {
        this.#fail('BAD_MESSAGE', 'This dictation has already started.');
        return;
      }
      this.#state = 'opening';
      this.#start(message.token, message.report_id).catch((error: unknown) => this.#failWith(error));
      return;
    }
    if (this.#state !== 'streaming') {
      this.#fail('BAD_MESSAGE', 'Stop was sent before the dictation was ready.');
      return;
    }
    this.#stop();
  }

  /** A binary frame from the client: s16le PCM at 16 kHz. */
  audio(frame: Buffer): void {
    if (this.#state === 'stopping' || this.#state === 'ended') return;
    if (this.#state !== 'streaming' || !this.#stream) {
      this.#fail('BAD_MESSAGE', 'Audio was sent before the server said it was ready.');
      return;
    }
    if (frame.byteLength % 2 !== 0 || frame.byteLength > DICTATION_MAX_FRAME_BYTES) {
      this.#fail(
        'BAD_AUDIO',
        'The audio is not in the expected format (16 kHz, 16-bit mono, at most 1 s a frame).',
      );
      return;
    }
    // An empty frame carries nothing: not passed on (a flood of them would reach a paid engine).
    if (frame.byteLength === 0) return;
    this.#samples += frame.byteLength / 2;
    this.#keepAlive();
    if (this.#samples > this.#deps.maxStreamSeconds * DICTATION_SAMPLE_RATE) {
      this.#fail(
        'TOO_LONG',
        `A dictation may last at most ${Math.round(this.#deps.maxStreamSeconds / 60) || 1} min; start a new one to go on.`,
      );
      return;
    }
    this.#stream.write(frame);
  }

  /** The socket closed (by the client or the network): drop the engine's stream. */
  closed(): void {
    if (this.#state !== 'ended') this.#stream?.abort();
    this.#finish();
  }

  /** The server is shutting down. */
  shutdown(): void {
    this.#fail('ENGINE_UNAVAILABLE', 'The server is restarting; dictate again in a moment.', 1001);
  }

  /** The start message arrived and no other start came first: the time to say none came is over. */
  get started(): boolean {
    return this.#state !== 'waiting';
  }

  async #start(token: string, reportId: string): Promise<void> {
    const principal = await this.#deps.authenticate(token);
    if (this.#state !== 'opening') return;
    const { provider, name } = await this.#deps.admit(principal, reportId);
    if (this.#state !== 'opening') return;
    this.#release = this.#deps.reserve(principal.userId);
    this.#principal = principal;
    this.#reportId = reportId;
    const opening = provider.open({
      organisationId: principal.organisationId ?? '',
      userId: principal.userId,
      onPartial: (text) => {
        if (this.#state === 'streaming' || this.#state === 'stopping')
          this.#deps.send({ type: 'partial', text });
      },
      onFinal: (text, segments) => this.#final(text, segments),
      onError: (error) => this.#failWith(error),
    });
    let stream: SpeechStream;
    try {
      stream = await this.#withTimeout(opening, 'The speech engine did not answer in time; try again.');
    } catch (error) {
      // A stream that opens after the time-out is dropped at once.
      opening.then(
        (late) => late.abort(),
        () => undefined,
      );
      throw error;
    }
    if (this.#state !== 'opening') {
      stream.abort();
      return;
    }
    this.#stream = stream;
    this.#state = 'streaming';
    this.#deps.send({ type: 'ready', provider: name });
    this.#keepAlive();
  }

  /** Audio arrived: the idle time starts again (a client streams silence too while dictating). */
  #keepAlive(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => this.#stop(), this.#deps.idleMs);
  }

  #final(text: string, segments: TDictationSegment[] | null): void {
    if (this.#state !== 'streaming' && this.#state !== 'stopping') return;
    const principal = this.#principal;
    if (!principal) return;
    this.#finals = this.#finals.then(async () => {
      if (this.#ended) return;
      if (!(await this.#deps.stillAllowed(principal, this.#reportId))) {
        this.#fail('FORBIDDEN', 'You may no longer edit this report; dictation stopped.');
        return;
      }
      if (this.#ended) return;
      const read = segments ?? readDictation(text);
      this.#deps.send({ type: 'final', text, segments: read });
      if (
        this.#state === 'streaming' &&
        read.some((s) => s.kind === 'command' && s.command === 'stop-dictation')
      )
        this.#stop();
    });
    this.#finals.catch((error: unknown) => this.#failWith(error));
  }

  #stop(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    const stream = this.#stream;
    if (this.#state !== 'streaming' || !stream) return;
    this.#state = 'stopping';
    this.#withTimeout(stream.end(), 'The speech engine did not finish in time; what was typed is kept.')
      .then(() => this.#finals)
      .then(() => {
        if (this.#state !== 'stopping') return;
        this.#deps.send({ type: 'ended' });
        this.#state = 'ended';
        this.#finish();
        this.#deps.close(CLOSE_NORMAL);
      })
      .catch((error: unknown) => this.#failWith(error));
  }

  #withTimeout<T>(promise: Promise<T>, message: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new SpeechEngineError('ENGINE_TIMEOUT', message)),
        this.#deps.engineTimeoutMs,
      );
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  #failWith(error: unknown): void {
    if (error instanceof SpeechRefusal || error instanceof SpeechEngineError) {
      this.#fail(error.code, error.message);
      return;
    }
    this.#deps.logFailure(error);
    this.#fail('ENGINE_UNAVAILABLE', 'Dictation failed on the server; try again.');
  }

  #fail(code: TSpeechErrorCode, message: string, closeCode = CLOSE_POLICY): void {
    if (this.#state === 'ended') return;
    this.#state = 'ended';
    this.#stream?.abort();
    this.#finish();
    this.#deps.send({ type: 'error', code, message });
    this.#deps.close(closeCode);
  }

  #finish(): void {
    this.#state = 'ended';
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    this.#release?.();
    this.#release = null;
  }
}
