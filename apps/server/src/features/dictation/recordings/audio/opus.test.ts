import { describe, expect, it } from 'vitest';
import { oggOpus, WEBM_TONE } from '../../../../test/opus-fixtures.ts';
import {
  decodeOpusToPcm16k,
  opusDurationSeconds,
  opusPacketSamples,
  readOggOpus,
  readWebmOpus,
} from './opus.ts';

const rms = (pcm: Buffer) => {
  let sum = 0;
  for (let i = 0; i < pcm.byteLength; i += 2) sum += pcm.readInt16LE(i) ** 2;
  return Math.sqrt(sum / (pcm.byteLength / 2));
};

/** Zero crossings a second: twice the frequency of a pure tone. */
const crossingsPerSecond = (pcm: Buffer) => {
  let crossings = 0;
  for (let i = 2; i < pcm.byteLength; i += 2)
    if (pcm.readInt16LE(i - 2) < 0 !== pcm.readInt16LE(i) < 0) crossings++;
  return crossings / (pcm.byteLength / 2 / 16_000);
};

describe('Opus recordings', () => {
  it("reads Chromium's WebM recording: stereo Opus, about a second", () => {
    const stream = readWebmOpus(WEBM_TONE);
    expect(stream.channels).toBe(2);
    expect(stream.packets.length).toBeGreaterThan(10);
    expect(opusDurationSeconds(stream)).toBeGreaterThan(0.8);
    expect(opusDurationSeconds(stream)).toBeLessThan(1.2);
  });

  it('decodes it to 16 kHz mono: the 440 Hz tone, at its level', async () => {
    const pcm = await decodeOpusToPcm16k(WEBM_TONE, 'webm');
    expect(pcm.byteLength / 2 / 16_000).toBeCloseTo(opusDurationSeconds(readWebmOpus(WEBM_TONE)), 1);
    expect(rms(pcm)).toBeGreaterThan(4_000);
    expect(crossingsPerSecond(pcm.subarray(3_200))).toBeGreaterThan(800);
    expect(crossingsPerSecond(pcm.subarray(3_200))).toBeLessThan(960);
  });

  it('reads the same packets from Ogg pages', async () => {
    const webm = readWebmOpus(WEBM_TONE);
    const ogg = oggOpus(webm.packets, webm.channels, opusPacketSamples);
    const stream = readOggOpus(ogg);
    expect(stream.channels).toBe(2);
    expect(stream.packets).toEqual(webm.packets);
    expect((await decodeOpusToPcm16k(ogg, 'ogg')).byteLength).toBe(
      (await decodeOpusToPcm16k(WEBM_TONE, 'webm')).byteLength,
    );
  });

  it('refuses what holds no Opus audio', () => {
    expect(() => readWebmOpus(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x80]))).toThrow(/no Opus/);
    expect(() => readOggOpus(Buffer.from('OggS but nothing after it that makes sense'))).toThrow();
  });
});
