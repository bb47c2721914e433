// pdfmake's line breaking, made linear in the length of a paragraph.
//
// pdfmake 0.3 (LayoutBuilder.buildNextLine) asks, for every word it places on a line, whether the word
// fits together with the words glued to it (`noNewLine`), and passes `_inlines.slice(1)`: a copy of
// every word left in the paragraph. A paragraph of n words costs n copies of up to n words: measured
// 6.1 s of 8.3 s for one 300,000-character paragraph (node --cpu-prof), growing with n². The check
// only reads the glued run after the word (Line.hasEnoughSpaceForInline stops at the first word that
// is not `noNewLine`), so this copy passes just that run: the same lines, in time linear in n. It also
// takes words off the front with a moving index instead of Array.shift (a memmove of the whole
// remainder once the array is too large for V8 to trim in place) and removes them once per line,
// from a window of WINDOW words that is refilled from the rest of the paragraph as it empties (so
// removing a line's words never moves the whole paragraph: 0.9 s of 3.8 s at 1M characters).
// Installed once, on pdfmake's LayoutBuilder prototype, before any document is laid out; every other
// step of pdfmake is unchanged.
import { createRequire } from 'node:module';

type TInline = {
  text: string;
  width: number;
  noWrap?: boolean;
  noNewLine?: boolean;
  [key: string]: unknown;
};
type TLine = {
  hasEnoughSpaceForInline(inline: TInline, nextInlines: TInline[]): boolean;
  getAvailableWidth(): number;
  addInline(inline: TInline): void;
  lastLineInParagraph?: boolean;
};
type TTextNode = { _inlines?: TInline[] };
type TLayoutBuilder = {
  writer: { context(): { availableWidth: number } };
  buildNextLine(this: TLayoutBuilder, textNode: TTextNode): TLine | null;
};
type TConstructor<T> = new (...args: never[]) => T;

/** Words of a paragraph laid out from a window of this many at a time (see above). */
const WINDOW = 4096;
/** The window is refilled when fewer words than this are left in it. */
const REFILL = 1024;

/** A long paragraph's words beyond its window: `items` from `from` on, for the window `window`. */
type TRest = { window: TInline[]; items: TInline[]; from: number };
const rests = new WeakMap<TTextNode, TRest>();

/**
 * The node's words to lay out now: its `_inlines`, cut to a window when long and refilled from the
 * rest as it empties. A node measured again (pdfmake lays a document out anew when a page break
 * moves) has a new `_inlines` array, so a rest of an older one is dropped.
 */
function windowOf(textNode: TTextNode): { inlines: TInline[] | undefined; rest: TRest | undefined } {
  let inlines = textNode._inlines;
  if (!inlines) return { inlines, rest: undefined };
  let rest = rests.get(textNode);
  if (rest && rest.window !== inlines) {
    rests.delete(textNode);
    rest = undefined;
  }
  if (!rest && inlines.length > 2 * WINDOW) {
    rest = { window: inlines.slice(0, WINDOW), items: inlines, from: WINDOW };
    inlines = rest.window;
    textNode._inlines = inlines;
    rests.set(textNode, rest);
  }
  if (rest && inlines.length < REFILL) {
    const more = rest.items.slice(rest.from, rest.from + WINDOW);
    rest.from += more.length;
    for (const item of more) inlines.push(item);
    if (rest.from >= rest.items.length) {
      rests.delete(textNode);
      rest = undefined;
    }
  }
  return { inlines, rest };
}

/**
 * The glued run after inlines[at] (up to and including the first word that is not noNewLine), read
 * on into the paragraph's rest past the window's end.
 */
