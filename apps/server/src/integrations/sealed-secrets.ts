// Secrets the server keeps for others (an archive's password or token): sealed with AES-256-GCM under
// a key derived from the identity token secret, so every replica sharing that secret can open them
// and a database dump alone cannot. Sealed text: 'v1.' + base64url(iv | tag | ciphertext).
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const KEY_LABEL = 'ris sealed secrets v1';
const PREFIX = 'v1.';

export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    this.#key = key;
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The plain text, or an error when the text was sealed under another key or was altered. */
  open(sealed: string): string {
    if (!sealed.startsWith(PREFIX)) throw new Error('not a sealed secret');
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
    if (raw.length < 28) throw new Error('sealed secret too short');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/** The app's box: key = HMAC(identity token secret, label), as the signed download links do. */
export function secretBoxOf(tokenSecret: Uint8Array): SecretBox {
  return new SecretBox(createHmac('sha256', tokenSecret).update(KEY_LABEL).digest());
}
