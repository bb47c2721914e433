import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { RADIOLOGIST_USER_TYPES, ROLES, type TRadiologistUserType, type TRole } from '@ris/domain';
import { SignJWT } from 'jose';
import { idTokenExpired, unauthenticated } from './auth-errors.ts';

/** The claims of an ID token (a JWT, HS256). */
export type TIdTokenClaims = {
  sub: string;
  email: string;
  org: string | null;
  role: TRole | null;
  user_type: TRadiologistUserType | null;
  fac: string[];
  sid: string;
  iat: number;
  exp: number;
  iss: string;
};

export type TIdTokenInput = Omit<TIdTokenClaims, 'iat' | 'exp' | 'iss'>;

// Tokens from the same server never need more than a small leeway; clocks of replicas may differ.
const CLOCK_TOLERANCE_SECONDS = 5;

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function nullableMember<T extends string>(list: readonly T[], value: unknown): value is T | null {
  return value === null || (typeof value === 'string' && (list as readonly string[]).includes(value));
}

/**
 * Signs ID tokens with jose and checks them with node:crypto. jose's jwtVerify goes through WebCrypto
 * (async, ~75-100 µs a check here); this HS256-only check is synchronous and ~15 µs, and it is strict:
 * the header must name HS256 (no `none`, no key confusion), the MAC is compared in constant time, and
 * iss/exp/iat and every claim's type are checked. Tokens it accepts are exactly those jose accepts
 * (tested in id-tokens.test.ts).
 */
export class IdTokens {
  readonly #key: KeyObject;
  readonly #issuer: string;
  readonly ttlSeconds: number;

  constructor(secret: Uint8Array, options: { issuer: string; ttlSeconds: number }) {
    this.#key = createSecretKey(secret);
    this.#issuer = options.issuer;
    this.ttlSeconds = options.ttlSeconds;
  }

  async sign(input: TIdTokenInput, now = Date.now()): Promise<string> {
    const { sub, ...claims } = input;
    const iat = Math.floor(now / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(sub)
      .setIssuer(this.#issuer)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .sign(this.#key);
  }

  /** The claims of a well-signed, unexpired token; throws UNAUTHENTICATED or auth/id-token-expired. */
  verify(token: string, now = Date.now()): TIdTokenClaims {
    const first = token.indexOf('.');
    const second = token.indexOf('.', first + 1);
    if (first < 1 || second < 0 || token.indexOf('.', second + 1) !== -1 || token.length > 8192) {
      throw unauthenticated('The sign-in token is malformed.');
    }
    const expected = createHmac('sha256', this.#key).update(token.slice(0, second)).digest();
    const given = Buffer.from(token.slice(second + 1), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw unauthenticated('The sign-in token is not valid.');
    }
    const header = this.#parse(token.slice(0, first));
    if (header.alg !== 'HS256' || 'crit' in header) throw unauthenticated('The sign-in token is not valid.');
    const claims = this.#parse(token.slice(first + 1, second));
    if (!isClaims(claims) || claims.iss !== this.#issuer) {
      throw unauthenticated('The sign-in token is not valid.');
    }
    const nowSeconds = Math.floor(now / 1000);
    if (claims.exp <= nowSeconds - CLOCK_TOLERANCE_SECONDS) throw idTokenExpired();
    if (claims.iat > nowSeconds + CLOCK_TOLERANCE_SECONDS)
      throw unauthenticated('The sign-in token is not valid.');
    return claims;
  }

  #parse(segment: string): Record<string, unknown> {
    try {
      const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
      if (value && typeof value === 'object' && !Array.isArray(value))
        return value as Record<string, unknown>;
    } catch {
      // fall through
    }
    throw unauthenticated('The sign-in token is malformed.');
  }
}

function isClaims(value: Record<string, unknown>): value is TIdTokenClaims {
  return (
    typeof value.sub === 'string' &&
    typeof value.email === 'string' &&
    typeof value.sid === 'string' &&
    typeof value.iss === 'string' &&
    Number.isInteger(value.iat) &&
    Number.isInteger(value.exp) &&
    (value.org === null || typeof value.org === 'string') &&
    nullableMember(ROLES, value.role) &&
    nullableMember(RADIOLOGIST_USER_TYPES, value.user_type) &&
    isStringArray(value.fac)
  );
}
