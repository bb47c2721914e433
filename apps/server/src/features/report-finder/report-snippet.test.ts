import { describe, expect, it } from 'vitest';
import { MATCH_START, MATCH_STOP, snippetFromHeadline, snippetFromOpening } from './report-snippet.ts';

describe('snippetFromHeadline', () => {
  it('cuts at the markers, collapses white space and trims the ends', () => {
    const headline = `  Small${MATCH_START}pleural${MATCH_STOP}\n\n${MATCH_START}effusion${MATCH_STOP} seen. `;
    expect(snippetFromHeadline(headline)).toEqual([
      { text: 'Small', match: false },
      { text: 'pleural', match: true },
      { text: ' ', match: false },
      { text: 'effusion', match: true },
      { text: ' seen.', match: false },
    ]);
  });

  it('keeps markup-like text as text and gives nothing for an empty headline', () => {
    expect(snippetFromHeadline(`<b>${MATCH_START}x${MATCH_STOP}</b>`)).toEqual([
      { text: '<b>', match: false },
      { text: 'x', match: true },
      { text: '</b>', match: false },
    ]);
    expect(snippetFromHeadline('')).toEqual([]);
  });
});

describe('snippetFromOpening', () => {
  it('keeps a short text whole and cuts a long one at a space with an ellipsis', () => {
    expect(snippetFromOpening('Normal\nstudy.')).toEqual([{ text: 'Normal study.', match: false }]);
    const [part] = snippetFromOpening('word '.repeat(100));
    expect(part?.text.endsWith('word…')).toBe(true);
    expect(part?.text.length).toBeLessThanOrEqual(201);
    expect(snippetFromOpening(' \n ')).toEqual([]);
  });
});
