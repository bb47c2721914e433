import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './sealed-secrets.ts';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, and never seals the same text twice alike', () => {
    const a = box.seal('orthanc-password');
    const b = box.seal('orthanc-password');
    expect(a).not.toBe(b);
    expect(a).not.toContain('orthanc-password');
    expect(box.open(a)).toBe('orthanc-password');
  });

  it('refuses text sealed under another key or altered', () => {
    const sealed = box.seal('token');
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    const altered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(altered)).toThrow();
    expect(() => box.open('plain')).toThrow();
  });
});
