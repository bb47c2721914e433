// Report HTML parsed once into a small block/inline tree that both renderers (PDF and DOCX) walk.
// The HTML is the editor's allow-list (sanitize-report-html.ts); anything else is tolerated: an
// unknown element is transparent (its text is kept), a stray inline at block level becomes a
// paragraph, so no text is ever dropped. htmlparser2 is used directly (no DOM, no window): parsing a
// 2-page report takes well under a millisecond.
import { textAlignment } from '@ris/editor';
import { Parser } from 'htmlparser2';

export type TTextAlign = 'left' | 'center' | 'right' | 'justify';
export type TMarks = { bold: boolean; italic: boolean; underline: boolean; strike: boolean };
export type TInline = { kind: 'text'; text: string; marks: TMarks } | { kind: 'break' };
export type TListType = '1' | 'a' | 'A' | 'i' | 'I';

export type TTableCell = {
  header: boolean;
  colspan: number;
  rowspan: number;
  /** Column widths in CSS pixels (one per spanned column) when the editor set them. */
  colwidth: number[] | null;
  blocks: TBlock[];
};

export type TBlock =
  | { kind: 'paragraph'; inlines: TInline[]; align: TTextAlign | null }
  | { kind: 'heading'; level: 1 | 2 | 3; inlines: TInline[]; align: TTextAlign | null }
  | { kind: 'list'; ordered: boolean; start: number; type: TListType; items: TBlock[][] }
  | { kind: 'blockquote'; blocks: TBlock[] }
  | { kind: 'table'; rows: TTableCell[][] }
  | { kind: 'image'; src: string; alt: string | null; width: number | null }
  | { kind: 'rule' }
  | { kind: 'pageBreak' };

type TElement = { name: string; attribs: Record<string, string>; children: TNode[] };
type TNode = TElement | string;

const VOID = new Set(['br', 'hr', 'img', 'col', 'input', 'meta', 'link', 'wbr', 'source']);
const SKIPPED = new Set(['script', 'style', 'template', 'title', 'head', 'colgroup', 'col']);
const INLINE_MARKS: Record<string, keyof TMarks> = {
  strong: 'bold',
  b: 'bold',
  em: 'italic',
  i: 'italic',
  u: 'underline',
  s: 'strike',
  strike: 'strike',
  del: 'strike',
};
const BLOCK_TAGS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'table',
  'hr',
  'img',
  'div',
  'tr',
  'td',
  'th',
  'thead',
  'tbody',
  'tfoot',
]);
const LIST_TYPES: readonly TListType[] = ['1', 'a', 'A', 'i', 'I'];
const NO_MARKS: TMarks = { bold: false, italic: false, underline: false, strike: false };
/** The bounds the editor itself keeps (report-table.ts, ordered-list.ts). */
const MAX_SPAN = 1000;
const MAX_PIXELS = 100_000;

/**
 * Elements nested deeper than this are flattened: their text joins the deepest element kept, their
 * own tags are ignored. Every walk of the tree (here and in both renderers) is recursive, and
 * thousands of nested tags (85 KB of <strong>) overflowed the stack; the sanitiser keeps 40 levels.
 */
export const MAX_TREE_DEPTH = 48;

