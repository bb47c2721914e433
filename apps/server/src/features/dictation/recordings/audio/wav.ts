// WAV recordings (RIFF/WAVE, linear PCM 8- or 16-bit, any rate, mono or more channels): read the
// header by content to check an upload, and decode to what every engine takes — 16 kHz s16le mono
// (downmixed, low-passed and resampled here, in TypeScript; run in a worker thread for long files).
import { DICTATION_SAMPLE_RATE } from '@ris/domain';

export type TWavInfo = {
  sampleRate: number;
  channels: number;
  bitsPerSample: 8 | 16;
  /** Where the samples start and how many bytes they take. */
  dataOffset: number;
  dataBytes: number;
  durationSeconds: number;
};

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/** Why a file is not a WAV we can read, in words for the user. */
export class WavError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WavError';
  }
}

/** The header of a WAV file; throws WavError for anything but 8/16-bit linear PCM. */
export function readWavInfo(data: Buffer): TWavInfo {
  if (
    data.byteLength < 12 ||
    data.toString('ascii', 0, 4) !== 'RIFF' ||
    data.toString('ascii', 8, 12) !== 'WAVE'
  )
    throw new WavError('the file is not a WAV (RIFF/WAVE) file');
  let offset = 12;
  let format: { tag: number; channels: number; rate: number; bits: number } | null = null;
  while (offset + 8 <= data.byteLength) {
    const id = data.toString('ascii', offset, offset + 4);
    const size = data.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > data.byteLength) throw new WavError('the WAV format chunk is cut off');
      let tag = data.readUInt16LE(body);
      if (tag === WAVE_FORMAT_EXTENSIBLE && size >= 40 && body + 26 <= data.byteLength)
        tag = data.readUInt16LE(body + 24);
      format = {
        tag,
        channels: data.readUInt16LE(body + 2),
        rate: data.readUInt32LE(body + 4),
        bits: data.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!format) throw new WavError('the WAV file has no format chunk before its data');
      if (format.tag !== WAVE_FORMAT_PCM)
        throw new WavError('only uncompressed (PCM) WAV files are accepted');
      if (format.bits !== 8 && format.bits !== 16)
        throw new WavError('only 8- or 16-bit WAV files are accepted');
      if (format.channels < 1 || format.channels > 8)
        throw new WavError('the WAV file has no usable channels');
      if (format.rate < 4_000 || format.rate > 192_000)
        throw new WavError('the WAV sample rate is not usable');
      const frameBytes = (format.bits / 8) * format.channels;
      // A header that claims more than the file holds (streamed recorders write 0 or 0xFFFFFFFF).
      const available = Math.min(size, data.byteLength - body);
      const dataBytes = available - (available % frameBytes);
      return {
        sampleRate: format.rate,
        channels: format.channels,
        bitsPerSample: format.bits,
        dataOffset: body,
        dataBytes,
        durationSeconds: dataBytes / frameBytes / format.rate,
      };
    }
    offset = body + size + (size % 2);
  }
  throw new WavError('the WAV file has no audio data');
}

/** The file's samples as mono floats in [-1, 1] at its own rate (channels averaged). */
function monoSamples(data: Buffer, info: TWavInfo): Float32Array {
  const { channels, bitsPerSample, dataOffset, dataBytes } = info;
  const bytes = bitsPerSample / 8;
  const frames = dataBytes / bytes / channels;
  const out = new Float32Array(frames);
  for (let frame = 0; frame < frames; frame++) {
    let sum = 0;
    for (let channel = 0; channel < channels; channel++) {
      const at = dataOffset + (frame * channels + channel) * bytes;
      sum += bitsPerSample === 16 ? data.readInt16LE(at) / 32_768 : (data.readUInt8(at) - 128) / 128;
    }
    out[frame] = sum / channels;
  }
  return out;
}

/** Low-pass (windowed sinc, Blackman) at `cutoff` of the sample rate, before dropping samples. */
function lowPass(samples: Float32Array, cutoff: number): Float32Array {
  const half = 16;
  const taps = new Float32Array(half * 2 + 1);
  let total = 0;
  for (let i = -half; i <= half; i++) {
    const sinc = i === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * i) / (Math.PI * i);
    const n = i + half;
    const window =
      0.42 - 0.5 * Math.cos((2 * Math.PI * n) / (2 * half)) + 0.08 * Math.cos((4 * Math.PI * n) / (2 * half));
    taps[n] = sinc * window;
    total += sinc * window;
  }
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    let sum = 0;
    for (let k = -half; k <= half; k++) {
      const j = i + k;
      if (j >= 0 && j < samples.length) sum += (samples[j] ?? 0) * (taps[k + half] ?? 0);
    }
    out[i] = sum / total;
  }
  return out;
}

/** Linear interpolation from `from` Hz to `to` Hz. */
function resample(samples: Float32Array, from: number, to: number): Float32Array {
  if (from === to) return samples;
  const length = Math.floor((samples.length * to) / from);
  const out = new Float32Array(length);
  const step = from / to;
  for (let i = 0; i < length; i++) {
    const position = i * step;
    const left = Math.floor(position);
    const fraction = position - left;
    const a = samples[left] ?? 0;
    const b = samples[left + 1] ?? a;
    out[i] = a + (b - a) * fraction;
  }
  return out;
}

/** 16 kHz s16le mono PCM of a WAV file (what the engines take). */
export function decodeWavToPcm16k(data: Buffer): Buffer {
  const info = readWavInfo(data);
  let samples = monoSamples(data, info);
  if (info.sampleRate > DICTATION_SAMPLE_RATE)
    samples = lowPass(samples, (0.45 * DICTATION_SAMPLE_RATE) / info.sampleRate);
  samples = resample(samples, info.sampleRate, DICTATION_SAMPLE_RATE);
  const out = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) {
    const value = Math.max(-1, Math.min(1, samples[i] ?? 0));
    out.writeInt16LE(Math.round(value * 32_767), i * 2);
  }
  return out;
}

/** A WAV file of 16-bit PCM (tests and fixtures build recordings with it). */
export function encodeWav(pcm: Buffer, sampleRate: number, channels = 1): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.byteLength, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(WAVE_FORMAT_PCM, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.byteLength, 40);
  return Buffer.concat([header, pcm]);
}
