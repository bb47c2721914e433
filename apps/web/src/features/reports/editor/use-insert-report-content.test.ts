import { describe, expect, it } from 'vitest';
import { parseInsertMessage } from './use-insert-report-content.ts';

describe('insert-report-content messages', () => {
  it('reads the report id, the content and who it is for', () => {
    expect(parseInsertMessage({ report_id: 'r1', content: '<p>Dictated.</p>' })).toEqual({
      reportId: 'r1',
      content: '<p>Dictated.</p>',
      userId: null,
    });
    expect(parseInsertMessage({ report_id: 'r1', content: 'x', by_user_id: 'u1' })?.userId).toBe('u1');
  });

  it('ignores malformed messages', () => {
    expect(parseInsertMessage(null)).toBeNull();
    expect(parseInsertMessage({ report_id: 1, content: 'x' })).toBeNull();
    expect(parseInsertMessage({ report_id: 'r1' })).toBeNull();
  });
});
