// Text split into runs of one writing system, so each run can be set in the Noto font that has its
// glyphs and shaping rules (Noto Sans has no Indic glyphs; the Indic fonts have Latin digits and
// punctuation but are meant for their own script). Both renderers use the same split.

export const INDIC_SCRIPTS = [
  'devanagari',
  'bengali',
  'gurmukhi',
  'gujarati',
  'tamil',
  'telugu',
  'kannada',
  'malayalam',
] as const;
export type TIndicScript = (typeof INDIC_SCRIPTS)[number];
/** `latin` stands for everything Noto Sans itself covers (Latin, Greek, Cyrillic, symbols...). */
export type TScript = 'latin' | TIndicScript;

export type TScriptRun = { script: TScript; text: string };

/** Unicode blocks of each Indic script, with their extension blocks. */
const RANGES: ReadonlyArray<readonly [number, number, TIndicScript]> = [
  [0x0900, 0x097f, 'devanagari'],
  [0x0980, 0x09ff, 'bengali'],
  [0x0a00, 0x0a7f, 'gurmukhi'],
  [0x0a80, 0x0aff, 'gujarati'],
  [0x0b80, 0x0bff, 'tamil'],
  [0x0c00, 0x0c7f, 'telugu'],
  [0x0c80, 0x0cff, 'kannada'],
  [0x0d00, 0x0d7f, 'malayalam'],
  [0x1cd0, 0x1cff, 'devanagari'], // Vedic Extensions
  [0xa8e0, 0xa8ff, 'devanagari'], // Devanagari Extended
  [0x11b00, 0x11b5f, 'devanagari'], // Devanagari Extended-A
  [0x11fc0, 0x11fff, 'tamil'], // Tamil Supplement
];

const DANDA = 0x0964;
const DOUBLE_DANDA = 0x0965;
const ZWNJ = 0x200c;
const ZWJ = 0x200d;

/**
 * Characters that belong to no script of their own and that every bundled font has: spaces, ASCII
 * digits and punctuation, general punctuation (dashes, quotes, ellipsis), no-break space, degree.
 * They join the run they stand in (the preceding one; at the start of a text, the following one).
 */
function isNeutral(code: number): boolean {
  if (code <= 0x7f) return !((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a));
  return (
    code === 0xa0 || code === 0xb0 || (code >= 0x2000 && code <= 0x206f && code !== ZWNJ && code !== ZWJ)
  );
}

/** Characters that stay with the preceding run whatever it is: dandas, joiners, combining marks. */
function isAttached(code: number, char: string): boolean {
  if (code === DANDA || code === DOUBLE_DANDA || code === ZWNJ || code === ZWJ) return true;
  return scriptOfCode(code) === 'latin' && /\p{M}/u.test(char);
}

function scriptOfCode(code: number): TScript {
  if (code < 0x0900) return 'latin';
  for (const [from, to, script] of RANGES) {
    if (code >= from && code <= to) return script;
  }
  return 'latin';
}

/** Whether a text holds any character of an Indic script (fast path for Latin-only text). */
export function hasIndic(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // BMP blocks, and the high surrogates of the supplementary blocks (U+11B00…, U+11FC0…).
    if (
      (code >= 0x0900 && code <= 0x0d7f) ||
      (code >= 0x1cd0 && code <= 0x1cff) ||
      (code >= 0xa8e0 && code <= 0xa8ff)
    )
      return true;
    if (code === 0xd806 || code === 0xd807) return true;
  }
  return false;
}

/** Splits a text into runs of one script; the runs joined give back the text exactly. */
export function splitByScript(text: string): TScriptRun[] {
  if (!hasIndic(text)) return text === '' ? [] : [{ script: 'latin', text }];
  const runs: TScriptRun[] = [];
  let pending = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const current = runs.at(-1);
    if (isNeutral(code) || isAttached(code, char)) {
      if (current) current.text += char;
      else pending += char;
      continue;
    }
    const script = scriptOfCode(code);
    if (current && current.script === script) current.text += char;
    else runs.push({ script, text: pending + char });
    pending = '';
  }
  if (pending !== '') runs.push({ script: 'latin', text: pending });
  return runs;
}
