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

/** Text runs of plain or marked text, one per script run, each with its font. */
export function pdfRuns(context: TPdfContext, text: string, marks?: Partial<TMarks>): TPdfTextRun[] {
  return splitByScript(text).map((run) => {
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
  for (const inline of inlines) {
    if (inline.kind === 'break') runs.push({ text: '\n' });
    else runs.push(...pdfRuns(context, inline.text, inline.marks));
  }
  // An empty paragraph keeps its line (the editor shows an empty line there).
  return runs.length > 0 ? runs : [{ text: '\u00a0' }];
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
        text: inlineRuns(context, block.inlines),
        ...(block.align ? { alignment: block.align satisfies TPdfAlignment } : {}),
        margin: [0, 0, 0, spacing],
      };
    case 'heading': {
      const size = context.headingSizes[block.level - 1] ?? context.fontSize;
      return {
        text: inlineRuns(context, block.inlines),
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
  const inner = nested(context, context.width - LIST_INDENT);
  const items = list.items.map((blocks) => {
    const content = pdfBlocks(inner, blocks);
    // Paragraphs inside items are spaced less than body paragraphs.
    return stackOf(content.map((node) => withTighterMargin(node, context.fontSize * 0.2)));
  });
  const margin: [number, number, number, number] = [0, 0, 0, context.fontSize * 0.5];
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
