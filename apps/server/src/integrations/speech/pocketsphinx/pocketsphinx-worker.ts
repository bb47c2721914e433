// The worker-thread side of the PocketSphinx pool (pocketsphinx-provider.ts): one decoder per open
// stream, reused across streams with the same language model (loading one takes a few hundred
// milliseconds). Loaded from dist/ (pocketsphinx-worker.js) or, in tests and `npm run dev`, from
// source with --conditions=ris-source. Every request gets exactly one reply, in order: the pool's
// watchdog counts unanswered requests to find a hung worker.
import { parentPort } from 'node:worker_threads';
import { loadPocketsphinx, type TDecoder } from './pocketsphinx-library.ts';

export type TWorkerRequest =
  | { kind: 'open'; stream: number; lmPath: string; dictPath: string }
  | { kind: 'audio'; stream: number; samples: Int16Array }
  | { kind: 'end'; stream: number }
  | { kind: 'abort'; stream: number };

/** `done` answers the request of the same stream; partial and final come before it. */
export type TWorkerReply =
  | { kind: 'partial'; stream: number; text: string }
  | { kind: 'final'; stream: number; text: string }
  | { kind: 'done'; stream: number }
  | { kind: 'failed'; stream: number; message: string };

/** 16 kHz: a partial at most every 250 ms of speech, audio fed in 100 ms steps (VAD reacts per step). */
const SAMPLE_RATE = 16_000;
const PARTIAL_EVERY_SAMPLES = SAMPLE_RATE / 4;
const STEP_SAMPLES = SAMPLE_RATE / 10;
/** Idle decoders kept per language model, and in all (each holds the acoustic model: ~10-20 MB). */
const IDLE_PER_MODEL = 4;
const IDLE_TOTAL = 8;

/**
 * Decoder settings: the voice activity detector ends an utterance after 200 ms of silence (the
 * default 500 ms would put the final past the 500 ms goal). The default beams: narrower ones
 * doubled the word error rate in the dictation bench for little speed.
 */
export const DECODER_ARGS = ['-vad_postspeech', '20'] as const;

/**
 * The first utterance of a stream is decoded a second time once it ends: cepstral mean
 * normalisation starts from the model's guess of a microphone and only learns this one's at the end
 * of an utterance, so the first pass often gets the first sentence wrong. Up to 20 s of it is kept.
 */
const FIRST_UTTERANCE_MAX_SAMPLES = 20 * SAMPLE_RATE;

type TDecoding = {
  key: string;
  decoder: TDecoder;
  speaking: boolean;
  sincePartial: number;
  lastPartial: string;
  /** The stream's audio until its first utterance ends (null after it, or when it grew too long). */
  firstUtterance: { steps: Int16Array[]; samples: number } | null;
};

const decodings = new Map<number, TDecoding>();
const idle = new Map<string, TDecoder[]>();
let idleCount = 0;

function reply(message: TWorkerReply): void {
  parentPort?.postMessage(message);
}

function takeDecoder(lmPath: string, dictPath: string, key: string): TDecoder {
  const cached = idle.get(key)?.pop();
  if (cached) {
    idleCount--;
    return cached;
  }
  const decoder = loadPocketsphinx().createDecoder({ lmPath, dictPath, args: DECODER_ARGS });
  if (!decoder) throw new Error('the speech model could not be loaded');
  return decoder;
}

function releaseDecoder(decoding: TDecoding): void {
  const list = idle.get(decoding.key) ?? [];
  if (list.length >= IDLE_PER_MODEL || idleCount >= IDLE_TOTAL) {
    decoding.decoder.free();
    return;
  }
  list.push(decoding.decoder);
  idle.set(decoding.key, list);
  idleCount++;
}

function finish(stream: number, decoding: TDecoding): void {
  const { decoder, firstUtterance } = decoding;
  decoder.endUtterance();
  let text = decoder.hypothesis().trim();
  decoding.firstUtterance = null;
  if (firstUtterance && text) {
    // Again, now that the normalisation has heard this microphone (see FIRST_UTTERANCE_MAX_SAMPLES).
    decoder.startUtterance();
    for (const step of firstUtterance.steps) decoder.process(step);
    decoder.endUtterance();
    text = decoder.hypothesis().trim() || text;
  }
  if (text) reply({ kind: 'final', stream, text });
  decoding.speaking = false;
  decoding.sincePartial = 0;
  decoding.lastPartial = '';
}

function feed(stream: number, decoding: TDecoding, samples: Int16Array): void {
  for (let offset = 0; offset < samples.length; offset += STEP_SAMPLES) {
    const step = samples.subarray(offset, offset + STEP_SAMPLES);
    const first = decoding.firstUtterance;
    if (first) {
      first.steps.push(step);
      first.samples += step.length;
      if (first.samples > FIRST_UTTERANCE_MAX_SAMPLES) decoding.firstUtterance = null;
    }
    const inSpeech = decoding.decoder.process(step);
    if (inSpeech) decoding.speaking = true;
    if (!decoding.speaking) continue;
    if (!inSpeech) {
      // A pause after speech: the utterance is settled; the next one starts on the same decoder.
      finish(stream, decoding);
      decoding.decoder.startUtterance();
      continue;
    }
    decoding.sincePartial += step.length;
    // Until the utterance has its first words, every step looks (the first partial comes sooner).
    if (decoding.sincePartial >= PARTIAL_EVERY_SAMPLES || decoding.lastPartial === '') {
      decoding.sincePartial = 0;
      const text = decoding.decoder.hypothesis().trim();
      if (text && text !== decoding.lastPartial) {
        decoding.lastPartial = text;
        reply({ kind: 'partial', stream, text });
      }
    }
  }
}

function handle(request: TWorkerRequest): void {
  const { stream } = request;
  if (request.kind === 'open') {
    const key = `${request.lmPath}\n${request.dictPath}`;
    const decoder = takeDecoder(request.lmPath, request.dictPath, key);
    decoder.startUtterance();
    decodings.set(stream, {
      key,
      decoder,
      speaking: false,
      sincePartial: 0,
      lastPartial: '',
      firstUtterance: { steps: [], samples: 0 },
    });
    return;
  }
  const decoding = decodings.get(stream);
  if (!decoding) return;
  if (request.kind === 'audio') {
    feed(stream, decoding, request.samples);
    return;
  }
  decodings.delete(stream);
  if (request.kind === 'end') finish(stream, decoding);
  else decoding.decoder.endUtterance();
  releaseDecoder(decoding);
}

parentPort?.on('message', (request: TWorkerRequest) => {
  try {
    handle(request);
    reply({ kind: 'done', stream: request.stream });
  } catch (error) {
    decodings.delete(request.stream);
    reply({
      kind: 'failed',
      stream: request.stream,
      message: error instanceof Error ? error.message : 'the speech engine failed',
    });
  }
});
