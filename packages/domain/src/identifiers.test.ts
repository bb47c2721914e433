import { describe, expect, it } from 'vitest';
import {
  IDENTIFIER_ALPHABET,
  ZGeneratedIdentifier,
  generateIdentifier,
  isGeneratedIdentifier,
  type TRandomBytesSource,
} from './identifiers.ts';

/** A fake random source that hands out the given bytes in order, then repeats the last batch. */
function scriptedBytes(values: number[]): TRandomBytesSource {
  let next = 0;
  return (bytes) => {
    for (let i = 0; i < bytes.length; i++) bytes[i] = values[next++ % values.length] ?? 0;
  };
}

describe('generateIdentifier', () => {
  it('is SM followed by 8 uppercase letters or digits', () => {
    for (let i = 0; i < 200; i++) {
      const id = generateIdentifier();
      expect(id).toMatch(/^SM[A-Z0-9]{8}$/);
      expect(isGeneratedIdentifier(id)).toBe(true);
    }
  });

  it('does not repeat itself', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => generateIdentifier()));
    expect(ids.size).toBe(1000);
  });

  it('maps bytes onto the alphabet', () => {
    expect(generateIdentifier(scriptedBytes([0, 1, 25, 26, 35, 36, 71, 251]))).toBe('SMABZ09A99');
  });

  it('rejects bytes 252-255 instead of folding them onto the alphabet (no modulo bias)', () => {
    expect(generateIdentifier(scriptedBytes([252, 253, 254, 255, 2, 3, 4, 5, 6, 7, 8, 9]))).toBe(
      'SMCDEFGHIJ',
    );
  });

  it('draws again when a whole batch is rejected', () => {
    let calls = 0;
    const source: TRandomBytesSource = (bytes) => {
      calls++;
      bytes.fill(calls === 1 ? 255 : 1);
    };
    expect(generateIdentifier(source)).toBe('SMBBBBBBBB');
    expect(calls).toBe(2);
  });

  it('gives up on a source that never yields usable bytes', () => {
    expect(() => generateIdentifier((bytes) => bytes.fill(255))).toThrow();
  });

  it('uses every character of the alphabet about equally often', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 4000; i++) {
      for (const c of generateIdentifier().slice(2)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect(counts.size).toBe(IDENTIFIER_ALPHABET.length);
    // 32,000 draws over 36 characters: about 889 each; a biased or broken generator falls outside.
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(700);
      expect(count).toBeLessThan(1080);
    }
  });
});

describe('isGeneratedIdentifier', () => {
  it.each(['SMABC12345', 'SM00000000', 'SMZZZZZZZZ'])('accepts %s', (value) => {
    expect(isGeneratedIdentifier(value)).toBe(true);
    expect(ZGeneratedIdentifier.safeParse(value).success).toBe(true);
  });

  it.each([
    'smABC12345',
    'SMabc12345',
    'SMABC1234',
    'SMABC123456',
    'XXABC12345',
    ' SMABC12345',
    'SMABC-2345',
    '',
  ])('rejects %j', (value) => {
    expect(isGeneratedIdentifier(value)).toBe(false);
    expect(ZGeneratedIdentifier.safeParse(value).success).toBe(false);
  });

  it('rejects non-strings', () => {
    expect(isGeneratedIdentifier(undefined)).toBe(false);
    expect(isGeneratedIdentifier(12345678)).toBe(false);
  });
});
