import { describe, expect, it } from 'vitest';
import { ZErrorBody, errorBodyMessage } from './errors.ts';

describe('ZErrorBody', () => {
  it('accepts an error body with or without details', () => {
    const body = { error: { code: 'NOT_FOUND', message: 'Study not found' } };
    expect(ZErrorBody.parse(body)).toEqual(body);
    const withDetails = { error: { code: 'VALIDATION', message: 'Invalid', details: [{ path: 'limit' }] } };
    expect(ZErrorBody.parse(withDetails)).toEqual(withDetails);
  });

  it('rejects other shapes', () => {
    expect(ZErrorBody.safeParse({ code: 'X', message: 'y' }).success).toBe(false);
    expect(ZErrorBody.safeParse({ error: { code: 'X' } }).success).toBe(false);
    expect(ZErrorBody.safeParse({ error: { code: 1, message: 'y' } }).success).toBe(false);
  });
});

describe('errorBodyMessage', () => {
  it('returns the message of an error body', () => {
    expect(errorBodyMessage({ error: { code: 'X', message: 'Worklist locked' } })).toBe('Worklist locked');
  });

  it('returns undefined for anything else or a blank message', () => {
    expect(errorBodyMessage({ error: { code: 'X', message: ' ' } })).toBeUndefined();
    expect(errorBodyMessage('Internal Server Error')).toBeUndefined();
    expect(errorBodyMessage(null)).toBeUndefined();
  });
});
