// Microphone capture for dictation: getUserMedia (echo cancellation and noise suppression on) →
// AudioContext → the PCM worklet (16 kHz s16le frames of 100 ms with their level).
import { DICTATION_SAMPLE_RATE } from '@ris/domain';
import workletUrl from './pcm-worklet.ts?worker&url';
import type { TPcmWorkletMessage, TPcmWorkletOptions } from './pcm-worklet.ts';

export interface TCaptureHandlers {
  /** A frame of 16 kHz s16le mono PCM and its RMS level (0-1). */
  onFrame: (pcm: ArrayBuffer, level: number) => void;
}

export interface TCapture {
  /** Hands over the last partial frame, then releases the microphone and the audio context. */
  stop(): Promise<void>;
}

function isWorkletMessage(data: unknown): data is TPcmWorkletMessage {
  return typeof data === 'object' && data !== null && 'type' in data;
}

/** Starts capturing; rejects (NotAllowedError, NotFoundError…) when there is no microphone to use. */
export async function startCapture(handlers: TCaptureHandlers): Promise<TCapture> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
  });
  let context: AudioContext | null = null;
  try {
    context = new AudioContext();
    await context.audioWorklet.addModule(workletUrl);
    const source = context.createMediaStreamSource(stream);
    const processorOptions: TPcmWorkletOptions = { outputRate: DICTATION_SAMPLE_RATE };
    const node = new AudioWorkletNode(context, 'ris-pcm', {
      numberOfInputs: 1,
      numberOfOutputs: 0,
      processorOptions,
    });
    let flushed: (() => void) | null = null;
    node.port.onmessage = (event: MessageEvent<unknown>) => {
      if (!isWorkletMessage(event.data)) return;
      if (event.data.type === 'frame') handlers.onFrame(event.data.pcm, event.data.level);
      else flushed?.();
    };
    source.connect(node);
    const running = context;
    if (running.state === 'suspended') await running.resume();
    let stopping: Promise<void> | null = null;
    return {
      stop() {
        stopping ??= (async () => {
          for (const track of stream.getTracks()) track.stop();
          source.disconnect();
          await new Promise<void>((resolve) => {
            flushed = resolve;
            node.port.postMessage('flush');
            // A context that is no longer running answers nothing: do not wait for it.
            if (running.state !== 'running') resolve();
          });
          node.port.onmessage = null;
          await running.close().catch(() => undefined);
        })();
        return stopping;
      },
    };
  } catch (error) {
    for (const track of stream.getTracks()) track.stop();
    await context?.close().catch(() => undefined);
    throw error;
  }
}
