// Report tree → pdfmake content. Every text run is split by script and set in the matching Noto
// font (pdfkit shapes it with fontkit, so Indic conjuncts come out right). html-to-pdfmake is not
// used: it would parse the HTML a second time (the DOCX renderer walks the same tree) and it sets one
// font per element, so mixed Latin/Devanagari text would show empty boxes.
import type { TPdfAlignment, TPdfContent, TPdfDecoration, TPdfTableLayout, TPdfTextRun } from 'pdfmake';
import { pdfFontFamily } from '../fonts.ts';
import { imagePixelSize, shrinkBox, type TPixelSize } from '../image-size.ts';
import { PX } from '../page-layout.ts';
import type { TDocumentImage } from '../report-document.ts';
import type { TBlock, TInline, TListType, TMarks, TTableCell } from '../report-tree.ts';
import { splitByScript, type TScript } from '../scripts.ts';
import { tableGrid } from '../table-grid.ts';
import { printableImage } from './printable-image.ts';

/** What building content needs and collects: fonts used, images to embed. */
export type TPdfContext = {
  fontSize: number;
  headingSizes: readonly [number, number, number];
  /** Width available to the current block (points); narrower inside lists, quotes and cells. */
  width: number;
  maxImageHeight: number;
  images: ReadonlyMap<string, TDocumentImage>;
  /** Filled while building: pdfmake image dictionary (key → data URL) and scripts met. */
  imageKeys: Map<TDocumentImage, string>;
  imageData: Record<string, string>;
  scripts: Set<TScript>;
};

const LIST_INDENT = 14;
const CELL_PADDING = 4;
const QUOTE_INDENT = 10;
/** Lists and quotes nested so deep that less than this width (points) is left indent no further. */
const MIN_NESTED_WIDTH = 120;
const BORDER_COLOR = '#9e9e9e';
const HEADER_FILL = '#eeeeee';
const ORDERED_TYPES: Record<
  TListType,
  'decimal' | 'lower-alpha' | 'upper-alpha' | 'lower-roman' | 'upper-roman'
> = {
  '1': 'decimal',
  a: 'lower-alpha',
  A: 'upper-alpha',
  i: 'lower-roman',
  I: 'upper-roman',
};

/** The longest stretch of text set without a break opportunity (characters). */
const MAX_UNBROKEN = 40;
/** Break opportunities (a no-break space is none, so it counts as part of a stretch). */
const BREAKS = new Set([' ', '\t', '\n', '\r', '\u200b']);
/** Never split before a combining mark or joiner, nor after a zero-width joiner. */
const JOINED = /^[\p{M}\u200c\u200d]$/u;

/** Where a paragraph's text stands: characters since its last break opportunity. */
export type TBreakState = { unbroken: number; previous: string };

/**
 * The text with a zero-width space (U+200B: invisible, a break opportunity) after every
 * MAX_UNBROKEN characters of a stretch that has none, counted across the runs of a paragraph (pass
 * the same state). pdfmake's line breaking is super-linear in the length of an unbreakable word
 * (10,000 letters took 13 s of the main thread); a long word now wraps at the margin instead of
 * overflowing it, and its letters are all kept in order.
 */
export function breakLongWords(text: string, state: TBreakState = { unbroken: 0, previous: '' }): string {
  let out = '';
  let from = 0;
  let index = 0;
  for (const char of text) {
    if (BREAKS.has(char)) {
      state.unbroken = 0;
    } else {
      if (state.unbroken >= MAX_UNBROKEN && !JOINED.test(char) && state.previous !== '\u200d') {
        out += `${text.slice(from, index)}\u200b`;
        from = index;
        state.unbroken = 0;
      }
      state.unbroken += 1;
    }
    state.previous = char;
    index += char.length;
  }
  return out === '' ? text : out + text.slice(from);
}

/** Text runs of plain or marked text, one per script run, each with its font. */
export function pdfRuns(
  context: TPdfContext,
  text: string,
  marks?: Partial<TMarks>,
  breakState?: TBreakState,
): TPdfTextRun[] {
  return splitByScript(breakLongWords(text, breakState)).map((run) => {
    context.scripts.add(run.script);
    const decoration: TPdfDecoration[] = [];
    if (marks?.underline) decoration.push('underline');
    if (marks?.strike) decoration.push('lineThrough');
    return {
      text: run.text,
      font: pdfFontFamily(run.script),
      ...(marks?.bold ? { bold: true } : {}),
      ...(marks?.italic ? { italics: true } : {}),
      ...(decoration.length > 0 ? { decoration } : {}),
    };
  });
}

