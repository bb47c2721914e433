// One dictation at a time in the reporting screen: the microphone streamed to the RIS's speech
// socket (or the browser's own recognition when the organisation chose it), partial text shown at
// the caret, finals applied to the report in order, the stream ended cleanly on stop or error.
import type { TDictationSegment, TSpeechProvider } from '@ris/domain';
import type { Editor } from '@tiptap/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { sessionBridge } from '../../api/session-bridge.ts';
import { startBrowserSpeech } from './browser-speech.ts';
import { startCapture, type TCapture } from './capture/capture.ts';
import { applySegments, type TDictationContext, type TDictationSources } from './editor/apply-segments.ts';
import { partialTextPlugin, partialTextKey, showPartialText } from './editor/partial-text.ts';
import { openSpeechSocket, speechSocketUrl } from './speech-socket.ts';

export type TDictationStatus = 'idle' | 'starting' | 'listening' | 'stopping';

export interface TDictationOptions {
  editor: Editor | null;
  reportId: string;
  /** The organisation's engine ('off' never starts). */
  provider: TSpeechProvider;
  macros: TDictationSources['macros'];
  findTemplate: TDictationSources['findTemplate'];
  /** Parses a transcript of the browser's recognition into text and commands. */
  parse: (transcript: string) => TDictationSegment[];
}

export interface TDictation {
  status: TDictationStatus;
  /** RMS level of the last 100 ms of microphone audio (0-1); 0 when not capturing. */
  level: number;
  /** Why the last dictation stopped early, or what a command could not do. */
  message: { kind: 'error' | 'notice'; text: string } | null;
  start: () => void;
  stop: () => void;
}

/** How long a stop waits for the server's last words before the stream is closed anyway. */
const STOP_GRACE_MS = 15_000;

interface TActive {
  stop: () => Promise<void>;
  close: () => void;
}

function microphoneError(error: unknown): string {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return "The microphone is blocked: allow it in the browser's settings for this site.";
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'No microphone was found.';
  if (name === 'NotReadableError') return 'The microphone is in use by another application.';
  return 'The microphone could not be started.';
}

export function useDictation(options: TDictationOptions): TDictation {
  const { editor, reportId, provider } = options;
  const [status, setStatus] = useState<TDictationStatus>('idle');
  const [level, setLevel] = useState(0);
  const [message, setMessage] = useState<TDictation['message']>(null);
  const active = useRef<TActive | null>(null);
  const generation = useRef(0);
  const stopTimer = useRef<number | undefined>(undefined);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const last = useRef<TDictationContext['last']>({ insertion: null });
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });

  // The partial text's plugin lives as long as the editor.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    if (!partialTextKey.get(editor.state)) editor.registerPlugin(partialTextPlugin());
    return () => {
      if (!editor.isDestroyed) editor.unregisterPlugin(partialTextKey);
    };
  }, [editor]);

  const finish = useCallback(
    (run: number, error: string | null) => {
      if (run !== generation.current) return;
      window.clearTimeout(stopTimer.current);
      active.current = null;
      setStatus('idle');
      setLevel(0);
      if (editor) showPartialText(editor, '');
      if (error) setMessage({ kind: 'error', text: error });
    },
    [editor],
  );

  const stop = useCallback(() => {
    const current = active.current;
    if (!current) return;
    const run = generation.current;
    setStatus('stopping');
    void current.stop();
    window.clearTimeout(stopTimer.current);
    stopTimer.current = window.setTimeout(() => {
      if (run !== generation.current || active.current !== current) return;
      current.close();
      finish(run, 'The speech service did not answer; the dictation was stopped.');
    }, STOP_GRACE_MS);
  }, [finish]);

  const start = useCallback(() => {
    if (!editor || editor.isDestroyed || !editor.isEditable || active.current || provider === 'off') return;
    generation.current += 1;
    const run = generation.current;
    setMessage(null);
    setStatus('starting');
    editor.commands.focus();
    const context: TDictationContext = {
      findTemplate: (name) => latest.current.findTemplate(name),
      macros: () => latest.current.macros(),
      stop: () => stop(),
      notice: (text) => setMessage({ kind: 'notice', text }),
      last: last.current,
    };
    const onPartial = (text: string) => {
      if (run === generation.current) showPartialText(editor, text);
    };
    const onFinal = (_text: string, segments: TDictationSegment[]) => {
      showPartialText(editor, '');
      queue.current = queue.current
        .then(() => applySegments(editor, segments, context))
        .catch(() => undefined);
    };

    if (provider === 'browser') {
      const speech = startBrowserSpeech({
        lang: document.documentElement.lang || navigator.language || 'en-GB',
        parse: (transcript) => latest.current.parse(transcript),
        onPartial,
        onFinal,
        onEnded: (error) => finish(run, error?.message ?? null),
      });
      active.current = { stop: async () => speech.stop(), close: () => speech.close() };
      setStatus((current) => (current === 'starting' ? 'listening' : current));
      return;
    }

    const token = sessionBridge.token();
    if (!token) {
      finish(run, 'You are signed out: sign in again to dictate.');
      return;
    }
    let capture: TCapture | null = null;
    let ended = false;
    const socket = openSpeechSocket({
      url: speechSocketUrl(window.location),
      token,
      reportId,
      onReady: () => setStatus((current) => (current === 'starting' ? 'listening' : current)),
      onPartial,
      onFinal,
      onEnded: (error) => {
        ended = true;
        void capture?.stop();
        finish(run, error?.message ?? null);
      },
    });
    active.current = {
      stop: async () => {
        await capture?.stop();
        socket.stop();
      },
      close: () => {
        void capture?.stop();
        socket.close();
      },
    };
    startCapture({
      onFrame: (pcm, frameLevel) => {
        socket.sendAudio(pcm);
        setLevel(frameLevel);
      },
    }).then(
      (started) => {
        capture = started;
        if (ended || run !== generation.current) void started.stop();
      },
      (error: unknown) => {
        socket.close();
        finish(run, microphoneError(error));
      },
    );
  }, [editor, provider, reportId, finish, stop]);

  // Leaving the screen (or another report) ends the stream and releases the microphone.
  useEffect(
    () => () => {
      generation.current += 1;
      window.clearTimeout(stopTimer.current);
      active.current?.close();
      active.current = null;
    },
    [editor, reportId],
  );

  return { status, level, message, start, stop };
}
