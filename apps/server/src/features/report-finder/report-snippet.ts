// Snippets of the report finder as plain-text parts: ts_headline marks the matched words with two
// control characters that the text cannot hold (they are replaced by spaces before the headline is
// made), and the parts are cut here, so no HTML ever reaches the client.
import type { TSnippetPart } from '@ris/domain';

/** Marks a match's start in ts_headline's output (StartSel). */
export const MATCH_START = '\u0001';
/** Marks a match's end (StopSel). */
export const MATCH_STOP = '\u0002';

/** Characters kept of a report's opening lines when no words were searched. */
export const OPENING_LENGTH = 200;

/** Runs of white space (paragraph breaks of content_text included) read as one space. */
const collapse = (text: string) => text.replace(/\s+/g, ' ');

/** A headline's text cut into parts at the markers; empty parts are left out, neighbours merged. */
export function snippetFromHeadline(headline: string): TSnippetPart[] {
  const parts: TSnippetPart[] = [];
  let match = false;
  for (const piece of headline.split(new RegExp(`([${MATCH_START}${MATCH_STOP}])`))) {
    if (piece === MATCH_START || piece === MATCH_STOP) {
      match = piece === MATCH_START;
      continue;
    }
    const text = collapse(piece);
    if (text === '') continue;
    const last = parts.at(-1);
    if (last && last.match === match) last.text += text;
    else parts.push({ text, match });
  }
  const first = parts[0];
  if (first && !first.match) first.text = first.text.trimStart();
  const last = parts.at(-1);
  if (last && !last.match) last.text = last.text.trimEnd();
  return parts.filter((part) => part.text !== '');
}

/**
 * A report's opening lines: up to OPENING_LENGTH characters, cut at the last space when the text is
 * longer (and then ended with "…"). `opening` is the text's first characters
 * (more than OPENING_LENGTH of them when the text is longer).
 */
export function snippetFromOpening(opening: string): TSnippetPart[] {
  const text = collapse(opening).trim();
  if (text === '') return [];
  if (text.length <= OPENING_LENGTH) return [{ text, match: false }];
  const cut = text.slice(0, OPENING_LENGTH);
  const space = cut.lastIndexOf(' ');
  return [{ text: `${(space > OPENING_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`, match: false }];
}
