// Spoken test audio for the offline engine's tests and the dictation bench: espeak-ng (Debian)
// speaks a sentence, sox turns its 22 kHz WAV into the engine's 16 kHz s16le mono.
import { spawn } from 'node:child_process';

export type TSynthesisVoice = {
  /** An espeak-ng voice, e.g. 'en-us', 'en-gb', 'en-us+f3' (a female variant). */
  voice: string;
  /** Words per minute (espeak-ng's default is 175). */
  wordsPerMinute: number;
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

/** The sentence as 16 kHz, 16-bit signed little-endian mono PCM. */
export async function synthesiseSpeech(text: string, voice: TSynthesisVoice): Promise<Buffer> {
  const wav = await run(
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

/** Silence of this many milliseconds at 16 kHz (pauses between sentences of a dictation). */
export function silence(ms: number): Buffer {
  return Buffer.alloc(Math.round((ms * 16_000) / 1_000) * 2);
}

/** Where the speech in a PCM buffer ends (ms): the last 10 ms window louder than a whisper. */
export function speechEndMs(pcm: Buffer): number {
  const window = 160;
  const samples = new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.length));
  for (let start = samples.length - window; start >= 0; start -= window) {
    let energy = 0;
    for (let i = start; i < start + window; i++) energy += Math.abs(samples[i] ?? 0);
    if (energy / window > 300) return ((start + window) * 1_000) / 16_000;
  }
  return 0;
}
