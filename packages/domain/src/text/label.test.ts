import { describe, expect, it } from 'vitest';
import { label } from './label.ts';

describe('label', () => {
  it.each([
    ['TO_READ', 'To Read'],
    ['IN_REVIEW', 'In Review'],
    ['FINAL', 'Final'],
    ['ORDERED', 'Ordered'],
    ['POST_SURGICAL', 'Post Surgical'],
    ['REFERRING_PHYSICIAN', 'Referring Physician'],
    ['ohif', 'Ohif'],
    ['__A__B_', 'A B'],
    ['', ''],
  ])('%s → %s', (value, expected) => {
    expect(label(value)).toBe(expected);
  });
});
