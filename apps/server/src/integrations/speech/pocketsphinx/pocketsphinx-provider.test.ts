// The offline engine on real PocketSphinx: sentences spoken by espeak-ng, decoded through the
// worker pool with a language model built from a few templates; faults with real files (a model
// that is not one, a model file that never finishes opening).
import { execFile } from 'node:child_process';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLanguageModel } from '../../../features/dictation/language-model/build-language-model.ts';
import { SpeechEngineError, type SpeechStream } from '../speech-provider.ts';
import {
  createPocketsphinxProvider,
  pocketsphinxAvailable,
  type TLanguageModelFiles,
  type TPocketsphinxProvider,
} from './pocketsphinx-provider.ts';
import { silence, synthesiseSpeech } from './synthesise-speech.ts';
import { wordErrorRate } from './word-error-rate.ts';

const TEMPLATES = [
  `CT ABDOMEN
FINDINGS:
The liver is normal in size and attenuation. No focal hepatic lesion.
There is a 3.2 cm hypoattenuating lesion in segment 6 of the liver, likely a simple cyst.
The gallbladder is unremarkable. No biliary dilatation.
The spleen, pancreas and adrenal glands are normal. Both kidneys are normal. No hydronephrosis.
IMPRESSION:
No acute abnormality.`,
  `CT CHEST
The lungs are clear. No pleural effusion. No pneumothorax.
There is a 4 mm nodule in the right upper lobe.
The heart is normal in size. No pericardial effusion.`,
  `MRI BRAIN
Periventricular white matter hyperintensities are noted, likely chronic small vessel ischaemic change.
No acute infarct. No haemorrhage. No mass effect or midline shift.`,
];

/** Dictated sentences: the templates' words in other orders, with commands and a measurement. */
const SENTENCES = [
  'the liver is normal in size',
  'there is a three point two centimetres hypoattenuating lesion in the liver',
  'periventricular white matter hyperintensities are noted',
  'no pleural effusion full stop',
  'new paragraph',
];

let dir: string;
let model: TLanguageModelFiles;
let provider: TPocketsphinxProvider;

type TCollected = { partials: string[]; finals: string[]; errors: SpeechEngineError[] };

function collector(): TCollected & {
  onPartial(text: string): void;
  onFinal(text: string): void;
  onError(error: SpeechEngineError): void;
} {
  const collected: TCollected = { partials: [], finals: [], errors: [] };
  return {
    ...collected,
    onPartial: (text) => collected.partials.push(text),
    onFinal: (text) => collected.finals.push(text),
    onError: (error) => collected.errors.push(error),
  };
}

function writeInFrames(stream: SpeechStream, pcm: Buffer): void {
  for (let offset = 0; offset < pcm.length; offset += 3_200)
    stream.write(pcm.subarray(offset, offset + 3_200));
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ris-pocketsphinx-'));
  const built = await buildLanguageModel({ texts: TEMPLATES, templateNames: ['ct chest'], macroKeys: [] });
  model = { lmPath: path.join(dir, 'org.lm'), dictPath: path.join(dir, 'org.dict') };
  await writeFile(model.lmPath, built.arpa);
  await writeFile(model.dictPath, built.dictionary);
  provider = createPocketsphinxProvider({ languageModelFor: async () => model, workers: 2 });
});

afterAll(async () => {
  await provider.close();
  await rm(dir, { recursive: true, force: true });
});

