// Offline dictation benchmark (issue 17): CMU PocketSphinx through the server's worker pool, with a
// language model built from radiology templates (dictation-bench-data.ts), on sentences synthesised
// by espeak-ng at two voices and two speeds. The templates never contain a dictated sentence.
//  1. Accuracy: word error rate per voice and speed (dictation sessions of 10 sentences, 700 ms
//     pauses, audio fed as fast as the engine takes it), and the real-time factor of one stream.
//  2. Live streams: N sessions at once, each fed in real time (100 ms frames every 100 ms): latency
//     of the first partial after speech starts and of the final after speech ends, how far the
//     engine lags at the end, and memory per stream (process RSS, decoders live in its threads).
// Goals: WER ≤ 10 %, first partial ≤ 300 ms, final ≤ 500 ms after speech ends, ≥ 8 streams on 2 cores.
// Run: node apps/server/dist/bench/dictation-bench.js (after npm run build); BENCH_STREAMS=1,4,8,12.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { buildLanguageModel } from '../features/dictation/language-model/build-language-model.ts';
import { spokenSentences, spokenWords } from '../features/dictation/language-model/spoken-form.ts';
import {
  createPocketsphinxProvider,
  pocketsphinxAvailable,
  type TPocketsphinxProvider,
} from '../integrations/speech/pocketsphinx/pocketsphinx-provider.ts';
import {
  silence,
  speechEndMs,
  speechStartMs,
  synthesiseSpeech,
  type TSynthesisVoice,
  voiceLabel,
} from '../integrations/speech/pocketsphinx/synthesise-speech.ts';
import { wordErrors } from '../integrations/speech/pocketsphinx/word-error-rate.ts';
import { BENCH_SENTENCES, BENCH_TEMPLATES } from './dictation-bench-data.ts';

/**
 * flite's CMU voices (recorded speakers, female and male, at their own pace and 15 % faster) are the
 * accuracy figures; espeak-ng's formant voices (US and British) are shown too, as harder audio.
 */
const VOICES: readonly TSynthesisVoice[] = [
  { engine: 'flite', voice: 'slt', stretch: 1 },
  { engine: 'flite', voice: 'slt', stretch: 0.85 },
  { engine: 'flite', voice: 'rms', stretch: 1 },
  { engine: 'flite', voice: 'rms', stretch: 0.85 },
  { voice: 'en-us', wordsPerMinute: 160 },
  { voice: 'en-gb', wordsPerMinute: 160 },
];
const SESSION_SENTENCES = 10;
const PAUSE_MS = 700;
const FRAME_BYTES = 3_200; // 100 ms
const STREAM_COUNTS = (process.env.BENCH_STREAMS ?? '1,4,8,12').split(',').map(Number);
const cores = availableParallelism();

if (!pocketsphinxAvailable()) {
  console.error('PocketSphinx is not installed (libpocketsphinx3, pocketsphinx-en-us): nothing to measure.');
  process.exit(1);
}

/** What is said: the spoken form, with "full stop" after every other sentence. */
const said = BENCH_SENTENCES.map((sentence, i) =>
  [...spokenWords(sentence), ...(i % 2 ? ['full', 'stop'] : [])].join(' '),
);

// Honesty check: no dictated sentence is a sentence of the model's sources.
const sourceSentences = new Set(
  BENCH_TEMPLATES.flatMap((text) => spokenSentences(text).map((s) => s.plain.join(' '))),
);
const copied = BENCH_SENTENCES.filter((sentence) => sourceSentences.has(spokenWords(sentence).join(' ')));
if (copied.length > 0) throw new Error(`dictated sentences found in the templates: ${copied.join(' | ')}`);

const dir = await mkdtemp(path.join(tmpdir(), 'ris-dictation-bench-'));
const built = await buildLanguageModel({ texts: BENCH_TEMPLATES, templateNames: [], macroKeys: [] });
const files = { lmPath: path.join(dir, 'bench.lm'), dictPath: path.join(dir, 'bench.dict') };
await writeFile(files.lmPath, built.arpa);
await writeFile(files.dictPath, built.dictionary);
let provider = createPocketsphinxProvider({ languageModelFor: async () => files, workers: cores });

type TUtterance = { reference: string; startMs: number; endMs: number };
type TSession = { pcm: Buffer; utterances: TUtterance[]; voice: TSynthesisVoice };

