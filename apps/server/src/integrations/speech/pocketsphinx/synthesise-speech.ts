// Spoken test audio for the offline engine's tests and the dictation bench, from Debian's speech
// synthesisers: espeak-ng (formant synthesis, robotic) or flite (CMU's voices, recorded speakers:
// slt, rms, awb). sox turns their WAV into the engine's 16 kHz s16le mono.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type TSynthesisVoice =
  | {
      engine?: 'espeak-ng';
      /** An espeak-ng voice, e.g. 'en-us', 'en-gb', 'en-us+f3' (a female variant). */
      voice: string;
      /** Words per minute (espeak-ng's default is 175). */
      wordsPerMinute: number;
    }
  | {
      engine: 'flite';
      /** A flite voice: 'slt' (female, US), 'rms' (male, US), 'awb' (male, Scottish). */
      voice: string;
      /** Duration of each sound against the voice's own (1: as recorded, 0.85: 15 % faster). */
      stretch: number;
    };

function run(command: string, args: readonly string[], input: Buffer | null): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else
        reject(new Error(`${command} exited with ${String(code)}: ${Buffer.concat(err).toString().trim()}`));
    });
    child.stdin.end(input ?? undefined);
  });
}

/** flite's WAV (it writes to a file: Node's stdout pipe is a socket, which /dev/stdout cannot open). */
async function fliteWav(text: string, voice: string, stretch: number): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ris-flite-'));
  try {
    const file = path.join(dir, 'speech.wav');
    await run(
      'flite',
      ['-voice', voice, '--setf', `duration_stretch=${stretch}`, '-t', text, '-o', file],
      null,
    );
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The sentence as 16 kHz, 16-bit signed little-endian mono PCM. */
export async function synthesiseSpeech(text: string, voice: TSynthesisVoice): Promise<Buffer> {
  const wav =
    voice.engine === 'flite'
      ? await fliteWav(text, voice.voice, voice.stretch)
      : await run(
          'espeak-ng',
          ['-v', voice.voice, '-s', String(voice.wordsPerMinute), '--stdout', text],
          null,
        );
  return run(
    'sox',
    ['-t', 'wav', '-', '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-t', 'raw', '-'],
    wav,
  );
}

/** A voice's name for tables. */
export function voiceLabel(voice: TSynthesisVoice): string {
  return voice.engine === 'flite'
    ? `flite ${voice.voice} ×${voice.stretch}`
    : `espeak-ng ${voice.voice} ${voice.wordsPerMinute} wpm`;
}

/** Silence of this many milliseconds at 16 kHz (pauses between sentences of a dictation). */
export function silence(ms: number): Buffer {
  return Buffer.alloc(Math.round((ms * 16_000) / 1_000) * 2);
}

/** Mean absolute amplitude of each 10 ms window louder than a whisper, as window indexes. */
function loudWindows(pcm: Buffer): number[] {
  const window = 160;
  const samples = new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.length));
  const loud: number[] = [];
  for (let start = 0; start + window <= samples.length; start += window) {
    let energy = 0;
    for (let i = start; i < start + window; i++) energy += Math.abs(samples[i] ?? 0);
    if (energy / window > 300) loud.push(start / window);
  }
  return loud;
}

/** Where the speech in a PCM buffer starts (ms): the first 10 ms window louder than a whisper. */
export function speechStartMs(pcm: Buffer): number {
  return (loudWindows(pcm)[0] ?? 0) * 10;
}

/** Where the speech in a PCM buffer ends (ms): the end of the last 10 ms window louder than a whisper. */
export function speechEndMs(pcm: Buffer): number {
  const last = loudWindows(pcm).at(-1);
  return last === undefined ? 0 : (last + 1) * 10;
}
