// Short-lived signed links: a download a browser follows as a plain link, without the bearer token.
// The signature is an HMAC over the link's fields and its expiry, with a key derived per purpose from
// the identity token secret (never used as is), so replicas sharing that secret agree and a link
// made for one purpose is worthless for another.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TConfig } from '../config.ts';
import { resolveTokenSecret } from './token-secret.ts';

export class LinkSigner {
  readonly #key: Buffer;
  readonly #ttlSeconds: number;
  readonly #now: () => Date;

  constructor(key: Buffer, ttlSeconds: number, now: () => Date = () => new Date()) {
    this.#key = key;
    this.#ttlSeconds = ttlSeconds;
    this.#now = now;
  }

  #nowSeconds(): number {
    return Math.floor(this.#now().getTime() / 1000);
  }

  /** The expiry (Unix seconds) of a link made now. */
  expiresFromNow(): number {
    return this.#nowSeconds() + this.#ttlSeconds;
  }

  /** The hex signature of these fields (in order) and this expiry. */
  sign(fields: readonly string[], expires: number): string {
    return createHmac('sha256', this.#key)
      .update(`${fields.join('|')}|${expires}`)
      .digest('hex');
  }

  /** True when the link has not expired and `signature` was made for exactly these fields and expiry. */
  verify(fields: readonly string[], expires: number, signature: string): boolean {
    if (!Number.isFinite(expires) || expires < this.#nowSeconds()) return false;
    if (!/^[0-9a-f]{64}$/i.test(signature)) return false;
    const given = Buffer.from(signature, 'hex');
    const expected = Buffer.from(this.sign(fields, expires), 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** A purpose's key: HMAC(identity token secret, label). */
export async function deriveLinkKey(
  config: Pick<TConfig, 'auth' | 'dataDir'>,
  label: string,
): Promise<Buffer> {
  const secret = await resolveTokenSecret(config.auth.tokenSecret, config.dataDir);
  return createHmac('sha256', secret.secret).update(label).digest();
}
