import { describe, expect, it } from 'vitest';
import { serverMsOf } from './worklist-bench-transport.ts';

describe('serverMsOf (the bench server Server-Timing the filter matrix reads)', () => {
  it('reads the app duration in ms', () => {
    expect(serverMsOf('app;dur=4.125')).toBe(4.125);
    expect(serverMsOf('db;dur=1.5, app;dur=12')).toBe(12);
    expect(serverMsOf(['cache;desc=miss', 'app;dur=0.731'])).toBe(0.731);
  });

  it('is undefined without an app duration', () => {
    expect(serverMsOf(undefined)).toBeUndefined();
    expect(serverMsOf('')).toBeUndefined();
    expect(serverMsOf('db;dur=3')).toBeUndefined();
    expect(serverMsOf('myapp;dur=3')).toBeUndefined();
  });
});
