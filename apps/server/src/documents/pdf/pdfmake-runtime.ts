// pdfmake, loaded so that parsed fonts are shared by every document of the process.
//
// pdfkit (under pdfmake) parses each font file anew for every document (fontkit.create), and parsing
// Noto Sans' layout tables costs more than laying out and writing a whole 2-page report (measured:
// ~250 ms fresh vs ~25 ms with a parsed font on this machine). The parsed fontkit font only caches
// tables and glyphs; what a document embeds (the subset) is created per document, so sharing it is
// safe, and pdfkit's font work is synchronous, so two renders never interleave inside it.
// pdfkit offers no way to pass a parsed font, so before pdfkit is first loaded the `fontkit` module
// it requires is swapped for a copy whose `create` returns one parsed font per font buffer (our
// buffers live for the whole process). If pdfkit was already loaded by someone else, nothing is
// swapped and documents are only slower.
import { createRequire } from 'node:module';
import type { TPdfMake } from 'pdfmake';
import { installLinearLineBreaking } from './pdfmake-line-breaking.ts';

type TFontkit = { create(buffer: Uint8Array, postscriptName?: string): unknown };

const require = createRequire(import.meta.url);
const pdfmakePath = require.resolve('pdfmake');
const pdfkitPath = createRequire(pdfmakePath).resolve('pdfkit');
const pdfkitRequire = createRequire(pdfkitPath);
const fontkitPath = pdfkitRequire.resolve('fontkit');

function shareParsedFonts(): boolean {
  if (require.cache[pdfkitPath]) return false;
  const fontkit = pdfkitRequire('fontkit') as TFontkit & Record<string, unknown>;
  const entry = require.cache[fontkitPath];
  if (!entry) return false;
  const parsed = new WeakMap<Uint8Array, Map<string, unknown>>();
  const shared: Record<string, unknown> = {};
  for (const key of Object.keys(fontkit)) shared[key] = fontkit[key];
  shared.create = (buffer: Uint8Array, postscriptName?: string): unknown => {
    let fonts = parsed.get(buffer);
    if (!fonts) {
      fonts = new Map();
      parsed.set(buffer, fonts);
    }
    const key = postscriptName ?? '';
    let font = fonts.get(key);
    if (font === undefined) {
      font = fontkit.create(buffer, postscriptName);
      fonts.set(key, font);
    }
    return font;
  };
  entry.exports = shared;
  return true;
}

/** Whether fonts are parsed once per process (false only when pdfkit was loaded before this module). */
export const fontsShared = shareParsedFonts();

export const pdfmake = require('pdfmake') as TPdfMake;

/** pdfmake's line breaking made linear in a paragraph's length (pdfmake-line-breaking.ts). */
export const lineBreaking = installLinearLineBreaking(pdfmakePath);