function inlineRuns(context: TPdfContext, inlines: readonly TInline[]): TPdfTextRun[] {
  const runs: TPdfTextRun[] = [];
  // A word may run across runs of different marks: its length is counted across them.
  const breakState: TBreakState = { unbroken: 0, previous: '' };
  for (const inline of inlines) {
    if (inline.kind === 'break') {
      runs.push({ text: '\n' });
      breakState.unbroken = 0;
    } else runs.push(...pdfRuns(context, inline.text, inline.marks, breakState));
  }
  // An empty paragraph keeps its line (the editor shows an empty line there).
  return runs.length > 0 ? runs : [{ text: '\u00a0' }];
}

/**
 * pdfmake lays a text node out in time quadratic in its number of runs (it copies the runs still to
 * place for every run it places): 20,000 runs (marks alternating word by word) took 29 s. A
 * paragraph of more runs than this is set as consecutive text nodes, each starting a new line.
 */
const MAX_RUNS_PER_TEXT = 300;

function textNode(runs: TPdfTextRun[]): { text: TPdfTextRun[] } | { stack: TPdfContent[] } {
  if (runs.length <= MAX_RUNS_PER_TEXT) return { text: runs };
  const stack: TPdfContent[] = [];
  for (let i = 0; i < runs.length; i += MAX_RUNS_PER_TEXT) {
    stack.push({ text: runs.slice(i, i + MAX_RUNS_PER_TEXT) });
  }
  return { stack };
}

/** Content of a list of blocks. */
export function pdfBlocks(context: TPdfContext, blocks: readonly TBlock[]): TPdfContent[] {
  const content: TPdfContent[] = [];
  for (const block of blocks) {
    const node = pdfBlock(context, block);
    if (node) content.push(node);
  }
  return content;
}

function pdfBlock(context: TPdfContext, block: TBlock): TPdfContent | null {
  const spacing = context.fontSize * 0.5;
  switch (block.kind) {
    case 'paragraph':
      return {
        ...textNode(inlineRuns(context, block.inlines)),
        ...(block.align ? { alignment: block.align satisfies TPdfAlignment } : {}),
        margin: [0, 0, 0, spacing],
      };
    case 'heading': {
      const size = context.headingSizes[block.level - 1] ?? context.fontSize;
      return {
        ...textNode(inlineRuns(context, block.inlines)),
        fontSize: size,
        bold: true,
        headlineLevel: block.level,
        ...(block.align ? { alignment: block.align } : {}),
        margin: [0, size * 0.5, 0, size * 0.3],
      };
    }
    case 'list':
      return pdfList(context, block);
    case 'blockquote':
      return pdfQuote(context, block.blocks);
    case 'table':
      return pdfTable(context, block.rows);
    case 'image':
      return pdfImage(context, block.src, block.width);
    case 'rule':
      return {
        table: { widths: ['*'], body: [[{ text: '', fontSize: 1 }]] },
        layout: {
          hLineWidth: (row) => (row === 1 ? 0.75 : 0),
          vLineWidth: () => 0,
          hLineColor: () => BORDER_COLOR,
          paddingTop: () => 0,
          paddingBottom: () => 0,
        },
        margin: [0, spacing * 0.5, 0, spacing * 1.5],
      };
    case 'pageBreak':
      return { text: '', pageBreak: 'after' };
  }
}

function nested(context: TPdfContext, width: number): TPdfContext {
  return { ...context, width: Math.max(24, width) };
}

function stackOf(content: TPdfContent[]): TPdfContent {
  if (content.length === 1 && content[0] !== undefined) return content[0];
  return { stack: content.length > 0 ? content : [''] };
}

function pdfList(context: TPdfContext, list: Extract<TBlock, { kind: 'list' }>): TPdfContent {
  const tooDeep = context.width - LIST_INDENT < MIN_NESTED_WIDTH;
  const inner = tooDeep ? context : nested(context, context.width - LIST_INDENT);
  const items = list.items.map((blocks) => {
    const content = pdfBlocks(inner, blocks);
    // Paragraphs inside items are spaced less than body paragraphs.
    return stackOf(content.map((node) => withTighterMargin(node, context.fontSize * 0.2)));
  });
  const margin: [number, number, number, number] = [0, 0, 0, context.fontSize * 0.5];
  // Nested too deep to indent further (hostile or broken HTML): the items, unmarked, keep the width.
  if (tooDeep) return { stack: items.length > 0 ? items : [''], margin };
  if (list.ordered) return { ol: items, start: list.start, type: ORDERED_TYPES[list.type], margin };
  return { ul: items, margin };
}