function gluedRun(inlines: readonly TInline[], at: number, rest: TRest | undefined): TInline[] {
  const inline = inlines[at];
  if (!inline?.noNewLine) return [];
  const run: TInline[] = [];
  for (let i = at + 1; i < inlines.length; i++) {
    const next = inlines[i] as TInline;
    run.push(next);
    if (!next.noNewLine) return run;
  }
  for (let i = rest?.from ?? 0; rest && i < rest.items.length; i++) {
    const next = rest.items[i] as TInline;
    run.push(next);
    if (!next.noNewLine) break;
  }
  return run;
}

/** Length of the longest prefix of `text` whose width fits `maxWidth` (at least 1), as pdfmake's. */
function findMaxFitLength(text: string, maxWidth: number, measure: (part: string) => number): number {
  let low = 1;
  let high = text.length;
  let bestFit = 1;
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    if (measure(text.substring(0, mid)) <= maxWidth) {
      bestFit = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return bestFit;
}

function cloneInline(inline: TInline): TInline {
  return { ...inline };
}

function linearBuildNextLine(
  Line: TConstructor<TLine>,
  TextInlines: TConstructor<{ widthOfText(text: string, inline: TInline): number }>,
) {
  return function buildNextLine(this: TLayoutBuilder, textNode: TTextNode): TLine | null {
    const { inlines, rest } = windowOf(textNode);
    if (!inlines || inlines.length === 0) return null;
    const LineClass = Line as unknown as new (maxWidth: number) => TLine;
    const TextInlinesClass = TextInlines as unknown as new (pdfDocument: null) => {
      widthOfText(text: string, inline: TInline): number;
    };
    const line = new LineClass(this.writer.context().availableWidth);
    const textInlines = new TextInlinesClass(null);
    let at = 0;
    let isForceContinue = false;
    while (at < inlines.length) {
      const inline = inlines[at] as TInline;
      if (!isForceContinue && !line.hasEnoughSpaceForInline(inline, gluedRun(inlines, at, rest))) break;
      at++;
      let isHardWrap = false;
      if (!inline.noWrap && inline.text.length > 1 && inline.width > line.getAvailableWidth()) {
        const maxChars = findMaxFitLength(inline.text, line.getAvailableWidth(), (part) =>
          textInlines.widthOfText(part, inline),
        );
        if (maxChars < inline.text.length) {
          const rest = cloneInline(inline);
          rest.text = inline.text.substring(maxChars);
          inline.text = inline.text.substring(0, maxChars);
          rest.width = textInlines.widthOfText(rest.text, rest);
          inline.width = textInlines.widthOfText(inline.text, inline);
          at--;
          inlines[at] = rest;
          isHardWrap = true;
        }
      }
      line.addInline(inline);
      isForceContinue = Boolean(inline.noNewLine) && !isHardWrap;
    }
    inlines.splice(0, at);
    line.lastLineInParagraph = inlines.length === 0 && !rests.has(textNode);
    return line;
  };
}

export type TLineBreaking = {
  /** pdfmake's LayoutBuilder.prototype, whose buildNextLine is the linear one once installed. */
  prototype: TLayoutBuilder;
  original: TLayoutBuilder['buildNextLine'];
  linear: TLayoutBuilder['buildNextLine'];
};

/**
 * Replaces LayoutBuilder.prototype.buildNextLine of the pdfmake at `pdfmakePath` (its resolved main
 * file) with the linear version; the original stays available for the test that compares the two.
 */
export function installLinearLineBreaking(pdfmakePath: string): TLineBreaking {
  const pdfmakeRequire = createRequire(pdfmakePath);
  const load = <T>(name: string): T => (pdfmakeRequire(name) as { default: T }).default;
  const { prototype } = load<{ prototype: TLayoutBuilder }>('./LayoutBuilder.js');
  const original = prototype.buildNextLine;
  const linear = linearBuildNextLine(
    load<TConstructor<TLine>>('./Line.js'),
    load<TConstructor<{ widthOfText(text: string, inline: TInline): number }>>('./TextInlines.js'),
  );
  prototype.buildNextLine = linear;
  return { prototype, original, linear };
}
