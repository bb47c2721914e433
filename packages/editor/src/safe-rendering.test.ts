// @vitest-environment happy-dom
// What a collaborator can put into the shared document is not limited by parse rules: a Yjs update
// sets node attributes to any value. Rendering (the editor's DOM, getHTML, the server's Yjs → HTML)
// must still give clean HTML.
import { Editor, getSchema, type JSONContent } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { REPORT_IMAGE_SRC, reportExtensions, reportIdOfImageSrc } from './index.ts';

const REPORT = '11111111-1111-4111-8111-111111111111';
const IMAGE = `/api/v1/worklist/report/${REPORT}/images/22222222-2222-4222-8222-222222222222`;
const STYLE_ATTACK = 'left; position: fixed; inset: 0; background: url(https://evil.test/x)';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

function html(content: JSONContent[] | string): string {
  editor?.destroy();
  editor = new Editor({
    extensions: reportExtensions({ collaboration: true }),
    content: typeof content === 'string' ? content : { type: 'doc', content },
  });
  return editor.getHTML();
}

const text = (value: string): JSONContent[] => [{ type: 'text', text: value }];
const paragraph = (value: string, attrs: Record<string, unknown> = {}): JSONContent => ({
  type: 'paragraph',
  attrs,
  content: text(value),
});
const cell = (type: string, attrs: Record<string, unknown>): JSONContent => ({
  type,
  attrs,
  content: [paragraph('c')],
});

function expectClean(out: string): void {
  expect(out).not.toMatch(/url\(|position|inset|evil|javascript:|expression|onerror|\/users\//i);
}

describe('alignment', () => {
  it('renders only the known alignments', () => {
    const out = html([
      paragraph('a', { textAlign: STYLE_ATTACK }),
      { type: 'heading', attrs: { level: 2, textAlign: 'center;background:red' }, content: text('h') },
      paragraph('b', { textAlign: 'right' }),
    ]);
    expect(out).toBe('<p>a</p><h2>h</h2><p style="text-align: right;">b</p>');
    // What viewers see: the editor's own DOM is rendered by the same rules.
    expectClean(editor?.view.dom.innerHTML ?? '');
  });

  it('parses only the alignment out of a style', () => {
    expect(html('<p style="text-align: center; position: fixed; background: url(x)">a</p>')).toBe(
      '<p style="text-align: center;">a</p>',
    );
  });
});

describe('images', () => {
  it('renders a source only when it is a report image path', () => {
    const sources = [
      '/api/v1/users/me?x=1',
      `/api/v1/worklist/report/${REPORT}/images/22222222-2222-4222-8222-222222222222?x`,
      `/api/v1/worklist/report/${REPORT}/images/../../../../users`,
      'https://evil.test/track.png',
      '//evil.test/a.png',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
    ];
    const out = html(
      sources.map((src) => ({ type: 'image', attrs: { src, alt: 'x', width: '10" onerror="alert(1)' } })),
    );
    expect(out).toBe('<img alt="x">'.repeat(sources.length));
    expectClean(out);
    expect(editor?.view.dom.querySelectorAll('img[src]')).toHaveLength(0);
  });

  it('keeps a report image with its text and integer size', () => {
    const out = html([
      { type: 'image', attrs: { src: IMAGE, alt: 'Axial', title: 'T', width: 320, height: '200' } },
    ]);
    expect(out).toBe(`<img src="${IMAGE}" alt="Axial" title="T" width="320" height="200">`);
  });

  it('does not parse images from other sources at all', () => {
    expect(html(`<img src="https://evil.test/x.png"><img src="/api/v1/users/me"><img src="${IMAGE}">`)).toBe(
      `<img src="${IMAGE}">`,
    );
  });

  it('names the report of an image path', () => {
    expect(reportIdOfImageSrc(IMAGE)).toBe(REPORT);
    expect(reportIdOfImageSrc('/api/v1/users/me')).toBeNull();
    expect(REPORT_IMAGE_SRC.test(`${IMAGE}/x`)).toBe(false);
  });
});

describe('tables', () => {
  it('coerces column widths and cell alignment', () => {
    const out = html([
      {
        type: 'table',
        content: [
          {
            type: 'tableRow',
            content: [
              cell('tableHeader', {
                colspan: 2,
                colwidth: ['1px; background: url(https://evil.test/x); x:'],
              }),
              cell('tableCell', { align: STYLE_ATTACK }),
              cell('tableCell', { align: 'center', colwidth: [120] }),
            ],
          },
        ],
      },
    ]);
    expect(out).toBe(
      '<table style="min-width: 195px;"><colgroup><col style="min-width: 25px;"><col style="min-width: 25px;">' +
        '<col style="min-width: 25px;"><col style="width: 120px;"></colgroup>' +
        '<tbody><tr><th colspan="2" rowspan="1"><p>c</p></th><td colspan="1" rowspan="1"><p>c</p></td>' +
        '<td colspan="1" rowspan="1" colwidth="120" style="text-align: center;"><p>c</p></td></tr></tbody></table>',
    );
    expectClean(out);
    expectClean(editor?.view.dom.innerHTML ?? '');
  });

  it('refuses to create a cell with a span that is not a small integer', () => {
    const schema = getSchema(reportExtensions());
    for (const colspan of [1e9, 0, 1.5, '2" onmouseover="x', '2']) {
      const table = {
        type: 'table',
        content: [{ type: 'tableRow', content: [cell('tableCell', { colspan })] }],
      };
      expect(() => schema.nodeFromJSON(table), String(colspan)).toThrow(RangeError);
    }
    expect(() => schema.nodes.tableHeader?.create({ rowspan: 70_000 })).toThrow(RangeError);
    expect(schema.nodes.tableCell?.create({ colspan: 3, rowspan: 2 }).attrs).toMatchObject({
      colspan: 3,
      rowspan: 2,
    });
  });

  it('keeps valid widths and spans', () => {
    const out = html([
      {
        type: 'table',
        content: [{ type: 'tableRow', content: [cell('tableHeader', { colspan: 2, colwidth: [100, 50] })] }],
      },
    ]);
    expect(out).toContain(
      '<table style="width: 150px;"><colgroup><col style="width: 100px;"><col style="width: 50px;">',
    );
    expect(out).toContain('<th colspan="2" rowspan="1" colwidth="100,50">');
  });
});

describe('lists and headings', () => {
  it('renders an integer start and a known list type only', () => {
    const item = { type: 'listItem', content: [paragraph('x')] };
    const out = html([
      {
        type: 'orderedList',
        attrs: { start: '3" onclick="x', type: 'disc; background:url(x)' },
        content: [item],
      },
      { type: 'orderedList', attrs: { start: 4, type: 'a' }, content: [item] },
    ]);
    expect(out).toBe('<ol><li><p>x</p></li></ol><ol start="4" type="a"><li><p>x</p></li></ol>');
  });

  it('renders an unknown heading level as h1', () => {
    const out = html([
      { type: 'heading', attrs: { level: '2><script>alert(1)</script' }, content: text('h') },
    ]);
    expect(out).toBe('<h1>h</h1>');
  });
});
