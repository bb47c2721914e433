import { describe, expect, it } from 'vitest';
import { isPermanentGraphError, whatsappRecipient } from './whatsapp-client.ts';

describe('isPermanentGraphError', () => {
  it('refuses for good what no retry can fix: invalid parameters, undeliverable numbers', () => {
    expect(isPermanentGraphError(400, 100)).toBe(true);
    expect(isPermanentGraphError(400, 131026)).toBe(true);
    expect(isPermanentGraphError(400, 131008)).toBe(true);
    expect(isPermanentGraphError(400, 131009)).toBe(true);
    expect(isPermanentGraphError(404, null)).toBe(true);
  });

  it('retries rate limits, server errors and the transient codes, whatever the status', () => {
    expect(isPermanentGraphError(429, null)).toBe(false);
    // An expired token: the operator sets a new one, the messages wait meanwhile.
    expect(isPermanentGraphError(401, 190)).toBe(false);
    expect(isPermanentGraphError(500, null)).toBe(false);
    expect(isPermanentGraphError(503, 131000)).toBe(false);
    expect(isPermanentGraphError(400, 4)).toBe(false);
    expect(isPermanentGraphError(400, 80007)).toBe(false);
    expect(isPermanentGraphError(400, 130429)).toBe(false);
    expect(isPermanentGraphError(400, 131000)).toBe(false);
  });
});

describe('whatsappRecipient', () => {
  it('sends the digits of an E.164 number, without the plus', () => {
    expect(whatsappRecipient('+919876543210')).toBe('919876543210');
  });
});
