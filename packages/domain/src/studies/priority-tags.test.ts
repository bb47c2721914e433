import { describe, expect, it } from 'vitest';
import { PRIORITY_TAGS, priorityTagLabel } from './priority-tags.ts';

describe('priorityTagLabel', () => {
  it('keeps the MLC abbreviation and reads the other tags as words', () => {
    expect(priorityTagLabel('MLC')).toBe('MLC');
    expect(priorityTagLabel('POST_SURGICAL')).toBe('Post Surgical');
    expect(priorityTagLabel('EMERGENCY')).toBe('Emergency');
    expect(new Set(PRIORITY_TAGS.map(priorityTagLabel)).size).toBe(PRIORITY_TAGS.length);
  });
});
