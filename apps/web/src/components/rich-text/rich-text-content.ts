import './rich-text.css';

/**
 * Class of the element holding report HTML (an editor's ProseMirror element, or a read-only preview):
 * headings, lists, bordered tables, page breaks as a labelled dashed line, collaboration carets. The
 * template, macro and report editors all use it, so a report looks the same wherever it is edited.
 */
export const RICH_TEXT_CONTENT_CLASS = 'ris-rich-text';

/** The plain text of report HTML (list previews): tags dropped, block ends as spaces, entities decoded. */
export function richTextToPlainText(html: string): string {
  if (typeof DOMParser === 'undefined')
    return html
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  const spaced = html.replace(/<\/(p|h[1-6]|li|td|th|blockquote|div)>|<br\s*\/?>/gi, (tag) => `${tag} `);
  const doc = new DOMParser().parseFromString(spaced, 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}
