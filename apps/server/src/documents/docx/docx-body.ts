// Report tree → docx paragraphs and tables (the same tree the PDF is made from). Runs are split by
// script and carry the Noto family of their script in every font slot (ascii, hAnsi, cs), so Word
// picks the right face for Indic text; lists use numbering definitions (one per list, so each
// ordered list restarts), line spacing is a multiple with lineRule AUTO.
import {
  AlignmentType,
  BorderStyle,
  ImageRun,
  type ILevelsOptions,
  LevelFormat,
  LineRuleType,
  PageBreak,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import { docxFontFamily } from '../fonts.ts';
import { imagePixelSize, shrinkBox } from '../image-size.ts';
import { PX } from '../page-layout.ts';
import type { TDocumentImage } from '../report-document.ts';
import type { TBlock, TInline, TListType, TMarks, TTextAlign } from '../report-tree.ts';
import { splitByScript } from '../scripts.ts';
import { tableGrid } from '../table-grid.ts';
import type { DocxMedia } from './pack-docx.ts';

export type TDocxElement = Paragraph | Table;
type TList = Extract<TBlock, { kind: 'list' }>;

export type TDocxContext = {
  fontSize: number;
  /** Width available to the current block (points). */
  width: number;
  maxImageHeight: number;
  images: ReadonlyMap<string, TDocumentImage>;
  /** Blockquotes the current block sits in (indent and a left rule). */
  quoteDepth: number;
  /** Text is bold throughout (table header cells). */
  bold?: boolean;
  /** Numbering definitions created while building (one per top-level list). */
  numbering: Array<{ reference: string; levels: ILevelsOptions[] }>;
  media: DocxMedia;
};

/** Twentieths of a point (Word's page and spacing unit). */
export const TWIP = 20;
const LIST_INDENT = 360;
const BORDER = { style: BorderStyle.SINGLE, size: 4, color: '9E9E9E' } as const;
const TABLE_BORDERS = {
  top: BORDER,
  bottom: BORDER,
  left: BORDER,
  right: BORDER,
  insideHorizontal: BORDER,
  insideVertical: BORDER,
};
const ALIGNMENTS: Record<TTextAlign, (typeof AlignmentType)[keyof typeof AlignmentType]> = {
  left: AlignmentType.LEFT,
  center: AlignmentType.CENTER,
  right: AlignmentType.RIGHT,
  justify: AlignmentType.JUSTIFIED,
};
const ORDERED_FORMATS: Record<TListType, (typeof LevelFormat)[keyof typeof LevelFormat]> = {
  '1': LevelFormat.DECIMAL,
  a: LevelFormat.LOWER_LETTER,
  A: LevelFormat.UPPER_LETTER,
  i: LevelFormat.LOWER_ROMAN,
  I: LevelFormat.UPPER_ROMAN,
};
const BULLETS = ['•', '◦', '▪'];
const QUOTE_INDENT = 360;
const QUOTE_BORDER = { style: BorderStyle.SINGLE, size: 18, color: 'BDBDBD', space: 8 } as const;
const MAX_LEVEL = 8;

/**
 * Characters that would make the XML malformed or that Word refuses: control characters but tab and
 * line breaks (C0, DEL and C1), lone surrogates, and the non-characters U+FFFE/U+FFFF.
 */
const NOT_XML = /(?![\t\n\r])[\p{Cc}\p{Cs}\ufffe\uffff]/gu;

/** The text without characters that would make the DOCX XML malformed (Word refuses to open it). */
export function xmlSafeText(text: string): string {
  return text.replace(NOT_XML, '');
}

/** Runs of a text, one per script, each in its script's Noto family. */
export function docxRuns(
  text: string,
  marks?: Partial<TMarks> & { size?: number; color?: string },
): TextRun[] {
  return splitByScript(xmlSafeText(text)).map((run) => {
    const font = docxFontFamily(run.script);
    return new TextRun({
      text: run.text,
      font: { ascii: font, hAnsi: font, cs: font, eastAsia: font },
      ...(marks?.bold ? { bold: true } : {}),
      ...(marks?.italic ? { italics: true } : {}),
      ...(marks?.underline ? { underline: {} } : {}),
      ...(marks?.strike ? { strike: true } : {}),
      ...(marks?.size ? { size: Math.round(marks.size * 2) } : {}),
      ...(marks?.color ? { color: marks.color } : {}),
    });
  });
}

function inlineRuns(context: TDocxContext, inlines: readonly TInline[]): TextRun[] {
  const runs: TextRun[] = [];
  for (const inline of inlines) {
    if (inline.kind === 'break') runs.push(new TextRun({ break: 1 }));
    else runs.push(...docxRuns(inline.text, context.bold ? { ...inline.marks, bold: true } : inline.marks));
  }
  return runs;
}

export function docxBlocks(context: TDocxContext, blocks: readonly TBlock[]): TDocxElement[] {
  return blocks.flatMap((block) => docxBlock(context, block));
}

function docxBlock(context: TDocxContext, block: TBlock): TDocxElement[] {
  switch (block.kind) {
    case 'paragraph':
      return [
        new Paragraph({
          children: inlineRuns(context, block.inlines),
          ...(block.align ? { alignment: ALIGNMENTS[block.align] } : {}),
          ...quoteOptions(context),
        }),
      ];
    case 'heading':
      return [
        new Paragraph({
          children: inlineRuns(context, block.inlines),
          style: `Heading${block.level}`,
          ...(block.align ? { alignment: ALIGNMENTS[block.align] } : {}),
          ...quoteOptions(context),
        }),
      ];
    case 'list':
      return docxList(context, block);
    case 'blockquote':
      return docxBlocks(
        { ...context, width: context.width - QUOTE_INDENT / TWIP, quoteDepth: context.quoteDepth + 1 },
        block.blocks,
      );
    case 'table':
      return docxTable(context, block.rows);
    case 'image': {
      const image = docxImage(context, block.src, block.width);
      // Single line spacing: a multiple would also stretch the line the image stands on.
      return image
        ? [
            new Paragraph({
              children: [image],
              alignment: AlignmentType.CENTER,
              spacing: { line: 240, lineRule: LineRuleType.AUTO },
            }),
          ]
        : [];
    }
    case 'rule':
      return [new Paragraph({ children: [], border: { bottom: { ...BORDER, size: 6, space: 1 } } })];
    case 'pageBreak':
      return [new Paragraph({ children: [new PageBreak()] })];
  }
}

/** Indent and left rule of paragraphs inside blockquotes. */
function quoteOptions(context: TDocxContext): {
  indent?: { left: number };
  border?: { left: typeof QUOTE_BORDER };
} {
  if (context.quoteDepth === 0) return {};
  // Quotes nested past the list levels indent no further: the text keeps room on the page.
  const depth = Math.min(context.quoteDepth, MAX_LEVEL);
  return { indent: { left: QUOTE_INDENT * depth }, border: { left: QUOTE_BORDER } };
}

function docxList(context: TDocxContext, list: TList): TDocxElement[] {
  const reference = `list-${context.numbering.length}`;
  const levels: ILevelsOptions[] = [];
  collectLevels(list, 0, levels);
  context.numbering.push({ reference, levels: fillLevels(levels) });
  return listItems(context, list, reference, 0);
}

/** The first list met at each depth gives that level its format and start. */
function collectLevels(list: TList, depth: number, levels: ILevelsOptions[]): void {
  if (depth > MAX_LEVEL) return;
  levels[depth] ??= levelOf(list, depth);
  for (const item of list.items) {
    for (const block of item) if (block.kind === 'list') collectLevels(block, depth + 1, levels);
  }
}

function levelOf(list: TList | null, depth: number): ILevelsOptions {
  const indent = { left: LIST_INDENT * (depth + 1), hanging: LIST_INDENT };
  if (list?.ordered) {
    return {
      level: depth,
      format: ORDERED_FORMATS[list.type],
      text: `%${depth + 1}.`,
      start: list.start,
      alignment: AlignmentType.START,
      style: { paragraph: { indent } },
    };
  }
  return {
    level: depth,
    format: LevelFormat.BULLET,
    text: BULLETS[depth % BULLETS.length],
    alignment: AlignmentType.START,
    style: { paragraph: { indent } },
  };
}

function fillLevels(levels: ILevelsOptions[]): ILevelsOptions[] {
  return Array.from({ length: MAX_LEVEL + 1 }, (_, depth) => levels[depth] ?? levelOf(null, depth));
}

function listItems(context: TDocxContext, list: TList, reference: string, depth: number): TDocxElement[] {
  const level = Math.min(depth, MAX_LEVEL);
  const inner = { ...context, width: context.width - (LIST_INDENT * (level + 1)) / TWIP };
  const elements: TDocxElement[] = [];
  for (const item of list.items) {
    let numbered = false;
    for (const block of item) {
      if (block.kind === 'list') {
        elements.push(...listItems(context, block, reference, depth + 1));
        continue;
      }
      if ((block.kind === 'paragraph' || block.kind === 'heading') && !numbered) {
        numbered = true;
        elements.push(
          new Paragraph({
            children: inlineRuns(context, block.inlines),
            numbering: { reference, level },
            spacing: { after: Math.round(context.fontSize * 0.2 * TWIP) },
            ...(block.align ? { alignment: ALIGNMENTS[block.align] } : {}),
          }),
        );
        continue;
      }
      elements.push(...docxBlock(inner, block));
    }
    // An item without a paragraph still shows its marker.
    if (!numbered) elements.unshift(new Paragraph({ children: [], numbering: { reference, level } }));
  }
  return elements;
}

function docxTable(context: TDocxContext, rows: Extract<TBlock, { kind: 'table' }>['rows']): TDocxElement[] {
  const grid = tableGrid(rows);
  if (grid.columns === 0) return [];
  const shares = grid.widths ?? Array.from({ length: grid.columns }, () => 1 / grid.columns);
  const widthTwips = Math.round(context.width * TWIP);
  const columnWidths = shares.map((share) => Math.max(1, Math.round(share * widthTwips)));
  const tableRows = grid.rows.map((slots, r) => {
    const cells: TableCell[] = [];
    slots.forEach((slot, column) => {
      if (slot === 'spanned') return;
      if (slot === null) {
        cells.push(
          new TableCell({
            children: [new Paragraph({})],
            width: { size: columnWidths[column] ?? 1, type: WidthType.DXA },
          }),
        );
        return;
      }
      const { cell } = slot;
      const span = columnWidths.slice(column, column + cell.colspan).reduce((sum, width) => sum + width, 0);
      const inner = { ...context, width: span / TWIP - 10, bold: context.bold === true || cell.header };
      const children = docxBlocks(inner, cell.blocks);
      cells.push(
        new TableCell({
          children:
            children.length > 0 && children.at(-1) instanceof Paragraph
              ? children
              : [...children, new Paragraph({})],
          width: { size: span, type: WidthType.DXA },
          ...(cell.colspan > 1 ? { columnSpan: cell.colspan } : {}),
          ...(slot.rowspan > 1 ? { rowSpan: slot.rowspan } : {}),
          ...(cell.header ? { shading: { type: ShadingType.CLEAR, color: 'auto', fill: 'EEEEEE' } } : {}),
        }),
      );
    });
    // Rows stay whole on a page (Word still breaks a row taller than a page).
    return new TableRow({
      children: cells,
      cantSplit: true,
      ...(r < grid.headerRows ? { tableHeader: true } : {}),
    });
  });
  return [
    new Table({
      rows: tableRows,
      width: { size: widthTwips, type: WidthType.DXA },
      columnWidths,
      borders: TABLE_BORDERS,
      margins: { left: 80, right: 80, top: 30, bottom: 10 },
    }),
    // Word joins two adjacent tables into one; a paragraph keeps them apart.
    new Paragraph({ children: [], spacing: { after: 0 } }),
  ];
}

/** Pixels for docx image sizes (it converts 96 dpi pixels to EMU). */
export const POINT_TO_PIXEL = 1 / PX;

export function docxImage(context: TDocxContext, src: string, widthPx: number | null): ImageRun | null {
  const image = context.images.get(src);
  if (!image) return null;
  const size = imagePixelSize(image);
  if (!size) return null;
  const width = (widthPx ?? size.width) * PX;
  const box = shrinkBox(
    { width, height: (width * size.height) / size.width },
    context.width,
    context.maxImageHeight,
  );
  return new ImageRun({
    type: image.mediaType === 'image/png' ? 'png' : 'jpg',
    data: context.media.standIn(image.data),
    transformation: {
      width: Math.round(box.width * POINT_TO_PIXEL),
      height: Math.round(box.height * POINT_TO_PIXEL),
    },
  });
}
