import { describe, expect, it } from 'vitest';
import { isPageBreakMarker, replaceEmptyParagraphs } from './empty-paragraphs.ts';

describe('replaceEmptyParagraphs', () => {
  it.each([
    ['<p></p>', '<br>'],
    ['<p> </p>', '<br>'],
    ['<p>\n\t </p>', '<br>'],
    ['<p><br></p>', '<br>'],
    ['<p><br/></p>', '<br>'],
    ['<p><br class="ProseMirror-trailingBreak"></p>', '<br>'],
    ['<h2>&nbsp;</h2>', '<br>'],
    ['<h1>&#160;&#xA0;\u00a0</h1>', '<br>'],
    ['<p>&ZeroWidthSpace;\u200b&#8203;</p>', '<br>'],
    ['<div></div>', '<br>'],
    ['<P></P>', '<br>'],
    ['<p style="text-align: center" class="x"></p>', '<br>'],
    ['<p><span style="color: red">&nbsp;</span></p>', '<br>'],
    ['<p><strong><em> </em></strong></p>', '<br>'],
    ['<p><!-- note --></p>', '<br>'],
  ])('turns %j into a line break', (input, expected) => {
    expect(replaceEmptyParagraphs(input)).toBe(expected);
  });

  it.each([
    '<p>Findings</p>',
    '<p>0</p>',
    '<p>&amp;</p>',
    '<p>&NBSP;</p>',
    '<p><img src="x.png"></p>',
    '<p><hr></p>',
    '<h3><span>Impression</span></h3>',
    '<div><table><tr><td></td></tr></table></div>',
    '<ul><li></li></ul>',
    '',
    'plain text',
  ])('keeps %j as it is', (input) => {
    expect(replaceEmptyParagraphs(input)).toBe(input);
  });

  it.each([
    '<div class="page-break"></div>',
    '<div class="report-section page-break-after"></div>',
    '<div data-page-break></div>',
    '<p data-page-break="true"> </p>',
    '<div style="page-break-after: always"></div>',
    '<div style="break-before: page"><br></div>',
    '<hr class="page-break">',
    '<span class="page-break"></span>',
  ])('keeps the page-break marker %j', (input) => {
    expect(replaceEmptyParagraphs(input)).toBe(input);
  });

  it('replaces only the empty elements of a report', () => {
    const input =
      '<h2>Findings</h2><p></p><p>Liver normal.</p><p>&nbsp;</p>' +
      '<div class="page-break"></div><h2> </h2><p>Impression: <b>normal</b></p>';
    expect(replaceEmptyParagraphs(input)).toBe(
      '<h2>Findings</h2><br><p>Liver normal.</p><br>' +
        '<div class="page-break"></div><br><p>Impression: <b>normal</b></p>',
    );
  });

  it('replaces an empty element inside a kept one', () => {
    expect(replaceEmptyParagraphs('<div><p></p><p>Text</p></div>')).toBe('<div><br><p>Text</p></div>');
    expect(replaceEmptyParagraphs('<table><tr><td><p> </p></td></tr></table>')).toBe(
      '<table><tr><td><br></td></tr></table>',
    );
  });

  it('replaces the outermost blank element as a whole', () => {
    expect(replaceEmptyParagraphs('<div><p></p><p><br></p></div>')).toBe('<br>');
  });

  it('keeps an element that holds a page-break marker', () => {
    const input = '<div><div class="page-break"></div></div>';
    expect(replaceEmptyParagraphs(input)).toBe(input);
    expect(replaceEmptyParagraphs('<div><p></p><div data-page-break></div></div>')).toBe(
      '<div><br><div data-page-break></div></div>',
    );
  });

  it('reads attribute values containing ">" correctly', () => {
    expect(replaceEmptyParagraphs('<p title="a > b"></p><p title=\'x>y\'>Text</p>')).toBe(
      "<br><p title='x>y'>Text</p>",
    );
  });

  it('leaves unclosed and mismatched elements alone', () => {
    expect(replaceEmptyParagraphs('<p>')).toBe('<p>');
    expect(replaceEmptyParagraphs('<div><p></div>')).toBe('<div><p></div>');
    expect(replaceEmptyParagraphs('</p><p></p>')).toBe('</p><br>');
    expect(replaceEmptyParagraphs('<p>a < b</p>')).toBe('<p>a < b</p>');
  });

  it('does not treat markup inside a script or style as elements', () => {
    const input = '<div><style>p:empty{}</style></div><script>"<p></p>"</script>';
    expect(replaceEmptyParagraphs(input)).toBe(input);
  });

  it('is idempotent', () => {
    const inputs = [
      '<div><p></p><p></p></div><p>a</p><p> </p>',
      '<div><p></p><p>Text</p></div><h2>&nbsp;</h2>',
      '<div class="page-break"></div><p><br></p>',
    ];
    for (const input of inputs) {
      const once = replaceEmptyParagraphs(input);
      expect(replaceEmptyParagraphs(once)).toBe(once);
    }
  });
});

describe('isPageBreakMarker', () => {
  it('recognises the marker attributes', () => {
    expect(isPageBreakMarker(' class="page-break"')).toBe(true);
    expect(isPageBreakMarker(' CLASS="x PAGE-BREAK"')).toBe(true);
    expect(isPageBreakMarker(' data-page-break')).toBe(true);
    expect(isPageBreakMarker(' style="color:red; page-break-before: always"')).toBe(true);
  });

  it('ignores other attributes', () => {
    expect(isPageBreakMarker('')).toBe(false);
    expect(isPageBreakMarker(' class="break"')).toBe(false);
    expect(isPageBreakMarker(' title="page-break"')).toBe(false);
    expect(isPageBreakMarker(' style="page-break-inside: avoid"')).toBe(false);
    expect(isPageBreakMarker(' data-page-breaker="1"')).toBe(false);
  });
});