function withTighterMargin(node: TPdfContent, bottom: number): TPdfContent {
  if (typeof node === 'object' && 'text' in node && Array.isArray(node.margin)) {
    return { ...node, margin: [0, 0, 0, bottom] };
  }
  return node;
}

function pdfQuote(context: TPdfContext, blocks: readonly TBlock[]): TPdfContent {
  // Nested too deep to indent further: the quote's content keeps the width (no text squeezed away).
  if (context.width - QUOTE_INDENT - 3 < MIN_NESTED_WIDTH) return stackOf(pdfBlocks(context, blocks));
  const inner = nested(context, context.width - QUOTE_INDENT - 3);
  return {
    table: { widths: ['*'], body: [[stackOf(pdfBlocks(inner, blocks))]] },
    layout: {
      hLineWidth: () => 0,
      vLineWidth: (column) => (column === 0 ? 2.5 : 0),
      vLineColor: () => '#bdbdbd',
      paddingLeft: () => QUOTE_INDENT,
      paddingRight: () => 0,
      paddingTop: () => 0,
      paddingBottom: () => 0,
    },
    color: '#424242',
    margin: [0, 0, 0, context.fontSize * 0.5],
  };
}

const TABLE_LAYOUT: TPdfTableLayout = {
  hLineWidth: () => 0.6,
  vLineWidth: () => 0.6,
  hLineColor: () => BORDER_COLOR,
  vLineColor: () => BORDER_COLOR,
  paddingLeft: () => CELL_PADDING,
  paddingRight: () => CELL_PADDING,
  paddingTop: () => 2.5,
  paddingBottom: () => 1,
};

function pdfTable(context: TPdfContext, rows: readonly TTableCell[][]): TPdfContent | null {
  const grid = tableGrid(rows);
  if (grid.columns === 0) return null;
  const cellWidth = context.width / grid.columns - 2 * CELL_PADDING;
  const body = grid.rows.map((row) =>
    row.map((slot): TPdfContent => {
      // pdfmake wants a placeholder where a spanned cell would be; a short row is padded.
      if (slot === null || slot === 'spanned') return '';
      const { cell } = slot;
      const inner = nested(context, cellWidth * cell.colspan);
      const content = pdfBlocks(inner, cell.blocks).map((node) => withTighterMargin(node, 2));
      const base = stackOf(content.length > 0 ? content : [{ text: '' }]);
      return {
        stack: [base],
        ...(cell.colspan > 1 ? { colSpan: cell.colspan } : {}),
        ...(slot.rowspan > 1 ? { rowSpan: slot.rowspan } : {}),
        ...(cell.header ? { bold: true, fillColor: HEADER_FILL } : {}),
      };
    }),
  );
  return {
    table: {
      headerRows: grid.headerRows,
      // A header row never stands alone at the foot of a page.
      ...(grid.headerRows > 0 ? { keepWithHeaderRows: 1 } : {}),
      widths: grid.widths
        ? grid.widths.map((share) => `${share * 100}%` as const)
        : grid.rows[0]?.map(() => '*' as const),
      body,
    },
    layout: TABLE_LAYOUT,
    margin: [0, 2, 0, context.fontSize * 0.7],
  };
}

/**
 * Registers an image in the document's image dictionary (once per image) and returns its key and
 * pixel size, or null when the image cannot be read (it is left out, the document still renders).
 */
export function embedImage(
  context: TPdfContext,
  image: TDocumentImage,
): { key: string; size: TPixelSize } | null {
  const size = imagePixelSize(image);
  if (!size) return null;
  let key = context.imageKeys.get(image);
  if (!key) {
    const printable = printableImage(image);
    if (!printable) return null;
    key = `image${context.imageKeys.size}`;
    context.imageKeys.set(image, key);
    context.imageData[key] = `data:${printable.mediaType};base64,${printable.data.toString('base64')}`;
  }
  return { key, size };
}

function pdfImage(context: TPdfContext, src: string, widthPx: number | null): TPdfContent | null {
  const image = context.images.get(src);
  const embedded = image ? embedImage(context, image) : null;
  if (!embedded) return null;
  const { key, size } = embedded;
  const width = (widthPx ?? size.width) * PX;
  const box = shrinkBox(
    { width, height: (width * size.height) / size.width },
    context.width,
    context.maxImageHeight,
  );
  return {
    image: key,
    width: box.width,
    height: box.height,
    alignment: 'center',
    margin: [0, 2, 0, context.fontSize * 0.6],
  };
}
