import { describe, expect, it } from 'vitest';
import { inlineText, MAX_TREE_DEPTH, parseReportHtml, type TBlock } from './report-tree.ts';
import { splitByScript } from './scripts.ts';
import { MAX_COLUMNS, tableGrid } from './table-grid.ts';

const plain = { bold: false, italic: false, underline: false, strike: false };

function texts(blocks: readonly TBlock[]): string[] {
  const out: string[] = [];
  const walk = (list: readonly TBlock[]) => {
    for (const block of list) {
      if (block.kind === 'paragraph' || block.kind === 'heading') out.push(inlineText(block.inlines));
      else if (block.kind === 'list') block.items.forEach(walk);
      else if (block.kind === 'blockquote') walk(block.blocks);
      else if (block.kind === 'table') block.rows.forEach((row) => row.forEach((cell) => walk(cell.blocks)));
    }
  };
  walk(blocks);
  return out;
}

describe('parseReportHtml', () => {
  it('reads paragraphs, headings with alignment, marks and line breaks as the editor writes them', () => {
    const blocks = parseReportHtml(
      '<h2 style="text-align: center">CT BRAIN</h2><p style="text-align: justify"><strong>Bold</strong> <em>it</em> <u>u</u> <s>gone</s><br>next &amp; last</p>',
    );
    expect(blocks[0]).toEqual({
      kind: 'heading',
      level: 2,
      align: 'center',
      inlines: [{ kind: 'text', text: 'CT BRAIN', marks: plain }],
    });
    expect(blocks[1]).toMatchObject({ kind: 'paragraph', align: 'justify' });
    const inlines = blocks[1]?.kind === 'paragraph' ? blocks[1].inlines : [];
    expect(inlines).toEqual([
      { kind: 'text', text: 'Bold', marks: { ...plain, bold: true } },
      { kind: 'text', text: ' ', marks: plain },
      { kind: 'text', text: 'it', marks: { ...plain, italic: true } },
      { kind: 'text', text: ' ', marks: plain },
      { kind: 'text', text: 'u', marks: { ...plain, underline: true } },
      { kind: 'text', text: ' ', marks: plain },
      { kind: 'text', text: 'gone', marks: { ...plain, strike: true } },
      { kind: 'break' },
      { kind: 'text', text: 'next & last', marks: plain },
    ]);
  });

  it('reads nested lists with start and type, and the page-break node', () => {
    const blocks = parseReportHtml(
      '<ol start="3" type="a"><li><p>one</p><ul><li><p>inner</p></li></ul></li><li><p>two</p></li></ol><div data-type="page-break" class="page-break"></div><p>after</p>',
    );
    expect(blocks[0]).toMatchObject({ kind: 'list', ordered: true, start: 3, type: 'a' });
    const list = blocks[0]?.kind === 'list' ? blocks[0] : null;
    expect(list?.items).toHaveLength(2);
    expect(list?.items[0]?.[1]).toMatchObject({ kind: 'list', ordered: false });
    expect(blocks[1]).toEqual({ kind: 'pageBreak' });
    expect(texts(blocks)).toEqual(['one', 'inner', 'two', 'after']);
  });

  it('reads tables with header cells, spans and column widths, ignoring TipTap table styles', () => {
    const [table] = parseReportHtml(
      '<table style="min-width: 75px"><colgroup><col style="min-width: 25px"></colgroup><tbody><tr><th colspan="2" colwidth="100,50"><p>Head</p></th></tr><tr><td rowspan="2"><p>a</p></td><td><p>b</p></td></tr></tbody></table>',
    );
    expect(table?.kind).toBe('table');
    if (table?.kind !== 'table') return;
    expect(table.rows[0]?.[0]).toMatchObject({ header: true, colspan: 2, colwidth: [100, 50] });
    expect(table.rows[1]?.[0]).toMatchObject({ header: false, rowspan: 2 });
  });

  it('keeps the text of unknown elements, stray text and malformed markup', () => {
    const blocks = parseReportHtml(
      'loose text<section><p>in <span>section</span></p></section><article>bare</article><table>stray<tr><td>cell</td></tr></table><li>orphan item</li><p><b>unclosed',
    );
    expect(texts(blocks)).toEqual([
      'loose text',
      'in section',
      'bare',
      'cell',
      'stray',
      'orphan item',
      'unclosed',
    ]);
  });

  it('drops script content and bad attributes without failing', () => {
    const blocks = parseReportHtml(
      '<script>alert(1)</script><p>ok</p><ol start="x" type="z"><li>i</li></ol><img src="/x.png" width="-5">',
    );
    expect(texts(blocks)).toEqual(['ok', 'i']);
    expect(blocks[1]).toMatchObject({ kind: 'list', start: 1, type: '1' });
    expect(blocks[2]).toEqual({ kind: 'image', src: '/x.png', alt: null, width: null });
  });

  it('collapses HTML whitespace but keeps no-break spaces, and keeps empty paragraphs', () => {
    const blocks = parseReportHtml('<p>  a \n  b&nbsp;&nbsp;c </p><p></p>');
    expect(texts(blocks)).toEqual(['a b\u00a0\u00a0c', '']);
    expect(parseReportHtml('')).toEqual([]);
  });
});