/** Parses sanitised report HTML into blocks. Never throws on malformed or deeply nested markup. */
export function parseReportHtml(html: string): TBlock[] {
  const root: TElement = { name: '#root', attribs: {}, children: [] };
  const stack: TElement[] = [root];
  /** Names of the open elements past MAX_TREE_DEPTH, which are not in the tree. */
  const flattened: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (stack.length > MAX_TREE_DEPTH) {
          if (!VOID.has(name)) flattened.push(name);
          return;
        }
        const element: TElement = { name, attribs, children: [] };
        stack.at(-1)?.children.push(element);
        if (!VOID.has(name)) stack.push(element);
      },
      onclosetag(name) {
        if (VOID.has(name)) return;
        if (flattened.length > 0) {
          // htmlparser2 closes in order (implied closes included), so this is the innermost one.
          const index = flattened.lastIndexOf(name);
          if (index >= 0) {
            flattened.length = index;
            return;
          }
        }
        // htmlparser2 closes implied elements itself; pop back to the matching element.
        for (let i = stack.length - 1; i > 0; i--) {
          if (stack[i]?.name === name) {
            stack.length = i;
            return;
          }
        }
      },
      ontext(text) {
        const parent = stack.at(-1);
        if (!parent) return;
        const last = parent.children.at(-1);
        if (typeof last === 'string') parent.children[parent.children.length - 1] = last + text;
        else parent.children.push(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return blocksOf(root.children);
}

/** Blocks of a block container: loose inline content is gathered into paragraphs. */
function blocksOf(nodes: readonly TNode[]): TBlock[] {
  const blocks: TBlock[] = [];
  let loose: TNode[] = [];
  const flush = () => {
    if (loose.length === 0) return;
    const inlines = inlinesOf(loose, NO_MARKS);
    loose = [];
    if (hasText(inlines)) blocks.push({ kind: 'paragraph', inlines, align: null });
  };
  for (const node of nodes) {
    if (typeof node === 'string' || !isBlockish(node)) {
      loose.push(node);
      continue;
    }
    flush();
    blocks.push(...blockOf(node));
  }
  flush();
  return blocks;
}

/** Whether an element (or, for an unknown one, something inside it) is block content. */
function isBlockish(element: TElement): boolean {
  if (BLOCK_TAGS.has(element.name)) return true;
  if (INLINE_MARKS[element.name] !== undefined || element.name === 'br') return false;
  return element.children.some((child) => typeof child !== 'string' && isBlockish(child));
}

function blockOf(element: TElement): TBlock[] {
  switch (element.name) {
    case 'p':
      return [
        {
          kind: 'paragraph',
          inlines: trimInlines(inlinesOf(element.children, NO_MARKS)),
          align: alignOf(element),
        },
      ];
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6': {
      const level = Math.min(3, Number(element.name[1])) as 1 | 2 | 3;
      const inlines = trimInlines(inlinesOf(element.children, NO_MARKS));
      return [{ kind: 'heading', level, inlines, align: alignOf(element) }];
    }
    case 'ul':
    case 'ol':
      return [listOf(element)];
    case 'li':
      // A list item outside a list: its content, kept.
      return blocksOf(element.children);
    case 'blockquote':
      return [{ kind: 'blockquote', blocks: blocksOf(element.children) }];
    case 'hr':
      return [{ kind: 'rule' }];
    case 'img': {
      const src = element.attribs.src;
      if (!src) return [];
      const width = integerIn(element.attribs.width, 1, MAX_PIXELS);
      return [{ kind: 'image', src, alt: element.attribs.alt ?? null, width }];
    }
    case 'div':
      if (element.attribs['data-type'] === 'page-break') return [{ kind: 'pageBreak' }];
      return blocksOf(element.children);
    case 'table':
      return tableOf(element);
    case 'tr':
    case 'td':
    case 'th':
    case 'thead':
    case 'tbody':
    case 'tfoot':
      // Table parts outside a table: their content, kept.
      return blocksOf(element.children);
    default:
      return SKIPPED.has(element.name) ? [] : blocksOf(element.children);
  }
}

function listOf(element: TElement): TBlock {
  const ordered = element.name === 'ol';
  const type = LIST_TYPES.find((known) => known === element.attribs.type) ?? '1';
  const start = integerIn(element.attribs.start, -999_999, 999_999) ?? 1;
  const items: TBlock[][] = [];
  let loose: TNode[] = [];
  const flush = () => {
    if (loose.length > 0) {
      const blocks = blocksOf(loose);
      if (blocks.length > 0) items.push(blocks);
    }
    loose = [];
  };
  for (const child of element.children) {
    if (typeof child !== 'string' && child.name === 'li') {
      flush();
      items.push(blocksOf(child.children));
    } else if (typeof child === 'string' && child.trim() === '') {
      continue;
    } else {
      loose.push(child);
    }
  }
  flush();
  return { kind: 'list', ordered, start, type, items };
}