async function session(voice: TSynthesisVoice, references: readonly string[]): Promise<TSession> {
  const parts: Buffer[] = [];
  const utterances: TUtterance[] = [];
  let offsetMs = 0;
  for (const reference of references) {
    const speech = await synthesiseSpeech(reference, voice);
    const lengthMs = speech.length / 32;
    utterances.push({
      reference,
      startMs: offsetMs + speechStartMs(speech),
      endMs: offsetMs + speechEndMs(speech),
    });
    parts.push(speech, silence(PAUSE_MS));
    offsetMs += lengthMs + PAUSE_MS;
  }
  return { pcm: Buffer.concat(parts), utterances, voice };
}

const sessions: TSession[] = [];
for (const voice of VOICES) {
  for (let start = 0; start < said.length; start += SESSION_SENTENCES) {
    sessions.push(await session(voice, said.slice(start, start + SESSION_SENTENCES)));
  }
}
const audioSeconds = (pcm: Buffer) => pcm.length / 32_000;

/** One session fed as fast as possible: its finals and the wall time. */
async function decodeFast(engine: TPocketsphinxProvider, s: TSession): Promise<{ text: string; ms: number }> {
  const finals: string[] = [];
  const stream = await engine.open({
    organisationId: 'bench',
    userId: 'bench',
    onPartial: () => undefined,
    onFinal: (text) => finals.push(text),
    onError: (error) => console.error(error.message),
  });
  const started = performance.now();
  for (let offset = 0; offset < s.pcm.length; offset += FRAME_BYTES)
    stream.write(s.pcm.subarray(offset, offset + FRAME_BYTES));
  await stream.end();
  return { text: finals.join(' '), ms: performance.now() - started };
}

// 1. Accuracy, two sessions at a time (one per core on a 2-core machine).
const accuracy = new Map<string, { errors: number; words: number; audio: number; ms: number }>();
for (let i = 0; i < sessions.length; i += cores) {
  const batch = sessions.slice(i, i + cores);
  const results = await Promise.all(batch.map((s) => decodeFast(provider, s)));
  batch.forEach((s, j) => {
    const key = voiceLabel(s.voice);
    const entry = accuracy.get(key) ?? { errors: 0, words: 0, audio: 0, ms: 0 };
    const { errors, words } = wordErrors(
      s.utterances.map((u) => u.reference).join(' '),
      results[j]?.text ?? '',
    );
    entry.errors += errors;
    entry.words += words;
    entry.audio += audioSeconds(s.pcm);
    entry.ms += results[j]?.ms ?? 0;
    accuracy.set(key, entry);
  });
}
// Real-time factor of one stream alone (decoding time / audio time).
const single = sessions[0];
const rtfRun = single ? await decodeFast(provider, single) : { ms: 0, text: '' };
const rtf = single ? rtfRun.ms / 1_000 / audioSeconds(single.pcm) : 0;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** Live runs use the first sentences of a session (about 20 s of audio), to keep the bench short. */
const LIVE_SENTENCES = 5;

function firstSentences(s: TSession, count: number): TSession {
  const cut = s.utterances[count]?.startMs;
  if (cut === undefined) return s;
  return { ...s, pcm: s.pcm.subarray(0, Math.floor(cut * 16) * 2), utterances: s.utterances.slice(0, count) };
}

type TLive = { firstPartial: number[]; final: number[]; lag: number[]; errors: number };

/** N sessions at once in real time; latencies from when the speech's frame was sent. */
async function live(count: number): Promise<TLive> {
  const result: TLive = { firstPartial: [], final: [], lag: [], errors: 0 };
  const picked = Array.from({ length: count }, (_, i) => sessions[(i * 7) % sessions.length])
    .filter((s): s is TSession => s !== undefined)
    .map((s) => firstSentences(s, LIVE_SENTENCES));
  const runs = await Promise.all(
    picked.map(async (s) => {
      const partials: number[] = [];
      const finals: number[] = [];
      const stream = await provider.open({
        organisationId: 'bench',
        userId: 'bench',
        onPartial: () => partials.push(performance.now()),
        onFinal: () => finals.push(performance.now()),
        onError: () => result.errors++,
      });
      return { s, stream, partials, finals };
    }),
  );
  await Promise.all(
    runs.map(async ({ s, stream, partials, finals }) => {
      const sentAt: number[] = [];
      const started = performance.now();
      for (let frame = 0; frame * FRAME_BYTES < s.pcm.length; frame++) {
        const due = started + (frame + 1) * 100;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
        stream.write(s.pcm.subarray(frame * FRAME_BYTES, (frame + 1) * FRAME_BYTES));
        sentAt.push(performance.now());
      }
      const ended = performance.now();
      await stream.end();
      result.lag.push(performance.now() - ended);
      const sent = (ms: number) => sentAt[Math.min(sentAt.length - 1, Math.floor(ms / 100))] ?? ended;
      s.utterances.forEach((u, i) => {
        const onset = sent(u.startMs);
        const next = s.utterances[i + 1];
        const until = next ? sent(next.startMs) : Infinity;
        const partial = partials.find((at) => at > onset && at < until);
        if (partial !== undefined) result.firstPartial.push(partial - onset);
        const speechEnd = sent(u.endMs);
        const final = finals.find((at) => at > speechEnd);
        if (final !== undefined && final < until) result.final.push(final - speechEnd);
      });
    }),
  );
  return result;
}

