import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ViewerPasses } from './viewer-passes.ts';

const session = {
  userId: '11111111-1111-4111-8111-111111111111',
  sessionId: '22222222-2222-4222-8222-222222222222',
  organisationId: '33333333-3333-4333-8333-333333333333',
  issuedAt: 1_700_000_000,
  studyUid: '1.2.840.1',
};

function reencoded(pass: string, change: (wire: Record<string, unknown>) => void): string {
  const [body, signature] = pass.split('.');
  const wire = JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  change(wire);
  return `${Buffer.from(JSON.stringify(wire)).toString('base64url')}.${signature ?? ''}`;
}

describe('ViewerPasses', () => {
  const now = { ms: Date.UTC(2026, 0, 1) };
  const passes = new ViewerPasses(randomBytes(32), 8 * 3600, () => now.ms);

  it('gives back what it signed, for its own kind only', () => {
    const ticket = passes.issue('ticket', session, 60);
    expect(passes.verify('ticket', ticket)).toEqual({
      kind: 'ticket',
      ...session,
      expires: now.ms / 1000 + 60,
    });
    expect(passes.verify('cookie', ticket)).toBeNull();
    expect(passes.verify('weasis', ticket)).toBeNull();
  });

  it('refuses an expired pass, one signed with another key, and any altered field', () => {
    const pass = passes.issue('weasis', session, 60);
    now.ms += 61_000;
    expect(passes.verify('weasis', pass)).toBeNull();
    now.ms -= 61_000;
    expect(new ViewerPasses(randomBytes(32), 60, () => now.ms).verify('weasis', pass)).toBeNull();
    const changes: Array<(wire: Record<string, unknown>) => void> = [
      (wire) => (wire.d = '1.2.840.2'),
      (wire) => (wire.u = '44444444-4444-4444-8444-444444444444'),
      (wire) => (wire.x = Number(wire.x) + 3600),
      (wire) => (wire.i = Number(wire.i) + 1),
      (wire) => (wire.k = 'cookie'),
      (wire) => (wire.u = `${session.userId}|x`),
    ];
    for (const change of changes) {
      const altered = reencoded(pass, change);
      expect(passes.verify('weasis', altered)).toBeNull();
      expect(passes.verify('cookie', altered)).toBeNull();
    }
    for (const junk of ['', '.', 'a.b', `${pass}.x`, pass.replace('.', ''), 'x'.repeat(5000)])
      expect(passes.verify('weasis', junk)).toBeNull();
  });
});
