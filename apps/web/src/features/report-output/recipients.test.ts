import { MAX_REPORT_RECIPIENTS } from '@ris/domain';
import { describe, expect, it } from 'vitest';
import { addRecipients, checkRecipient, splitEntries } from './recipients.ts';

describe('recipient validation', () => {
  it('splits e-mail addresses on commas, semicolons and spaces, numbers only on commas and lines', () => {
    expect(splitEntries('email', ' a@x.org, b@y.org;c@z.org  d@w.org ')).toEqual([
      'a@x.org',
      'b@y.org',
      'c@z.org',
      'd@w.org',
    ]);
    expect(splitEntries('whatsapp', '+91 98765 43210, +44 20 7946 0958\n+14155550123')).toEqual([
      '+91 98765 43210',
      '+44 20 7946 0958',
      '+14155550123',
    ]);
  });

  it('accepts what the API accepts, as the API will store it', () => {
    expect(checkRecipient('email', ' Dr.Rao@Hospital.ORG ')).toEqual({
      ok: true,
      value: 'dr.rao@hospital.org',
    });
    expect(checkRecipient('whatsapp', '+91 98765-43210')).toEqual({ ok: true, value: '+919876543210' });
    expect(checkRecipient('whatsapp', '0044 (20) 7946.0958')).toEqual({ ok: true, value: '+442079460958' });
  });

  it('refuses bad entries with a message naming the entry', () => {
    expect(checkRecipient('email', 'rao@')).toEqual({
      ok: false,
      error: 'rao@: must be a valid e-mail address',
    });
    expect(checkRecipient('whatsapp', '9876543210')).toEqual({
      ok: false,
      error: '9876543210: must be an E.164 number such as +919876543210',
    });
    // Too short (7 digits) and too long (16 digits) for E.164.
    expect(checkRecipient('whatsapp', '+9112345').ok).toBe(false);
    expect(checkRecipient('whatsapp', '+9112345678901234').ok).toBe(false);
  });

  it('adds the valid entries once, leaves the refused ones in the field with the first error', () => {
    const result = addRecipients('email', ['a@x.org'], 'A@x.org, b@y.org, nope, c@z.org, bad@');
    expect(result).toEqual({
      recipients: ['a@x.org', 'b@y.org', 'c@z.org'],
      rest: 'nope bad@',
      error: 'nope: must be a valid e-mail address',
    });
  });

  it(`stops at ${MAX_REPORT_RECIPIENTS} recipients per channel`, () => {
    const nine = Array.from({ length: MAX_REPORT_RECIPIENTS - 1 }, (_, index) => `+9198765432${10 + index}`);
    const result = addRecipients('whatsapp', nine, '+919000000001, +919000000002');
    expect(result.recipients).toHaveLength(MAX_REPORT_RECIPIENTS);
    expect(result.recipients.at(-1)).toBe('+919000000001');
    expect(result.rest).toBe('+919000000002');
    expect(result.error).toBe(`At most ${MAX_REPORT_RECIPIENTS} mobile numbers per share`);
  });
});