describe('splitByScript', () => {
  it('splits Latin and Indic runs; spaces, digits and punctuation join the run they stand in', () => {
    expect(splitByScript('Name: सीता देवी, 42 (F)')).toEqual([
      { script: 'latin', text: 'Name: ' },
      { script: 'devanagari', text: 'सीता देवी, 42 (' },
      { script: 'latin', text: 'F)' },
    ]);
  });

  it('keeps dandas and joiners with the preceding script, and tells the eight scripts apart', () => {
    expect(splitByScript('রোগী। ok')).toEqual([
      { script: 'bengali', text: 'রোগী। ' },
      { script: 'latin', text: 'ok' },
    ]);
    expect(splitByScript('क्\u200dष')).toEqual([{ script: 'devanagari', text: 'क्\u200dष' }]);
    const scripts = ['अ', 'অ', 'ਅ', 'અ', 'அ', 'అ', 'ಅ', 'അ'].map((char) => splitByScript(char)[0]?.script);
    expect(scripts).toEqual([
      'devanagari',
      'bengali',
      'gurmukhi',
      'gujarati',
      'tamil',
      'telugu',
      'kannada',
      'malayalam',
    ]);
  });

  it('gives leading neutral characters to the first run and returns the text exactly', () => {
    const text = '— 12. तमिழ் test';
    const runs = splitByScript(text);
    expect(runs[0]).toEqual({ script: 'devanagari', text: '— 12. तमि' });
    expect(runs.map((run) => run.text).join('')).toBe(text);
    expect(splitByScript('')).toEqual([]);
    expect(splitByScript('plain')).toEqual([{ script: 'latin', text: 'plain' }]);
  });
});

describe('tableGrid', () => {
  const cell = (
    text: string,
    extra: Partial<{ header: boolean; colspan: number; rowspan: number; colwidth: number[] }> = {},
  ) => ({
    header: false,
    colspan: 1,
    rowspan: 1,
    colwidth: null,
    blocks: [
      { kind: 'paragraph' as const, inlines: [{ kind: 'text' as const, text, marks: plain }], align: null },
    ],
    ...extra,
  });

  it('lays spans on a rectangular grid and counts leading header rows', () => {
    const grid = tableGrid([
      [cell('h1', { header: true, colspan: 2 }), cell('h2', { header: true })],
      [cell('a', { rowspan: 2 }), cell('b'), cell('c')],
      [cell('d')],
    ]);
    expect(grid.columns).toBe(3);
    expect(grid.headerRows).toBe(1);
    expect(grid.rows[0]?.map((slot) => (slot === null || slot === 'spanned' ? slot : slot.rowspan))).toEqual([
      1,
      'spanned',
      1,
    ]);
    expect(grid.rows[2]?.map((slot) => (slot === null || slot === 'spanned' ? slot : 'cell'))).toEqual([
      'spanned',
      'cell',
      null,
    ]);
  });

  it('clamps spans to the table and merges cells beyond the column limit into the last one', () => {
    const grid = tableGrid([[cell('wide', { colspan: 1000, rowspan: 500 }), cell('over')]]);
    expect(grid.columns).toBe(MAX_COLUMNS);
    const first = grid.rows[0]?.[0];
    expect(first !== null && first !== 'spanned' && first?.rowspan).toBe(1);
    expect(first !== null && first !== 'spanned' && texts(first?.cell.blocks ?? [])).toEqual([
      'wide',
      'over',
    ]);
  });

  it('takes column shares from colwidth only when every column has one', () => {
    expect(tableGrid([[cell('a', { colwidth: [100] }), cell('b', { colwidth: [300] })]]).widths).toEqual([
      0.25, 0.75,
    ]);
    expect(tableGrid([[cell('a', { colwidth: [100] }), cell('b')]]).widths).toBeNull();
  });
});

describe('parseReportHtml on deep nesting', () => {
  it('flattens elements past MAX_TREE_DEPTH: no stack overflow, text and following content kept', () => {
    const html = `${'<blockquote>'.repeat(20_000)}<p>deep</p>${'</blockquote>'.repeat(20_000)}<p>after</p>`;
    const blocks = parseReportHtml(html);
    let depth = 0;
    let block = blocks[0];
    while (block?.kind === 'blockquote') {
      depth += 1;
      block = block.blocks[0];
    }
    expect(depth).toBeLessThanOrEqual(MAX_TREE_DEPTH);
    expect(texts(blocks)).toEqual(['deep', 'after']);
    expect(blocks).toHaveLength(2);
    const strong = parseReportHtml(`<p>${'<strong>'.repeat(5000)}x${'</strong>'.repeat(5000)} y</p>`);
    expect(strong).toEqual([
      {
        kind: 'paragraph',
        align: null,
        inlines: [
          { kind: 'text', text: 'x', marks: { ...plain, bold: true } },
          { kind: 'text', text: ' y', marks: plain },
        ],
      },
    ]);
  });
});