// Memory: a fresh pool, then 8 streams opened at once (a decoder each, in the pool's threads).
await provider.close();
provider = createPocketsphinxProvider({ languageModelFor: async () => files, workers: cores });
const MEMORY_STREAMS = 8;
const rssBefore = process.memoryUsage().rss;
const held = await Promise.all(
  Array.from({ length: MEMORY_STREAMS }, () =>
    provider.open({
      organisationId: 'bench',
      userId: 'bench',
      onPartial: () => undefined,
      onFinal: () => undefined,
      onError: () => undefined,
    }),
  ),
);
const rssPerStreamMb = (process.memoryUsage().rss - rssBefore) / MEMORY_STREAMS / 1024 / 1024;
for (const stream of held) stream.abort();

const liveRows: { count: number; live: TLive }[] = [];
for (const count of STREAM_COUNTS) liveRows.push({ count, live: await live(count) });
await provider.close();
await rm(dir, { recursive: true, force: true });

const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
const ms = (value: number) => (Number.isNaN(value) ? '-' : `${Math.round(value)} ms`);
console.log(`\nDictation (PocketSphinx 5prealpha, ${cores} cores, ${cores} decoder threads)`);
console.log(
  `Language model: ${built.words} words (${built.guessed.length} pronounced by espeak-ng), ${built.sentences} template sentences; ` +
    `${BENCH_SENTENCES.length} dictated sentences, none of them in the templates`,
);
console.log('\nAccuracy (sessions of 10 sentences, fed as fast as decoded, 2 at a time)');
console.log('voice, speed                 words  WER       audio s  decode s');
let totalErrors = 0;
let totalWords = 0;
let fliteErrors = 0;
let fliteWords = 0;
for (const [key, entry] of accuracy) {
  totalErrors += entry.errors;
  totalWords += entry.words;
  if (key.startsWith('flite')) {
    fliteErrors += entry.errors;
    fliteWords += entry.words;
  }
  console.log(
    `${key.padEnd(27)} ${String(entry.words).padStart(6)}  ${pct(entry.errors / entry.words).padEnd(8)}  ${entry.audio.toFixed(0).padStart(7)}  ${(entry.ms / 1_000).toFixed(1).padStart(8)}`,
  );
}
console.log(
  `${'flite voices'.padEnd(27)} ${String(fliteWords).padStart(6)}  ${pct(fliteErrors / fliteWords)}  (goal ≤ 10 %)`,
);
console.log(`${'all voices'.padEnd(27)} ${String(totalWords).padStart(6)}  ${pct(totalErrors / totalWords)}`);
console.log(`Real-time factor of one stream alone: ${rtf.toFixed(3)}`);
console.log('\nLive streams (100 ms frames in real time; latency from the frame that carried the speech)');
console.log('streams  1st partial p50/p95   final after speech end p50/p95   end lag max  errors');
for (const { count, live: row } of liveRows) {
  console.log(
    `${String(count).padStart(7)}  ${`${ms(percentile(row.firstPartial, 50))} / ${ms(percentile(row.firstPartial, 95))}`.padEnd(20)}  ${`${ms(percentile(row.final, 50))} / ${ms(percentile(row.final, 95))}`.padEnd(31)}  ${ms(Math.max(...row.lag)).padStart(11)}  ${String(row.errors).padStart(6)}`,
  );
}
console.log(
  `Memory: ${rssPerStreamMb.toFixed(1)} MB per stream (process RSS over ${MEMORY_STREAMS} open streams, threads included)`,
);
console.log(
  'Goals: first partial ≤ 300 ms, final ≤ 500 ms after speech ends, ≥ 8 concurrent streams on 2 cores.',
);
