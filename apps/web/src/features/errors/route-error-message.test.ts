import { describe, expect, it } from 'vitest';
import { routeErrorMessage } from './route-error-message.ts';

describe('routeErrorMessage', () => {
  it('reads Errors, strings and other values', () => {
    expect(routeErrorMessage(new TypeError('x is undefined'))).toBe('x is undefined');
    expect(routeErrorMessage('plain text')).toBe('plain text');
    expect(routeErrorMessage({ reason: 'odd' })).toBe('{"reason":"odd"}');
    expect(routeErrorMessage(undefined)).toBe('undefined');
  });

  it('reads a thrown route response as status and text', () => {
    const response = { status: 404, statusText: 'Not Found', internal: true, data: 'No route matches' };
    expect(routeErrorMessage(response)).toBe('404 Not Found');
  });
});
