// Types of the part of pdfmake 0.3 (server build) that the renderer uses. @types/pdfmake is not used:
// it declares `/// <reference lib="dom" />`, which would put the browser's DOM types into the whole
// server program (and breaks Node's fetch/Buffer typings there).
declare module 'pdfmake' {
  export type TPdfAlignment = 'left' | 'center' | 'right' | 'justify';
  export type TPdfMargin = number | [number, number] | [number, number, number, number];
  export type TPdfDecoration = 'underline' | 'lineThrough' | 'overline';

  export interface TPdfStyle {
    font?: string;
    fontSize?: number;
    bold?: boolean;
    italics?: boolean;
    color?: string;
    lineHeight?: number;
    alignment?: TPdfAlignment;
    decoration?: TPdfDecoration | TPdfDecoration[];
    characterSpacing?: number;
    opacity?: number;
  }

  interface TPdfNodeBase extends TPdfStyle {
    margin?: TPdfMargin;
    pageBreak?: 'before' | 'after';
    unbreakable?: boolean;
    absolutePosition?: { x: number; y: number };
    width?: number | '*' | 'auto' | `${number}%`;
    // Table cell properties.
    colSpan?: number;
    rowSpan?: number;
    fillColor?: string;
    border?: [boolean, boolean, boolean, boolean];
    borderColor?: [string, string, string, string];
    noWrap?: boolean;
    keepWithHeaderRows?: number;
    headlineLevel?: number;
  }

  export interface TPdfTextRun extends TPdfStyle {
    text: string | TPdfTextRun[];
  }

  export interface TPdfText extends TPdfNodeBase {
    text: string | TPdfTextRun[];
    preserveLeadingSpaces?: boolean;
  }
  export interface TPdfStack extends TPdfNodeBase {
    stack: TPdfContent[];
  }
  export interface TPdfColumns extends TPdfNodeBase {
    columns: TPdfContent[];
    columnGap?: number;
  }
  export interface TPdfList extends TPdfNodeBase {
    markerColor?: string;
    separator?: string | [string, string];
  }
  export interface TPdfUnorderedList extends TPdfList {
    ul: TPdfContent[];
    type?: 'disc' | 'circle' | 'square' | 'none';
  }
  export interface TPdfOrderedList extends TPdfList {
    ol: TPdfContent[];
    start?: number;
    type?: 'decimal' | 'lower-alpha' | 'upper-alpha' | 'lower-roman' | 'upper-roman' | 'none';
  }
  export interface TPdfImage extends TPdfNodeBase {
    image: string;
    width: number;
    height: number;
  }
  export type TPdfCanvasLine = {
    type: 'line';
    x1: number;
    y1: number;
    x2: number;
    y2: number;
    lineWidth?: number;
    lineColor?: string;
  };
  export type TPdfCanvasRect = {
    type: 'rect';
    x: number;
    y: number;
    w: number;
    h: number;
    color?: string;
    lineWidth?: number;
    lineColor?: string;
  };
  export interface TPdfCanvas extends TPdfNodeBase {
    canvas: Array<TPdfCanvasLine | TPdfCanvasRect>;
  }
  export type TPdfTableLayout = {
    hLineWidth?: (row: number, node: unknown) => number;
    vLineWidth?: (column: number, node: unknown) => number;
    hLineColor?: (row: number, node: unknown) => string;
    vLineColor?: (column: number, node: unknown) => string;
    paddingLeft?: (column: number, node: unknown) => number;
    paddingRight?: (column: number, node: unknown) => number;
    paddingTop?: (row: number, node: unknown) => number;
    paddingBottom?: (row: number, node: unknown) => number;
    fillColor?: (row: number, node: unknown, column: number) => string | null;
  };
  export interface TPdfTable extends TPdfNodeBase {
    table: {
      headerRows?: number;
      dontBreakRows?: boolean;
      keepWithHeaderRows?: number;
      widths?: Array<number | '*' | 'auto' | `${number}%`>;
      body: TPdfContent[][];
    };
    layout?: TPdfTableLayout | 'noBorders' | 'headerLineOnly' | 'lightHorizontalLines';
  }
  export type TPdfContent =
    | string
    | TPdfText
    | TPdfStack
    | TPdfColumns
    | TPdfUnorderedList
    | TPdfOrderedList
    | TPdfImage
    | TPdfCanvas
    | TPdfTable;

  export type TPdfDynamic = (
    currentPage: number,
    pageCount: number,
    pageSize: { width: number; height: number },
  ) => TPdfContent | null;

  export interface TPdfDocumentDefinition {
    pageSize: 'A4' | { width: number; height: number };
    pageMargins: [number, number, number, number];
    content: TPdfContent[];
    defaultStyle?: TPdfStyle;
    styles?: Record<string, TPdfStyle>;
    images?: Record<string, string>;
    header?: TPdfDynamic;
    footer?: TPdfDynamic;
    background?: (currentPage: number, pageSize: { width: number; height: number }) => TPdfContent | null;
    watermark?: {
      text: string;
      color?: string;
      opacity?: number;
      bold?: boolean;
      italics?: boolean;
      fontSize?: number;
      font?: string;
      angle?: number;
    };
    info?: {
      title?: string;
      author?: string;
      subject?: string;
      creator?: string;
      producer?: string;
      creationDate?: Date;
    };
    compress?: boolean;
    language?: string;
    /** Called after layout for each node; `true` moves the node to a new page and lays out again. */
    pageBreakBefore?: (
      node: { headlineLevel?: number; pageNumbers: number[]; pages: number },
      helpers: { getFollowingNodesOnPage(): unknown[] },
    ) => boolean;
  }

  export type TPdfFontFaces = { normal: string; bold: string; italics: string; bolditalics: string };

  export interface TPdfMake {
    setFonts(fonts: Record<string, TPdfFontFaces>): void;
    addFonts(fonts: Record<string, TPdfFontFaces>): void;
    setUrlAccessPolicy(policy: (url: string) => boolean): void;
    setLocalAccessPolicy(policy: (path: string) => boolean): void;
    createPdf(definition: TPdfDocumentDefinition): { getBuffer(): Promise<Buffer> };
    /** The in-memory file system fonts are read from (keys are file names). */
    virtualfs: { writeFileSync(name: string, data: Buffer): void; existsSync(name: string): boolean };
  }

  const pdfmake: TPdfMake;
  export default pdfmake;
}
