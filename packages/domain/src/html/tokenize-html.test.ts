import { describe, expect, it } from 'vitest';
import { parseAttributes, tokenizeHtml } from './tokenize-html.ts';

describe('tokenizeHtml', () => {
  it('splits tags, text and comments with their positions', () => {
    const html = '<p class="a">Hi<!-- c --></P><br/>';
    expect(tokenizeHtml(html)).toEqual([
      { kind: 'start-tag', start: 0, end: 13, name: 'p', attributes: ' class="a"', selfClosing: false },
      { kind: 'text', start: 13, end: 15, text: 'Hi' },
      { kind: 'comment', start: 15, end: 25 },
      { kind: 'end-tag', start: 25, end: 29, name: 'p' },
      { kind: 'start-tag', start: 29, end: 34, name: 'br', attributes: '/', selfClosing: true },
    ]);
  });

  it('treats a lone "<" as text', () => {
    expect(tokenizeHtml('1 < 2')).toEqual([{ kind: 'text', start: 0, end: 5, text: '1 < 2' }]);
  });

  it('reads declarations', () => {
    expect(tokenizeHtml('<!DOCTYPE html>')).toEqual([{ kind: 'declaration', start: 0, end: 15 }]);
  });
});

describe('parseAttributes', () => {
  it('reads quoted, unquoted and bare attributes', () => {
    const attributes = parseAttributes(' class="a b" data-x=1 hidden STYLE=\'c:d\'');
    expect([...attributes]).toEqual([
      ['class', 'a b'],
      ['data-x', '1'],
      ['hidden', ''],
      ['style', 'c:d'],
    ]);
  });
});
