import { createHash, randomBytes } from 'node:crypto';

/** An opaque random token (256 bits, base64url): refresh tokens and one-time link tokens. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database stores instead of a token: its SHA-256, hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
