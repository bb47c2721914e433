import { describe, expect, it } from 'vitest';
import { backoffSeconds, secondsToWait } from './sign-in-throttle.ts';

const options = { baseSeconds: 5, maxSeconds: 900 };

describe('sign-in delays', () => {
  it('double from the base at each failure past the limit, up to the maximum', () => {
    expect([9, 10, 11, 12, 30].map((failures) => backoffSeconds(failures, 10, options))).toEqual([
      0, 5, 10, 20, 900,
    ]);
  });

  it('admit every attempt below the limit, even when a concurrent failure reads as in the future', () => {
    // Two people behind one address sign in at once: the other's provisional row was written by a
    // transaction that started a few ms after this one, so it is "-0.002 s" old here.
    expect(secondsToWait(2, -0.002, 20, options)).toBe(0);
    expect(secondsToWait(19, 0, 20, options)).toBe(0);
  });

  it('past the limit, wait what is left of the delay since the last failure, at least a second', () => {
    expect(secondsToWait(10, 1.5, 10, options)).toBe(4);
    expect(secondsToWait(10, 4.99, 10, options)).toBe(1);
    expect(secondsToWait(10, -0.002, 10, options)).toBe(6);
    expect(secondsToWait(10, 5, 10, options)).toBe(0);
    expect(secondsToWait(11, null, 10, options)).toBe(0);
  });
});
