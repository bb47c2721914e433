import { describe, expect, it } from 'vitest';
import { MAX_PARSED_NESTING } from './bounded-nesting.ts';
import { MAX_REPORT_HTML_NESTING, reportHtmlToText, sanitizeReportHtml } from './sanitize-report-html.ts';

const REPORT = '11111111-1111-4111-8111-111111111111';
const OTHER_REPORT = '33333333-3333-4333-8333-333333333333';
const IMAGE_ID = '22222222-2222-4222-8222-222222222222';
const IMAGE = `/api/v1/worklist/report/${REPORT}/images/${IMAGE_ID}`;

describe('sanitizeReportHtml', () => {
  it('keeps what the editor produces', () => {
    const html =
      '<h2 style="text-align: center">Findings</h2><p><strong>b</strong> <em>i</em> <u>u</u> <s>s</s></p>' +
      '<ul><li><p>one</p></li></ul><ol start="3"><li><p>two</p></li></ol><blockquote><p>q</p></blockquote><hr>' +
      '<table><tbody><tr><th colspan="2" rowspan="1"><p>h</p></th></tr><tr><td><p>c</p></td></tr></tbody></table>' +
      `<img src="${IMAGE}" alt="key image"><div data-type="page-break"></div>`;
    const canonical = html
      .replace('text-align: center', 'text-align:center')
      .replace('<hr>', '<hr />')
      .replace('alt="key image">', 'alt="key image" />');
    expect(sanitizeReportHtml(html, { reportId: REPORT })).toBe(canonical);
  });

  it("keeps only the report's own images, and none without a report", () => {
    const own = `<img src="${IMAGE}" alt="own" />`;
    const html = [
      own,
      `<img src="/api/v1/worklist/report/${OTHER_REPORT}/images/${IMAGE_ID}" alt="other report" />`,
      `<img src="/api/v1/users/me?report/${REPORT}/images/${IMAGE_ID}" />`,
      `<img src="/api/v1/worklist/report/${REPORT}/images/${IMAGE_ID}?x=1" />`,
      `<img src="/api/v1/worklist/report/${REPORT}/images/${IMAGE_ID}/../../../../../users/me" />`,
      `<img src="/API/V1/worklist/report/${REPORT}/images/${IMAGE_ID}" />`,
    ].join('');
    expect(sanitizeReportHtml(html, { reportId: REPORT })).toBe(own);
    expect(sanitizeReportHtml(html, { reportId: REPORT.toUpperCase() })).toBe(own);
    expect(sanitizeReportHtml(html, { reportId: OTHER_REPORT })).toBe(
      `<img src="/api/v1/worklist/report/${OTHER_REPORT}/images/${IMAGE_ID}" alt="other report" />`,
    );
    // Templates and macros: no report, no images.
    expect(sanitizeReportHtml(html)).toBe('');
    expect(sanitizeReportHtml(`<p>a</p>${own}<p>b</p>`)).toBe('<p>a</p><p>b</p>');
  });

  it.each([
    ['<script>alert(1)</script><p>x</p>', '<p>x</p>'],
    ['<p onclick="alert(1)">x</p>', '<p>x</p>'],
    ['<img src=x onerror=alert(1)>', ''],
    // An image the sanitiser keeps (the report's own): only the attribute allow-list removes onerror.
    [`<img src="${IMAGE}" onerror="alert(1)">`, `<img src="${IMAGE}" />`],
    ['<img src="javascript:alert(1)">', ''],
    ['<img src="https://evil.test/track.png">', ''],
    ['<img src="//evil.test/a.png">', ''],
    ['<a href="javascript:alert(1)">x</a>', 'x'],
    ['<svg><script>alert(1)</script></svg>', ''],
    ['<iframe src="https://evil.test"></iframe>', ''],
    ['<p style="background:url(javascript:alert(1))">x</p>', '<p>x</p>'],
    ['<p style="text-align: center; position: fixed">x</p>', '<p style="text-align:center">x</p>'],
    ['<div onmouseover="alert(1)">x</div>', '<p>x</p>'],
    ['<math><mi xlink:href="javascript:alert(1)">x</mi></math>', 'x'],
    ['<style>p{}</style><p>x</p>', '<p>x</p>'],
    ['<object data="x"></object>', ''],
    ['<p>&lt;script&gt;</p>', '<p>&lt;script&gt;</p>'],
  ])('removes %s', (dirty, clean) => {
    const out = sanitizeReportHtml(dirty, { reportId: REPORT });
    expect(out).toBe(clean);
    expect(out).not.toMatch(/<script|on\w+=|javascript:/i);
  });

  it('keeps at most 40 levels of nesting: deeper tags are dropped, their text kept', () => {
    const deep = `${'<blockquote>'.repeat(450)}<p>deep <strong>text</strong></p>${'</blockquote>'.repeat(450)}<p>after</p>`;
    const out = sanitizeReportHtml(deep);
    expect(out.match(/<blockquote>/g)).toHaveLength(MAX_REPORT_HTML_NESTING);
    expect(out).toMatch(/deep text<\/blockquote>/);
    expect(out.endsWith('<p>after</p>')).toBe(true);
    expect(sanitizeReportHtml(out)).toBe(out);
    const strong = sanitizeReportHtml(`<p>${'<strong>'.repeat(480)}x${'</strong>'.repeat(480)}</p>`);
    expect(strong).toBe(`<p>${'<strong>'.repeat(39)}x${'</strong>'.repeat(39)}</p>`);
  });

  it(`reads HTML nested more than ${MAX_PARSED_NESTING} levels deep as its text, in one paragraph`, () => {
    // 100,000 nested "<ul><li>" (800 KB) took 10 s to parse as elements.
    const lists = `${'<ul><li>'.repeat(100_000)}finding &amp; <b>impression</b>`;
    expect(sanitizeReportHtml(lists)).toBe('<p>finding &amp; impression</p>');
    expect(reportHtmlToText(lists)).toBe('finding & impression');
    // Closing tags of elements that are not open close nothing: the depth still passes the limit.
    const strays = `${`${'<em>'.repeat(300)}${'</i>'.repeat(300)}`.repeat(3)}a < b`;
    expect(sanitizeReportHtml(strays)).toBe('<p>a &lt; b</p>');
    // Just under the limit, the elements are parsed (and dropped past 40 levels).
    const under = `${'<em>'.repeat(MAX_PARSED_NESTING - 1)}x`;
    expect(sanitizeReportHtml(under)).toBe(
      `${'<em>'.repeat(MAX_REPORT_HTML_NESTING)}x${'</em>'.repeat(MAX_REPORT_HTML_NESTING)}`,
    );
  });

  it('strips control characters, as text or as entities, but keeps tabs and line breaks', () => {
    const out = sanitizeReportHtml('<p>a&#1;b\u0002c&#x1F;d&#xFFFF;e\tf\ng</p><p>h&#0;</p><img alt="x&#7;">');
    expect(out).toBe('<p>abcde\tf\ng</p><p>h\ufffd</p>');
  });

  it('is idempotent', () => {
    const once = sanitizeReportHtml('<p style="text-align: right">a<b>b</b><i>c</i></p><div>d</div>');
    expect(sanitizeReportHtml(once)).toBe(once);
  });
});

describe('reportHtmlToText', () => {
  it('gives readable plain text', () => {
    expect(
      reportHtmlToText('<h2>Findings</h2><p>Liver &amp; spleen&nbsp;normal.</p><p>No &lt;mass&gt;.</p>'),
    ).toBe('Findings\nLiver & spleen normal.\nNo <mass>.');
  });
});
