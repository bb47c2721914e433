import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { IdTokens, type TIdTokenInput } from './id-tokens.ts';

const secret = randomBytes(48);
const tokens = new IdTokens(secret, { issuer: 'https://ris.example.test', ttlSeconds: 3600 });
const input: TIdTokenInput = {
  sub: '7d1c1d52-5d6e-4c7e-9c55-3d0f0a4f3e11',
  email: 'rad@example.test',
  org: 'a3c1d3e2-0b7e-4f7e-8a51-0a6c3b1d2e4f',
  role: 'RADIOLOGIST',
  user_type: 'REPORTER',
  fac: ['b1c1d3e2-0b7e-4f7e-8a51-0a6c3b1d2e4f'],
  sid: 'c1c1d3e2-0b7e-4f7e-8a51-0a6c3b1d2e4f',
};

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe('IdTokens', () => {
  it('signs tokens that jose verifies, with every claim', async () => {
    const token = await tokens.sign(input);
    const { payload, protectedHeader } = await jwtVerify(token, secret, {
      issuer: 'https://ris.example.test',
    });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({ ...input, iss: 'https://ris.example.test' });
    expect(Number(payload.exp) - Number(payload.iat)).toBe(3600);
    expect(tokens.verify(token)).toMatchObject(input);
  });

  it('accepts a token jose signed with the same key and claims', async () => {
    const { sub, ...claims } = input;
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(sub)
      .setIssuer('https://ris.example.test')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret);
    expect(tokens.verify(token).sub).toBe(sub);
  });

  it('refuses tampering, another key, another issuer, alg none and garbage', async () => {
    const token = await tokens.sign(input);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ ...input, role: 'ADMIN', iat: 1, exp: 4e9 })).toString(
      'base64url',
    );
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const other = new IdTokens(randomBytes(48), { issuer: 'https://ris.example.test', ttlSeconds: 3600 });
    const elsewhere = new IdTokens(secret, { issuer: 'https://other.example.test', ttlSeconds: 3600 });
    for (const bad of [
      `${header}.${forged}.${signature}`,
      `${none}.${payload}.`,
      `${none}.${payload}.${signature}`,
      await other.sign(input),
      await elsewhere.sign(input),
      `${token}.extra`,
      'not.a.token',
      '',
    ]) {
      expect(
        codeOf(() => tokens.verify(bad)),
        bad,
      ).toBe('UNAUTHENTICATED');
    }
  });

  it('answers auth/id-token-expired after exp (with 5 s of clock tolerance)', async () => {
    const issued = Date.now() - 3610_000;
    const token = await tokens.sign(input, issued);
    expect(codeOf(() => tokens.verify(token))).toBe('auth/id-token-expired');
    expect(codeOf(() => tokens.verify(token, issued + 3600_000 + 2000))).toBeUndefined();
  });
});
