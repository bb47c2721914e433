import { z } from 'zod';

export const IDENTIFIER_PREFIX = 'SM';
export const IDENTIFIER_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const IDENTIFIER_RANDOM_LENGTH = 8;
export const IDENTIFIER_PATTERN = /^SM[A-Z0-9]{8}$/;

export const ZGeneratedIdentifier = z.string().regex(IDENTIFIER_PATTERN);
export type TGeneratedIdentifier = z.infer<typeof ZGeneratedIdentifier>;

/** Fills the array with random bytes, like crypto.getRandomValues. */
export type TRandomBytesSource = (bytes: Uint8Array) => void;

const defaultRandomBytes: TRandomBytesSource = (bytes) => {
  globalThis.crypto.getRandomValues(bytes);
};

// Largest multiple of the alphabet size that fits in a byte (252 = 7 × 36): bytes at or above it
// are thrown away so every character is equally likely (no modulo bias).
const ACCEPT_BELOW = 256 - (256 % IDENTIFIER_ALPHABET.length);

/**
 * A new identifier: 'SM' + 8 characters from A-Z0-9, drawn from a cryptographic source
 * (globalThis.crypto, present in browsers and Node) by rejection sampling. `randomBytes` is for tests.
 */
export function generateIdentifier(randomBytes: TRandomBytesSource = defaultRandomBytes): string {
  let result = IDENTIFIER_PREFIX;
  const buffer = new Uint8Array(16);
  let draws = 0;
  while (result.length < IDENTIFIER_PREFIX.length + IDENTIFIER_RANDOM_LENGTH) {
    if (draws++ > 1_000) throw new Error('The random source keeps returning unusable bytes');
    randomBytes(buffer);
    for (const byte of buffer) {
      if (byte >= ACCEPT_BELOW) continue;
      result += IDENTIFIER_ALPHABET.charAt(byte % IDENTIFIER_ALPHABET.length);
      if (result.length === IDENTIFIER_PREFIX.length + IDENTIFIER_RANDOM_LENGTH) break;
    }
  }
  return result;
}

/** Whether a string has the shape of a generated identifier (case-sensitive, no blanks). */
export function isGeneratedIdentifier(value: unknown): value is string {
  return typeof value === 'string' && IDENTIFIER_PATTERN.test(value);
}
