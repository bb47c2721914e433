// One interface for every speech engine the server talks to (issue 17). The speech socket
// (features/dictation) opens one stream per dictation and feeds it the browser's audio; recorded
// dictations go through the same stream. Engines never see who the patient is, and nothing here logs
// audio.
import type { TDictationSegment, TSpeechErrorCode, TSpeechProvider } from '@ris/domain';

/** Why a stream failed, in the terms the user is shown (codes of the speech socket's 'error'). */
export type TSpeechEngineErrorCode = Extract<
  TSpeechErrorCode,
  'ENGINE_UNAVAILABLE' | 'ENGINE_REFUSED_CREDENTIALS' | 'ENGINE_TIMEOUT' | 'BAD_AUDIO'
>;

export class SpeechEngineError extends Error {
  readonly code: TSpeechEngineErrorCode;

  constructor(code: TSpeechEngineErrorCode, message: string) {
    super(message);
    this.name = 'SpeechEngineError';
    this.code = code;
  }
}

export type SpeechStreamHandlers = {
  /** The engine's current guess for the words since the last final. */
  onPartial(text: string): void;
  /**
   * Settled words. `segments` when the engine itself recognised commands (Augnito's IsCommand and
   * Action); null when the caller must read the text with the dictation grammar.
   */
  onFinal(text: string, segments: TDictationSegment[] | null): void;
  /** The stream cannot go on; no handler is called after this. */
  onError(error: SpeechEngineError): void;
};

export type SpeechStreamOptions = SpeechStreamHandlers & {
  organisationId: string;
  /** The dictating user (Augnito's usertag); never the patient. */
  userId: string;
};

/** One dictation: 16 kHz s16le mono PCM in, partial and final text out. */
export interface SpeechStream {
  /** Audio (any length, an even number of bytes). */
  write(pcm: Buffer): void;
  /** End of speech: resolves after the last onFinal has been called. */
  end(): Promise<void>;
  /** Drop the stream now (the socket closed); no handler is called after this. */
  abort(): void;
}

export interface SpeechProvider {
  readonly name: Exclude<TSpeechProvider, 'browser' | 'off'>;
  /** Rejects with SpeechEngineError when the engine is down or refuses the credentials. */
  open(options: SpeechStreamOptions): Promise<SpeechStream>;
}
