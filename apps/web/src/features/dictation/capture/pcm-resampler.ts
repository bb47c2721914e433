// Pure audio helpers of the dictation capture, shared by the AudioWorklet (pcm-worklet.ts) and the
// unit tests: downmix to mono, resample to the engines' 16 kHz through a windowed-sinc low-pass,
// and pack 16-bit signed little-endian frames (§7).

/** Half the taps of the low-pass filter on each side of a sample (more: sharper, slower). */
const HALF_TAPS = 16;

/** The mean of the channels of one render quantum (AudioWorklet inputs are planar Float32Arrays). */
export function downmix(channels: readonly Float32Array[]): Float32Array {
  const first = channels[0];
  if (!first) return new Float32Array(0);
  if (channels.length === 1) return first.slice();
  const out = new Float32Array(first.length);
  for (const channel of channels) {
    for (let i = 0; i < out.length; i += 1) out[i] = (out[i] ?? 0) + (channel[i] ?? 0);
  }
  for (let i = 0; i < out.length; i += 1) out[i] = (out[i] ?? 0) / channels.length;
  return out;
}

function blackman(x: number, width: number): number {
  // x in [-width, width]
  const n = (x + width) / (2 * width);
  return 0.42 - 0.5 * Math.cos(2 * Math.PI * n) + 0.08 * Math.cos(4 * Math.PI * n);
}

function sinc(x: number): number {
  if (x === 0) return 1;
  const px = Math.PI * x;
  return Math.sin(px) / px;
}

/**
 * A streaming resampler: chunks of any length in, the same signal at `outputRate` out, with the
 * filter's history kept between chunks (no clicks at chunk edges). Each output sample is a
 * Blackman-windowed sinc interpolation of the input whose cut-off is just below the lower Nyquist
 * frequency, so downsampling 48 kHz to 16 kHz does not fold 8-24 kHz into the speech band.
 */
export class StreamResampler {
  private readonly step: number;
  private readonly cutoff: number;
  /** Input not yet fully used: the filter's left history and the samples still ahead. */
  private buffer = new Float32Array(0);
  /** Position of the next output sample, in input samples, relative to buffer[0]. */
  private position = HALF_TAPS;

  constructor(inputRate: number, outputRate: number) {
    if (!(inputRate > 0) || !(outputRate > 0)) throw new RangeError('sample rates must be positive');
    this.step = inputRate / outputRate;
    // Normalised to the input rate: 0.5 is the input's Nyquist frequency; 10 % margin for the window.
    this.cutoff = 0.5 * Math.min(1, outputRate / inputRate) * 0.9;
    // Left history of silence, so the first samples have neighbours.
    this.buffer = new Float32Array(HALF_TAPS);
  }

  push(input: Float32Array): Float32Array {
    const joined = new Float32Array(this.buffer.length + input.length);
    joined.set(this.buffer);
    joined.set(input, this.buffer.length);
    const out: number[] = [];
    const gain = 2 * this.cutoff;
    // Downsampling widens the kernel (in input samples) by the ratio, so its reach stays HALF_TAPS
    // output samples.
    const reach = Math.ceil(HALF_TAPS * Math.max(1, this.step));
    while (this.position + reach < joined.length) {
      const centre = this.position;
      const first = Math.max(0, Math.ceil(centre - reach));
      const last = Math.min(joined.length - 1, Math.floor(centre + reach));
      let sum = 0;
      let weights = 0;
      for (let i = first; i <= last; i += 1) {
        const distance = i - centre;
        const weight = gain * sinc(gain * distance) * blackman(distance, reach);
        sum += (joined[i] ?? 0) * weight;
        weights += weight;
      }
      out.push(weights === 0 ? 0 : sum / weights);
      this.position += this.step;
    }
    // Keep what the next outputs still need: `reach` samples before the next position onwards.
    const keepFrom = Math.max(0, Math.floor(this.position - reach));
    this.buffer = joined.slice(keepFrom);
    this.position -= keepFrom;
    return Float32Array.from(out);
  }
}

/** Float samples in [-1, 1] as 16-bit signed little-endian PCM (clipped). */
export function toInt16LE(samples: Float32Array): ArrayBuffer {
  const buffer = new ArrayBuffer(samples.length * 2);
  const view = new DataView(buffer);
  for (let i = 0; i < samples.length; i += 1) {
    const clipped = Math.max(-1, Math.min(1, samples[i] ?? 0));
    view.setInt16(i * 2, clipped < 0 ? Math.round(clipped * 0x8000) : Math.round(clipped * 0x7fff), true);
  }
  return buffer;
}

/** Root mean square of the samples (0 for silence, about 0.707 for a full-scale sine). */
export function rms(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / samples.length);
}

/**
 * Collects resampled audio into frames of `frameSamples` (100 ms at 16 kHz = 1,600 samples) and
 * hands each full frame over; `flush` hands over what is left.
 */
export class FrameCollector {
  private pending: number[] = [];
  private readonly frameSamples: number;
  private readonly emit: (frame: Float32Array) => void;

  constructor(frameSamples: number, emit: (frame: Float32Array) => void) {
    this.frameSamples = frameSamples;
    this.emit = emit;
  }

  push(samples: Float32Array): void {
    for (const sample of samples) {
      this.pending.push(sample);
      if (this.pending.length === this.frameSamples) {
        this.emit(Float32Array.from(this.pending));
        this.pending = [];
      }
    }
  }

  flush(): void {
    if (this.pending.length === 0) return;
    this.emit(Float32Array.from(this.pending));
    this.pending = [];
  }
}
