import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { REFRESH_COOKIE_PATH } from '@ris/domain';

/** Every device cookie's name starts so; the rest is derived from the account (one per account). */
export const DEVICE_COOKIE_PREFIX = 'ris_device_';
const VERSION = 'v1';

export type TDeviceCookie = {
  name: string;
  value: string;
  /** Where the browser sends it: the identity API only. */
  path: string;
  expires: Date;
};

/**
 * Device cookies (OWASP "device cookies" against lock-out denial of service): after a successful
 * sign-in the browser keeps, for that account, `v1.<issued-at>.<device id>.<mac>`, where the MAC is an
 * HMAC-SHA-256 over the account's lower-cased e-mail, the issue time and the random device id, with a
 * key derived from the token secret. Nothing is stored: the server recognises its own cookies, bound
 * to one account (another account's cookie, or an edited one, is ignored) and valid `ttlDays`. The
 * holder of a valid cookie is counted on its own by the sign-in throttle. One cookie per account, so
 * a shared workstation remembers each person who signed in on it.
 */
export class DeviceCookies {
  readonly #key: Buffer;
  readonly #ttlSeconds: number;

  constructor(tokenSecret: Uint8Array, ttlDays: number) {
    this.#key = createHmac('sha256', tokenSecret).update('ris device cookie key v1').digest();
    this.#ttlSeconds = ttlDays * 86_400;
  }

  /** The cookie name of an account (a digest of the e-mail, not the e-mail itself). */
  nameFor(account: string): string {
    return `${DEVICE_COOKIE_PREFIX}${createHash('sha256').update(account).digest('base64url').slice(0, 16)}`;
  }

  #mac(account: string, issuedAt: number, deviceId: string): Buffer {
    return createHmac('sha256', this.#key).update(`${VERSION}|${account}|${issuedAt}|${deviceId}`).digest();
  }

  /** The device id of a valid cookie of `account` among the request's cookies, else null. */
  deviceOf(account: string, cookies: Record<string, string | undefined>, now: Date): string | null {
    const value = cookies[this.nameFor(account)];
    if (!value) return null;
    const [version, issued, deviceId, mac, ...rest] = value.split('.');
    if (version !== VERSION || !issued || !deviceId || !mac || rest.length > 0) return null;
    if (!/^\d{1,12}$/.test(issued) || !/^[A-Za-z0-9_-]{22}$/.test(deviceId)) return null;
    const issuedAt = Number(issued);
    const age = now.getTime() / 1000 - issuedAt;
    if (age < -300 || age > this.#ttlSeconds) return null;
    const given = Buffer.from(mac, 'base64url');
    const expected = this.#mac(account, issuedAt, deviceId);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return deviceId;
  }

  /** A fresh cookie for `account`: the same device id when the browser had one, else a new one. */
  issue(account: string, deviceId: string | null, now: Date): TDeviceCookie {
    const id = deviceId ?? randomBytes(16).toString('base64url');
    const issuedAt = Math.floor(now.getTime() / 1000);
    const mac = this.#mac(account, issuedAt, id).toString('base64url');
    return {
      name: this.nameFor(account),
      value: `${VERSION}.${issuedAt}.${id}.${mac}`,
      path: REFRESH_COOKIE_PATH,
      expires: new Date((issuedAt + this.#ttlSeconds) * 1000),
    };
  }
}
