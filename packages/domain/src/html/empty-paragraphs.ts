import { parseAttributes, tokenizeHtml } from './tokenize-html.ts';

/** Block elements that are turned into a line break when blank. */
export const BLANKABLE_ELEMENTS: ReadonlySet<string> = new Set([
  'p',
  'div',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);

/** Inline formatting elements that may wrap blank content without making it visible. */
export const INLINE_WRAPPER_ELEMENTS: ReadonlySet<string> = new Set([
  'a',
  'b',
  'big',
  'code',
  'em',
  'font',
  'i',
  'mark',
  's',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'u',
]);

const PAGE_BREAK_STYLE =
  /(?:^|[;\s])(?:page-break-(?:before|after)|break-(?:before|after))\s*:\s*(?:always|page|left|right)/i;

/**
 * A page-break marker: an element with a data-page-break attribute, a class containing
 * 'page-break', or an inline style forcing a page break before or after it.
 */
export function isPageBreakMarker(attributes: string): boolean {
  const parsed = parseAttributes(attributes);
  if (parsed.has('data-page-break')) return true;
  if ((parsed.get('class') ?? '').toLowerCase().includes('page-break')) return true;
  return PAGE_BREAK_STYLE.test(parsed.get('style') ?? '');
}

// Named entities are case-sensitive in HTML (&NBSP; is visible text); hex digits are not.
const INVISIBLE_ENTITIES =
  /&nbsp;|&NonBreakingSpace;|&ZeroWidthSpace;|&#0*(?:160|8203|65279);|&#[xX]0*(?:[aA]0|200[bB]|[fF][eE][fF][fF]);/g;

/** Text that renders nothing: whitespace, no-break spaces and zero-width spaces, raw or as entities. */
function isBlankText(text: string): boolean {
  return /^[\s\u200b]*$/.test(text.replace(INVISIBLE_ENTITIES, ''));
}

interface TOpenBlock {
  name: string;
  start: number;
  blank: boolean;
}

/**
 * Replaces every blank block element of report HTML with one `<br>`, in plain string form (no DOM).
 *
 * A p, div or h1–h6 element is blank when everything inside it is whitespace, `&nbsp;` or zero-width
 * spaces, `<br>`, comments, inline formatting wrappers (span, strong, em ...) and other blank blocks.
 * The outermost blank element is replaced, contents and all, by a single `<br>`. An element holding
 * anything else (text, img, hr, table, list ...) is kept, as is any page-break marker and every
 * element around one. Unclosed or mismatched blocks are left alone. The result is idempotent:
 * cleaning it again changes nothing.
 */
export function replaceEmptyParagraphs(html: string): string {
  const open: TOpenBlock[] = [];
  const replaced: { start: number; end: number }[] = [];
  const keepOpenBlocks = (): void => {
    for (const block of open) block.blank = false;
  };

  for (const token of tokenizeHtml(html)) {
    switch (token.kind) {
      case 'comment':
        break;
      case 'text':
        if (!isBlankText(token.text)) keepOpenBlocks();
        break;
      case 'declaration':
        keepOpenBlocks();
        break;
      case 'start-tag': {
        if (isPageBreakMarker(token.attributes)) {
          keepOpenBlocks();
          if (BLANKABLE_ELEMENTS.has(token.name))
            open.push({ name: token.name, start: token.start, blank: false });
        } else if (BLANKABLE_ELEMENTS.has(token.name)) {
          open.push({ name: token.name, start: token.start, blank: true });
        } else if (token.name !== 'br' && !INLINE_WRAPPER_ELEMENTS.has(token.name)) {
          keepOpenBlocks();
        }
        break;
      }
      case 'end-tag': {
        if (!BLANKABLE_ELEMENTS.has(token.name)) {
          if (token.name !== 'br' && !INLINE_WRAPPER_ELEMENTS.has(token.name)) keepOpenBlocks();
          break;
        }
        const index = open.map((block) => block.name).lastIndexOf(token.name);
        if (index === -1 || index !== open.length - 1) {
          // Stray or mismatched end tag: keep everything around it as written.
          keepOpenBlocks();
          if (index !== -1) open.splice(index);
          break;
        }
        const block = open.pop();
        if (block?.blank) {
          while (replaced.length > 0 && (replaced[replaced.length - 1]?.start ?? -1) >= block.start)
            replaced.pop();
          replaced.push({ start: block.start, end: token.end });
        }
        break;
      }
    }
  }

  let result = '';
  let cursor = 0;
  for (const { start, end } of replaced) {
    result += html.slice(cursor, start) + '<br>';
    cursor = end;
  }
  return result + html.slice(cursor);
}
