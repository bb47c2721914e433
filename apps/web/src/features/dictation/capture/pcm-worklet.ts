// The AudioWorklet processor of dictation: microphone audio (any rate, any channels) → 16 kHz mono
// s16le frames of 100 ms, posted to the page with their RMS level. Loaded by capture.ts through
// Vite's `?worker&url`, so it is a same-origin file that the app's CSP (script-src 'self') allows.
import { FrameCollector, StreamResampler, downmix, rms, toInt16LE } from './pcm-resampler.ts';

// The AudioWorkletGlobalScope is not in TypeScript's DOM library.
declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(
  name: string,
  processor: new (options: { processorOptions: TPcmWorkletOptions }) => AudioWorkletProcessor,
): void;

/** Given by capture.ts (the rate is the domain's; this file imports nothing to stay small). */
export interface TPcmWorkletOptions {
  outputRate: number;
}

/** What the processor posts: a frame of PCM with the level of its audio, or the end of a flush. */
export type TPcmWorkletMessage = { type: 'frame'; pcm: ArrayBuffer; level: number } | { type: 'flushed' };

class PcmProcessor extends AudioWorkletProcessor {
  private readonly resampler: StreamResampler;
  private readonly frames: FrameCollector;

  constructor(options: { processorOptions: TPcmWorkletOptions }) {
    super();
    const { outputRate } = options.processorOptions;
    this.resampler = new StreamResampler(sampleRate, outputRate);
    // Frames of 100 ms.
    this.frames = new FrameCollector(Math.round(outputRate / 10), (frame) => {
      const pcm = toInt16LE(frame);
      const message: TPcmWorkletMessage = { type: 'frame', pcm, level: rms(frame) };
      this.port.postMessage(message, [pcm]);
    });
    this.port.onmessage = (event: MessageEvent<unknown>) => {
      if (event.data !== 'flush') return;
      this.frames.flush();
      const done: TPcmWorkletMessage = { type: 'flushed' };
      this.port.postMessage(done);
    };
  }

  process(inputs: Float32Array[][]): boolean {
    const input = inputs[0];
    if (input && input.length > 0) this.frames.push(this.resampler.push(downmix(input)));
    return true;
  }
}

registerProcessor('ris-pcm', PcmProcessor);