describe('PocketSphinx provider', () => {
  it('is installed here (CI installs libpocketsphinx3 and pocketsphinx-en-us)', () => {
    expect(pocketsphinxAvailable()).toBe(true);
  });

  it('decodes dictated sentences with the organisation model: partials, a final per pause, WER within bound', async () => {
    const pcm: Buffer[] = [];
    for (const sentence of SENTENCES) {
      pcm.push(await synthesiseSpeech(sentence, { voice: 'en-us', wordsPerMinute: 150 }), silence(700));
    }
    const handlers = collector();
    const stream = await provider.open({ organisationId: 'org', userId: 'user', ...handlers });
    writeInFrames(stream, Buffer.concat(pcm));
    await stream.end();

    expect(handlers.errors).toEqual([]);
    expect(handlers.partials.length).toBeGreaterThan(SENTENCES.length);
    // The voice activity detector ends an utterance at each pause: about one final per sentence.
    expect(handlers.finals.length).toBeGreaterThanOrEqual(SENTENCES.length - 1);
    const wer = wordErrorRate(SENTENCES.join(' '), handlers.finals.join(' '));
    expect(wer).toBeLessThanOrEqual(0.25);
  });

  it('streams side by side on the pool without mixing their words', async () => {
    const [a, b] = await Promise.all([
      synthesiseSpeech('no pleural effusion', { voice: 'en-us', wordsPerMinute: 150 }),
      synthesiseSpeech('the spleen is normal', { voice: 'en-gb', wordsPerMinute: 160 }),
    ]);
    const first = collector();
    const second = collector();
    const [s1, s2] = await Promise.all([
      provider.open({ organisationId: 'org', userId: 'u1', ...first }),
      provider.open({ organisationId: 'org', userId: 'u2', ...second }),
    ]);
    writeInFrames(s1, a);
    writeInFrames(s2, b);
    await Promise.all([s1.end(), s2.end()]);
    expect(first.finals.join(' ')).toContain('effusion');
    expect(second.finals.join(' ')).toContain('spleen');
    expect(first.finals.join(' ')).not.toContain('spleen');
  });

  it('uses the generic English model when the organisation has none yet', async () => {
    const generic = createPocketsphinxProvider({ languageModelFor: async () => null, workers: 1 });
    try {
      const handlers = collector();
      const stream = await generic.open({ organisationId: 'new', userId: 'u', ...handlers });
      writeInFrames(stream, await synthesiseSpeech('hello world', { voice: 'en-us', wordsPerMinute: 150 }));
      await stream.end();
      expect(handlers.errors).toEqual([]);
      expect(handlers.finals.join(' ').length).toBeGreaterThan(0);
    } finally {
      await generic.close();
    }
    // The generic model (30 MB) takes seconds to load on a busy machine.
  }, 60_000);

  it('refuses a model file that is not one with ENGINE_UNAVAILABLE, and still serves the next stream', async () => {
    const broken = path.join(dir, 'broken.lm');
    await writeFile(broken, 'not an arpa model\n');
    let files: TLanguageModelFiles = { lmPath: broken, dictPath: model.dictPath };
    const engine = createPocketsphinxProvider({ languageModelFor: async () => files, workers: 1 });
    try {
      const refused = await engine
        .open({ organisationId: 'org', userId: 'u', ...collector() })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(SpeechEngineError);
      expect((refused as SpeechEngineError).code).toBe('ENGINE_UNAVAILABLE');
      files = model;
      const handlers = collector();
      const stream = await engine.open({ organisationId: 'org', userId: 'u', ...handlers });
      writeInFrames(
        stream,
        await synthesiseSpeech('no pneumothorax', { voice: 'en-us', wordsPerMinute: 150 }),
      );
      await stream.end();
      expect(handlers.finals.join(' ')).toContain('pneumothorax');
    } finally {
      await engine.close();
    }
  });

  it('fails a hung worker with ENGINE_TIMEOUT and starts a fresh one', async () => {
    // The dictionary is a FIFO with no data yet: the worker blocks inside the library reading it.
    // Held open read-write here, so neither side's open waits; the budget (5 s) is generous, as a
    // fresh worker loading a real model on a busy machine must stay within it.
    const fifo = path.join(dir, 'hang.dict');
    await promisify(execFile)('mkfifo', [fifo]);
    const pipe = await open(fifo, 'r+');
    let files: TLanguageModelFiles = { lmPath: model.lmPath, dictPath: fifo };
    const engine = createPocketsphinxProvider({
      languageModelFor: async () => files,
      workers: 1,
      timeoutMs: 5_000,
    });
    try {
      const hung = await engine
        .open({ organisationId: 'org', userId: 'u', ...collector() })
        .catch((e: unknown) => e);
      expect((hung as SpeechEngineError).code).toBe('ENGINE_TIMEOUT');
      // Let the blocked thread go: it reads a dictionary, loads the model and ends.
      await pipe.write(await readFile(model.dictPath));
      await pipe.close();
      files = model;
      const handlers = collector();
      const stream = await engine.open({ organisationId: 'org', userId: 'u', ...handlers });
      writeInFrames(
        stream,
        await synthesiseSpeech('no haemorrhage', { voice: 'en-us', wordsPerMinute: 150 }),
      );
      await stream.end();
      expect(handlers.errors).toEqual([]);
      expect(handlers.finals.join(' ')).toContain('haemorrhage');
    } finally {
      await engine.close();
    }
  }, 60_000);

  it('calls no handler after abort, and refuses streams after close', async () => {
    const engine = createPocketsphinxProvider({ languageModelFor: async () => model, workers: 1 });
    const handlers = collector();
    const stream = await engine.open({ organisationId: 'org', userId: 'u', ...handlers });
    writeInFrames(
      stream,
      await synthesiseSpeech('the lungs are clear', { voice: 'en-us', wordsPerMinute: 150 }),
    );
    stream.abort();
    await stream.end();
    // A second stream on the same worker answers after the aborted one's requests.
    const after = collector();
    const next = await engine.open({ organisationId: 'org', userId: 'u', ...after });
    await next.end();
    expect(handlers.finals).toEqual([]);
    expect(handlers.errors).toEqual([]);
    await engine.close();
    const closed = await engine
      .open({ organisationId: 'org', userId: 'u', ...collector() })
      .catch((e: unknown) => e);
    expect((closed as SpeechEngineError).code).toBe('ENGINE_UNAVAILABLE');
  });
});
