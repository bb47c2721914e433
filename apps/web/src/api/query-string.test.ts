import { describe, expect, it } from 'vitest';
import { buildQueryString } from './query-string.ts';

describe('buildQueryString', () => {
  it('returns an empty string without parameters', () => {
    expect(buildQueryString()).toBe('');
    expect(buildQueryString({})).toBe('');
  });

  it('repeats the key for array parameters', () => {
    expect(buildQueryString({ statuses: ['ORDERED', 'TO_READ'] })).toBe('?statuses=ORDERED&statuses=TO_READ');
  });

  it('skips undefined and null values, also inside arrays', () => {
    expect(
      buildQueryString({
        search: undefined,
        limit: 10,
        offset: null,
        facility_ids: ['a', null, undefined, 'b'],
      }),
    ).toBe('?limit=10&facility_ids=a&facility_ids=b');
  });

  it('leaves out an empty array entirely', () => {
    expect(buildQueryString({ modalities: [], limit: 25 })).toBe('?limit=25');
  });

  it('serialises numbers, booleans, zero, empty strings and dates', () => {
    const date = new Date('2025-03-04T05:06:07.000Z');
    expect(buildQueryString({ offset: 0, send_email: false, search: '', start_date: date })).toBe(
      '?offset=0&send_email=false&search=&start_date=2025-03-04T05%3A06%3A07.000Z',
    );
  });

  it('encodes reserved characters in keys and values', () => {
    expect(buildQueryString({ search: 'O’Brien & Co', 'a b': '1+1' })).toBe(
      '?search=O%E2%80%99Brien+%26+Co&a+b=1%2B1',
    );
  });
});
