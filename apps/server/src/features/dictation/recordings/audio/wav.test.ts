import { describe, expect, it } from 'vitest';
import { decodeWavToPcm16k, encodeWav, readWavInfo, WavError } from './wav.ts';

/** A tone of `hz` at `rate`, as 16-bit samples (`channels` copies of each). */
function tone(hz: number, rate: number, seconds: number, channels = 1): Buffer {
  const frames = Math.round(rate * seconds);
  const pcm = Buffer.alloc(frames * 2 * channels);
  for (let i = 0; i < frames; i++)
    for (let c = 0; c < channels; c++)
      pcm.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 10_000), (i * channels + c) * 2);
  return pcm;
}

const rms = (pcm: Buffer) => {
  let sum = 0;
  for (let i = 0; i < pcm.byteLength; i += 2) sum += pcm.readInt16LE(i) ** 2;
  return Math.sqrt(sum / (pcm.byteLength / 2));
};

describe('WAV recordings', () => {
  it('reads the header and duration of 16-bit PCM', () => {
    const info = readWavInfo(encodeWav(tone(440, 48_000, 1.5, 2), 48_000, 2));
    expect(info).toMatchObject({ sampleRate: 48_000, channels: 2, bitsPerSample: 16, durationSeconds: 1.5 });
  });

  it('leaves 16 kHz mono as it is', () => {
    const pcm = tone(440, 16_000, 0.25);
    expect(decodeWavToPcm16k(encodeWav(pcm, 16_000)).equals(pcm)).toBe(true);
  });

  it('downmixes and resamples to 16 kHz, keeping speech frequencies and dropping what would alias', () => {
    const speech = decodeWavToPcm16k(encodeWav(tone(440, 44_100, 1, 2), 44_100, 2));
    expect(speech.byteLength).toBe(32_000);
    expect(rms(speech)).toBeGreaterThan(6_000);
    // 12 kHz is above the 8 kHz Nyquist limit of 16 kHz audio: filtered out, not folded to 4 kHz.
    const high = decodeWavToPcm16k(encodeWav(tone(12_000, 48_000, 1), 48_000));
    expect(rms(high)).toBeLessThan(300);
  });

  it('reads 8-bit unsigned samples', () => {
    const pcm = Buffer.alloc(8_000, 128);
    const wav = encodeWav(Buffer.alloc(0), 8_000);
    wav.writeUInt16LE(8, 34);
    wav.writeUInt16LE(1, 32);
    wav.writeUInt32LE(8_000, 28);
    wav.writeUInt32LE(pcm.byteLength, 40);
    const decoded = decodeWavToPcm16k(Buffer.concat([wav, pcm]));
    expect(decoded.byteLength).toBe(32_000);
    expect(rms(decoded)).toBe(0);
  });

  it('refuses what is not linear PCM WAV', () => {
    expect(() => readWavInfo(Buffer.from('not a wav file at all'))).toThrow(WavError);
    const float = encodeWav(tone(440, 16_000, 0.1), 16_000);
    float.writeUInt16LE(3, 20);
    expect(() => readWavInfo(float)).toThrow(/PCM/);
    const noData = encodeWav(Buffer.alloc(0), 16_000).subarray(0, 36);
    expect(() => readWavInfo(noData)).toThrow(/no audio/);
  });
});
