// The Web Speech API is the browser vendor's service: a stand-in recognition object plays its part
// (results, errors, end) as Chromium's does.
import { parseDictation } from '@ris/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserSpeechSupported, startBrowserSpeech } from './browser-speech.ts';

type TResult = { isFinal: boolean; 0: { transcript: string }; length: 1 };

class StandInRecognition {
  static last: StandInRecognition | null = null;
  continuous = false;
  interimResults = false;
  lang = '';
  started = false;
  onresult: ((event: { resultIndex: number; results: TResult[] }) => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  onend: (() => void) | null = null;
  constructor() {
    StandInRecognition.last = this;
  }
  start() {
    this.started = true;
  }
  stop() {
    this.onend?.();
  }
  abort() {
    this.onend?.();
  }
  say(resultIndex: number, results: [string, boolean][]) {
    this.onresult?.({
      resultIndex,
      results: results.map(([transcript, isFinal]) => ({ isFinal, 0: { transcript }, length: 1 })),
    });
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  StandInRecognition.last = null;
});

function recognition(): StandInRecognition {
  const last = StandInRecognition.last;
  if (!last) throw new Error('no recognition started');
  return last;
}

describe("the browser's speech recognition", () => {
  it('streams interim results as partials and parses finals into text and commands', () => {
    vi.stubGlobal('webkitSpeechRecognition', StandInRecognition);
    expect(browserSpeechSupported()).toBe(true);
    const events: string[] = [];
    const speech = startBrowserSpeech({
      lang: 'en-GB',
      parse: (text) => parseDictation(text),
      onPartial: (text) => events.push(`partial ${text}`),
      onFinal: (_text, segments) => events.push(`final ${JSON.stringify(segments)}`),
      onEnded: (error) => events.push(`ended ${error?.code ?? 'ok'}`),
    });
    expect(recognition()).toMatchObject({
      continuous: true,
      interimResults: true,
      lang: 'en-GB',
      started: true,
    });
    recognition().say(0, [['liver is', false]]);
    recognition().say(0, [
      ['liver is normal full stop new paragraph', true],
      [' spleen', false],
    ]);
    speech.stop();
    expect(events).toEqual([
      'partial liver is',
      'partial ',
      'final [{"kind":"text","text":"Liver is normal."},{"kind":"command","command":"new-paragraph"}]',
      'partial spleen',
      'ended ok',
    ]);
  });

  it('reports why it stopped; silence is not an error; close ends without a call', () => {
    vi.stubGlobal('SpeechRecognition', StandInRecognition);
    const ended: unknown[] = [];
    startBrowserSpeech({
      lang: 'en-US',
      parse: (text) => [{ kind: 'text', text }],
      onPartial: () => undefined,
      onFinal: () => undefined,
      onEnded: (error) => ended.push(error),
    });
    recognition().onerror?.({ error: 'no-speech' });
    recognition().onerror?.({ error: 'not-allowed' });
    recognition().onend?.();
    expect(ended).toEqual([
      { code: 'not-allowed', message: 'The browser was not allowed to use the microphone.' },
    ]);

    const quiet: unknown[] = [];
    const speech = startBrowserSpeech({
      lang: 'en-US',
      parse: (text) => [{ kind: 'text', text }],
      onPartial: () => undefined,
      onFinal: () => undefined,
      onEnded: (error) => quiet.push(error),
    });
    speech.close();
    expect(quiet).toEqual([]);
  });

  it('says so when the browser has none', () => {
    expect(browserSpeechSupported()).toBe(false);
    const ended: unknown[] = [];
    startBrowserSpeech({
      lang: 'en',
      parse: () => [],
      onPartial: () => undefined,
      onFinal: () => undefined,
      onEnded: (error) => ended.push(error),
    });
    expect(ended).toEqual([{ code: 'UNSUPPORTED', message: 'This browser has no speech recognition.' }]);
  });
});
