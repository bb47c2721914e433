import { describe, expect, it } from 'vitest';
import { FrameCollector, StreamResampler, downmix, rms, toInt16LE } from './pcm-resampler.ts';

const sine = (frequency: number, rate: number, seconds: number, amplitude = 0.5): Float32Array =>
  Float32Array.from(
    { length: Math.round(rate * seconds) },
    (_, i) => amplitude * Math.sin((2 * Math.PI * frequency * i) / rate),
  );

/** Resamples in chunks of 128 samples (one AudioWorklet render quantum), as the worklet does. */
function resampleInQuanta(input: Float32Array, from: number, to: number): Float32Array {
  const resampler = new StreamResampler(from, to);
  const parts: number[] = [];
  for (let start = 0; start < input.length; start += 128) {
    parts.push(...resampler.push(input.subarray(start, start + 128)));
  }
  return Float32Array.from(parts);
}

/** The amplitude of `frequency` in the signal (a single-bin DFT). */
function amplitudeAt(signal: Float32Array, frequency: number, rate: number): number {
  let re = 0;
  let im = 0;
  for (let i = 0; i < signal.length; i += 1) {
    const angle = (2 * Math.PI * frequency * i) / rate;
    re += (signal[i] ?? 0) * Math.cos(angle);
    im -= (signal[i] ?? 0) * Math.sin(angle);
  }
  return (2 * Math.hypot(re, im)) / signal.length;
}

describe('dictation resampler', () => {
  it('turns 48 kHz into 16 kHz: a third of the samples, a speech tone kept at its level', () => {
    const input = sine(1000, 48_000, 1);
    const output = resampleInQuanta(input, 48_000, 16_000);
    // The filter holds back its half-width of samples until more input comes.
    expect(output.length).toBeGreaterThan(15_950);
    expect(output.length).toBeLessThanOrEqual(16_000);
    const steady = output.subarray(200, 15_800);
    expect(amplitudeAt(steady, 1000, 16_000)).toBeCloseTo(0.5, 1);
    expect(rms(steady)).toBeCloseTo(0.5 / Math.SQRT2, 2);
  });

  it('filters out what 16 kHz cannot carry instead of folding it into the speech band', () => {
    // 11 kHz at 48 kHz would alias to 5 kHz at 16 kHz without the low-pass.
    const output = resampleInQuanta(sine(11_000, 48_000, 1), 48_000, 16_000).subarray(200, 15_800);
    expect(amplitudeAt(output, 5000, 16_000)).toBeLessThan(0.01);
    expect(rms(output)).toBeLessThan(0.01);
  });

  it('gives the same samples whatever the chunk sizes (history is kept between chunks)', () => {
    const input = sine(440, 44_100, 0.2);
    const whole = new StreamResampler(44_100, 16_000).push(input);
    const chunked = resampleInQuanta(input, 44_100, 16_000);
    expect(chunked.length).toBe(whole.length);
    for (let i = 0; i < whole.length; i += 1) expect(chunked[i]).toBeCloseTo(whole[i] ?? 0, 6);
  });

  it('passes 16 kHz through unchanged in level and count', () => {
    const input = sine(300, 16_000, 0.5);
    const output = resampleInQuanta(input, 16_000, 16_000);
    expect(input.length - output.length).toBeLessThanOrEqual(64);
    expect(amplitudeAt(output.subarray(100, 7_000), 300, 16_000)).toBeCloseTo(0.5, 1);
  });

  it('refuses a rate that is not positive', () => {
    expect(() => new StreamResampler(0, 16_000)).toThrow(RangeError);
  });
});

describe('dictation PCM helpers', () => {
  it('downmixes channels to their mean', () => {
    expect(Array.from(downmix([Float32Array.from([1, 0.5]), Float32Array.from([0, -0.5])]))).toEqual([
      0.5, 0,
    ]);
    expect(downmix([])).toHaveLength(0);
  });

  it('packs 16-bit signed little-endian, clipping beyond full scale', () => {
    const view = new DataView(toInt16LE(Float32Array.from([0, 1, -1, 2, 0.5])));
    expect(view.byteLength).toBe(10);
    expect([0, 2, 4, 6, 8].map((offset) => view.getInt16(offset, true))).toEqual([
      0, 32767, -32768, 32767, 16384,
    ]);
    expect(new Uint8Array(toInt16LE(Float32Array.from([1])))).toEqual(Uint8Array.from([0xff, 0x7f]));
  });

  it('collects 100 ms frames and flushes the rest', () => {
    const frames: number[] = [];
    const collector = new FrameCollector(1600, (frame) => frames.push(frame.length));
    collector.push(new Float32Array(1000));
    collector.push(new Float32Array(3000));
    expect(frames).toEqual([1600, 1600]);
    collector.flush();
    collector.flush();
    expect(frames).toEqual([1600, 1600, 800]);
  });
});
