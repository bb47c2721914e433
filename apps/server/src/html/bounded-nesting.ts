// htmlparser2 (under sanitize-html) keeps its open elements in an array it adds each new one to the
// front of, so an element costs as much as the elements open around it: 100,000 nested "<ul><li>"
// (800 KB, under the report size limit) took 25 s to parse, and the event loop served nobody else
// meanwhile. The sanitiser keeps 40 levels (MAX_REPORT_HTML_NESTING); HTML nested far deeper than that
// is never an editor's, and is reduced to its text before the sanitiser parses it.
import { Parser } from 'htmlparser2';

/** Deepest nesting parsed as elements; past it the HTML is read as text (boundedNesting). */
export const MAX_PARSED_NESTING = 500;

/**
 * Whether a parser holds more than `limit` elements open at some point of `html`. The parse stops at
 * the first element past the limit, so it never holds more than `limit + 1`.
 */
export function nestsDeeperThan(html: string, limit: number): boolean {
  let depth = 0;
  let deeper = false;
  const parser: Parser = new Parser({
    onopentag() {
      depth += 1;
      if (depth > limit && !deeper) {
        deeper = true;
        parser.pause();
      }
    },
    onclosetag() {
      depth -= 1;
    },
  });
  parser.write(html);
  if (!deeper) parser.end();
  return deeper;
}

/** At most as many elements as the text has '<': fewer than `limit` cannot nest deeper. */
function fewerTagsThan(html: string, limit: number): boolean {
  let count = 0;
  for (let index = html.indexOf('<'); index !== -1; index = html.indexOf('<', index + 1)) {
    count += 1;
    if (count > limit) return false;
  }
  return true;
}

/**
 * `html` as it is, or, when it nests deeper than MAX_PARSED_NESTING, its text as one paragraph (every
 * tag removed in one pass; entities kept for the sanitiser to decode). Linear in the length, whatever
 * the nesting.
 */
export function boundedNesting(html: string): string {
  if (fewerTagsThan(html, MAX_PARSED_NESTING) || !nestsDeeperThan(html, MAX_PARSED_NESTING)) return html;
  const text = html
    .replace(/<[^<>]*>/g, '')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
  return `<p>${text}</p>`;
}
