// The one allow-list for report HTML (reports, addenda, templates, macros, collaborative documents).
// It keeps exactly what the report editor (@ris/editor) can produce and drops everything else, so no
// script, event handler, style other than text alignment, or URL other than our own image paths
// survives a write. What is stored is what is served. Images are kept only when they are key images
// of the report being written (REPORT_IMAGE_SRC naming that report), so no other API path, and no
// other report's image, can be made to load in a reader's browser.
import { reportIdOfImageSrc, TEXT_ALIGNMENTS } from '@ris/editor';
import sanitizeHtml from 'sanitize-html';
import { boundedNesting } from './bounded-nesting.ts';

/** Images in a report point at our own authorised image route, never elsewhere (@ris/editor). */
export { REPORT_IMAGE_SRC } from '@ris/editor';

/** Largest report HTML accepted on a write (characters). */
export const MAX_REPORT_HTML_LENGTH = 1_000_000;

const ALIGN = [new RegExp(`^(${TEXT_ALIGNMENTS.join('|')})$`)];

/**
 * Deepest nesting of elements kept. Past it tags are dropped and their text kept: the editor never
 * nests this deep, and thousands of nested tags overflowed the stack of every tree walk.
 */
export const MAX_REPORT_HTML_NESTING = 40;

/**
 * Control characters but tab and line breaks (C0, DEL and C1, as text or as entities such as &#1;),
 * lone surrogates and the non-characters U+FFFE/U+FFFF: invisible in a browser, but they make a DOCX
 * (XML) unreadable.
 */
const CONTROL_CHARACTERS = /(?![\t\n\r])[\p{Cc}\p{Cs}\ufffe\uffff]/gu;

/** The elements kept: exactly what the report editor produces (others are dropped, their text kept). */
export const REPORT_HTML_ALLOWED_TAGS: readonly string[] = [
  'p',
  'br',
  'h1',
  'h2',
  'h3',
  'strong',
  'em',
  'u',
  's',
  'ul',
  'ol',
  'li',
  'blockquote',
  'hr',
  'table',
  'colgroup',
  'col',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'img',
  'div',
];

/** The attributes kept, by element: no event handler, no URL but an image's (checked below). */
export const REPORT_HTML_ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  p: ['style'],
  h1: ['style'],
  h2: ['style'],
  h3: ['style'],
  ol: ['start', 'type'],
  th: ['colspan', 'rowspan', 'colwidth'],
  td: ['colspan', 'rowspan', 'colwidth'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  div: ['data-type'],
};

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...REPORT_HTML_ALLOWED_TAGS],
  allowedAttributes: Object.fromEntries(
    Object.entries(REPORT_HTML_ALLOWED_ATTRIBUTES).map(([tag, names]) => [tag, [...names]]),
  ),
  allowedStyles: { '*': { 'text-align': ALIGN } },
  // Relative URLs only (report image paths, checked by the exclusive filter below); no scheme at all.
  allowedSchemes: [],
  allowedSchemesByTag: {},
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nestingLimit: MAX_REPORT_HTML_NESTING,
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'iframe', 'object'],
  transformTags: {
    b: 'strong',
    i: 'em',
    strike: 's',
    del: 's',
    h4: 'h3',
    h5: 'h3',
    h6: 'h3',
    // A div is kept only as the page-break node; any other div becomes a paragraph.
    div: (_tagName, attribs): sanitizeHtml.Tag =>
      attribs['data-type'] === 'page-break'
        ? { tagName: 'div', attribs: { 'data-type': 'page-break' } }
        : { tagName: 'p', attribs: {} },
  },
};

export type TSanitizeReportHtmlOptions = {
  /**
   * The report the HTML belongs to: only its own key images are kept. Without it every image is
   * dropped (templates, macros and new reports have no images of their own).
   */
  reportId?: string | undefined;
};

/**
 * Sanitises report HTML for storage and display. Idempotent. HTML nested hundreds of levels deep is
 * read as its text (boundedNesting): parsing it as elements would hold the server for seconds.
 */
export function sanitizeReportHtml(html: string, options: TSanitizeReportHtmlOptions = {}): string {
  const reportId = options.reportId?.toLowerCase();
  const clean = sanitizeHtml(boundedNesting(html), {
    ...OPTIONS,
    exclusiveFilter: (frame) =>
      frame.tag === 'img' && (reportId === undefined || reportIdOfImageSrc(frame.attribs.src) !== reportId),
  });
  // Entities are decoded while parsing and only & < > " re-escaped, so a control character given as
  // an entity is a raw character here.
  return clean.replace(CONTROL_CHARACTERS, '');
}

/** Plain text of report HTML (for the report finder's search vector and previews). */
export function reportHtmlToText(html: string): string {
  const withBreaks = html.replace(/<\/(p|h[1-3]|li|tr|blockquote)>|<br\s*\/?>/gi, '$&\n');
  const text = sanitizeHtml(boundedNesting(withBreaks), { allowedTags: [], allowedAttributes: {} });
  // sanitize-html decodes entities and re-escapes only these four.
  return text
    .replace(/\u00a0/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