function tableOf(element: TElement): TBlock[] {
  const rows: TTableCell[][] = [];
  const visit = (nodes: readonly TNode[]) => {
    for (const node of nodes) {
      if (typeof node === 'string') continue;
      if (node.name === 'tr') rows.push(cellsOf(node));
      else if (node.name === 'thead' || node.name === 'tbody' || node.name === 'tfoot') visit(node.children);
    }
  };
  visit(element.children);
  const table: TBlock[] = rows.some((row) => row.length > 0)
    ? [{ kind: 'table', rows: rows.filter((row) => row.length > 0) }]
    : [];
  // Text put straight into the table (not in a cell) is kept after it.
  const stray = element.children.filter(
    (node) =>
      (typeof node === 'string' && node.trim() !== '') ||
      (typeof node !== 'string' && !['tr', 'thead', 'tbody', 'tfoot', 'colgroup', 'col'].includes(node.name)),
  );
  return [...table, ...blocksOf(stray)];
}

function cellsOf(row: TElement): TTableCell[] {
  const cells: TTableCell[] = [];
  for (const node of row.children) {
    if (typeof node === 'string' || (node.name !== 'td' && node.name !== 'th')) continue;
    const colspan = integerIn(node.attribs.colspan, 1, MAX_SPAN) ?? 1;
    const widths = node.attribs.colwidth?.split(',').map((width) => integerIn(width, 1, MAX_PIXELS));
    const colwidth =
      widths && widths.length === colspan && widths.every((width) => width !== null)
        ? (widths as number[])
        : null;
    cells.push({
      header: node.name === 'th',
      colspan,
      rowspan: integerIn(node.attribs.rowspan, 1, MAX_SPAN) ?? 1,
      colwidth,
      blocks: blocksOf(node.children),
    });
  }
  return cells;
}

function inlinesOf(nodes: readonly TNode[], marks: TMarks): TInline[] {
  const inlines: TInline[] = [];
  for (const node of nodes) {
    if (typeof node === 'string') {
      const text = collapseWhitespace(node);
      if (text !== '') pushText(inlines, text, marks);
      continue;
    }
    if (node.name === 'br') {
      inlines.push({ kind: 'break' });
      continue;
    }
    if (SKIPPED.has(node.name)) continue;
    const mark = INLINE_MARKS[node.name];
    const inner = mark ? { ...marks, [mark]: true } : marks;
    // Block elements met inside inline content (malformed HTML): their text continues the line.
    inlines.push(...inlinesOf(node.children, inner));
  }
  return inlines;
}

function pushText(inlines: TInline[], text: string, marks: TMarks): void {
  const last = inlines.at(-1);
  if (last?.kind === 'text' && sameMarks(last.marks, marks)) last.text += text;
  else inlines.push({ kind: 'text', text, marks });
}

function sameMarks(a: TMarks, b: TMarks): boolean {
  return a.bold === b.bold && a.italic === b.italic && a.underline === b.underline && a.strike === b.strike;
}

/** HTML whitespace (not the no-break space) collapses to one space, as a browser shows it. */
function collapseWhitespace(text: string): string {
  return text.replace(/[ \t\n\r\f]+/g, ' ');
}

/** A paragraph's leading and trailing collapsible spaces are not shown. */
function trimInlines(inlines: TInline[]): TInline[] {
  const first = inlines[0];
  if (first?.kind === 'text') first.text = first.text.replace(/^ +/, '');
  const last = inlines.at(-1);
  if (last?.kind === 'text') last.text = last.text.replace(/ +$/, '');
  return inlines.filter((inline) => inline.kind === 'break' || inline.text !== '');
}

function hasText(inlines: readonly TInline[]): boolean {
  return inlines.some((inline) => inline.kind === 'text' && inline.text.trim() !== '');
}

function alignOf(element: TElement): TTextAlign | null {
  const match = /text-align\s*:\s*([a-z]+)/i.exec(element.attribs.style ?? '');
  return textAlignment(match?.[1]?.toLowerCase());
}

function integerIn(value: string | undefined, min: number, max: number): number | null {
  if (value === undefined || !/^\s*-?\d{1,9}\s*$/.test(value)) return null;
  const number = Number(value);
  return number >= min && number <= max ? number : null;
}

/** The plain text of inlines (line breaks as "\n"). */
export function inlineText(inlines: readonly TInline[]): string {
  return inlines.map((inline) => (inline.kind === 'break' ? '\n' : inline.text)).join('');
}
