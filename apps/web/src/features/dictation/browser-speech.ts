// The browser's own speech recognition (Web Speech API), used only when the organisation allows it:
// the audio then goes to the browser's vendor, not to the RIS. Its finals are parsed with the same
// grammar as the server's engines, so voice commands work the same.
import type { TDictationSegment } from '@ris/domain';

/** The part of the Web Speech API used here (not in TypeScript's DOM library). */
interface TRecognitionResultEvent {
  resultIndex: number;
  results: SpeechRecognitionResultList;
}
interface TRecognition {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  onresult: ((event: TRecognitionResultEvent) => void) | null;
  onerror: ((event: { error: string; message?: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
type TRecognitionConstructor = new () => TRecognition;

function recognitionConstructor(): TRecognitionConstructor | null {
  const scope = globalThis as unknown as {
    SpeechRecognition?: TRecognitionConstructor;
    webkitSpeechRecognition?: TRecognitionConstructor;
  };
  return scope.SpeechRecognition ?? scope.webkitSpeechRecognition ?? null;
}

/** Whether this browser has speech recognition at all. */
export function browserSpeechSupported(): boolean {
  return recognitionConstructor() !== null;
}

export interface TBrowserSpeechOptions {
  lang: string;
  parse: (transcript: string) => TDictationSegment[];
  onPartial: (text: string) => void;
  onFinal: (text: string, segments: TDictationSegment[]) => void;
  onEnded: (error: { code: string; message: string } | null) => void;
}

const ERROR_MESSAGES: Record<string, string> = {
  'not-allowed': 'The browser was not allowed to use the microphone.',
  'audio-capture': 'No microphone was found.',
  network: "The browser's speech service could not be reached.",
  'service-not-allowed': "The browser's speech service is not available here.",
};

/** Starts the browser's recognition; `stop` ends it after its last final. */
export function startBrowserSpeech(options: TBrowserSpeechOptions): { stop(): void; close(): void } {
  const Recognition = recognitionConstructor();
  if (!Recognition) {
    options.onEnded({ code: 'UNSUPPORTED', message: 'This browser has no speech recognition.' });
    return { stop: () => undefined, close: () => undefined };
  }
  const recognition = new Recognition();
  recognition.continuous = true;
  recognition.interimResults = true;
  recognition.lang = options.lang;
  let failure: { code: string; message: string } | null = null;
  let closed = false;
  recognition.onresult = (event) => {
    let interim = '';
    for (let i = event.resultIndex; i < event.results.length; i += 1) {
      const result = event.results[i];
      const transcript = result?.[0]?.transcript ?? '';
      if (!result) continue;
      if (result.isFinal) {
        options.onPartial('');
        if (transcript.trim() !== '') options.onFinal(transcript, options.parse(transcript));
      } else {
        interim += transcript;
      }
    }
    if (interim !== '') options.onPartial(interim.trim());
  };
  recognition.onerror = (event) => {
    if (event.error === 'no-speech' || event.error === 'aborted') return;
    failure = {
      code: event.error,
      message: ERROR_MESSAGES[event.error] ?? `Speech recognition failed (${event.error}).`,
    };
  };
  recognition.onend = () => {
    if (!closed) options.onEnded(failure);
    closed = true;
  };
  recognition.start();
  return {
    stop: () => recognition.stop(),
    close: () => {
      closed = true;
      recognition.abort();
    },
  };
}
