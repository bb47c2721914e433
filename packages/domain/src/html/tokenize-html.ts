/**
 * A forgiving HTML tokenizer, enough to reason about element structure without a DOM (the server
 * runs it in plain Node). It does not build a tree, decode entities or repair markup.
 */
export type THtmlToken =
  | { kind: 'text'; start: number; end: number; text: string }
  | { kind: 'comment'; start: number; end: number }
  /** <!DOCTYPE ...>, <![CDATA[ ... and <? ... ?> */
  | { kind: 'declaration'; start: number; end: number }
  | { kind: 'start-tag'; start: number; end: number; name: string; attributes: string; selfClosing: boolean }
  | { kind: 'end-tag'; start: number; end: number; name: string };

const TAG_NAME = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)/y;
// Elements whose content is raw text: markup inside them is not markup.
const RAW_TEXT_ELEMENTS = new Set(['script', 'style', 'textarea', 'title']);

/** Index of the '>' closing a tag that starts at `from`, skipping quoted attribute values; -1 if none. */
function findTagEnd(html: string, from: number): number {
  let quote: string | null = null;
  let previous = '';
  for (let i = from; i < html.length; i++) {
    const c = html.charAt(i);
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if ((c === '"' || c === "'") && previous === '=') {
      quote = c;
    } else if (c === '>') {
      return i;
    }
    if (!/\s/.test(c)) previous = c;
  }
  return -1;
}

export function tokenizeHtml(html: string): THtmlToken[] {
  const tokens: THtmlToken[] = [];
  const pushText = (start: number, end: number): void => {
    if (end <= start) return;
    const last = tokens[tokens.length - 1];
    if (last?.kind === 'text' && last.end === start) {
      last.end = end;
      last.text = html.slice(last.start, end);
    } else {
      tokens.push({ kind: 'text', start, end, text: html.slice(start, end) });
    }
  };

  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      pushText(i, html.length);
      break;
    }
    pushText(i, lt);

    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4);
      const end = close === -1 ? html.length : close + 3;
      tokens.push({ kind: 'comment', start: lt, end });
      i = end;
      continue;
    }
    if (html.startsWith('<!', lt) || html.startsWith('<?', lt)) {
      const close = html.indexOf('>', lt);
      const end = close === -1 ? html.length : close + 1;
      tokens.push({ kind: 'declaration', start: lt, end });
      i = end;
      continue;
    }

    TAG_NAME.lastIndex = lt;
    const match = TAG_NAME.exec(html);
    const tagEnd = match ? findTagEnd(html, TAG_NAME.lastIndex) : -1;
    if (!match || tagEnd === -1) {
      // A lone '<' (or a tag never closed) is text, as browsers treat it.
      pushText(lt, lt + 1);
      i = lt + 1;
      continue;
    }

    const name = (match[2] ?? '').toLowerCase();
    const end = tagEnd + 1;
    if (match[1] === '/') {
      tokens.push({ kind: 'end-tag', start: lt, end, name });
      i = end;
      continue;
    }
    const attributes = html.slice(TAG_NAME.lastIndex, tagEnd);
    const selfClosing = attributes.trimEnd().endsWith('/');
    tokens.push({ kind: 'start-tag', start: lt, end, name, attributes, selfClosing });
    i = end;

    if (RAW_TEXT_ELEMENTS.has(name) && !selfClosing) {
      const closeAt = html.toLowerCase().indexOf(`</${name}`, i);
      const rawEnd = closeAt === -1 ? html.length : closeAt;
      pushText(i, rawEnd);
      i = rawEnd;
    }
  }
  return tokens;
}

const ATTRIBUTE = /([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** Attributes of a start tag's attribute text, names lower-cased; a bare attribute has value ''. */
export function parseAttributes(attributes: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const match of attributes.matchAll(ATTRIBUTE)) {
    const name = (match[1] ?? '').toLowerCase();
    if (!result.has(name)) result.set(name, match[2] ?? match[3] ?? match[4] ?? '');
  }
  return result;
}
