// Spoken numbers and measurements as a radiologist dictates them, written the way a report writes
// them: "three point two centimetres" → "3.2 cm", "two by three millimetres" → "2 x 3 mm", "fifty
// percent" → "50%", "L four five" → "L4-5". Used by the dictation grammar (dictation-grammar.ts) on
// the words between voice commands.

/** One token of an utterance: a spoken word, a finished piece of text, or a punctuation mark. */
export type TDictationToken = {
  /** How it is written ("Liver", "3.2 cm", ","). */
  text: string;
  /** Lower case, for matching ('' for punctuation). */
  norm: string;
  /** 'word': as spoken, may be capitalised; 'literal': digits and units, written as is. */
  kind: 'word' | 'literal' | 'punct';
};

const DIGITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
};
const TEENS: Record<string, number> = {
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};

/** Whether a word is a number word ("five", "twenty", "hundred") the grammar may join with others. */
export function isNumberWord(word: string): boolean {
  return word in DIGITS || word in TEENS || word in TENS || word === 'hundred' || word === 'thousand';
}

/** The value of a single spoken digit ("five" → 5; "oh" only after "point"). */
export function digitValue(word: string): number | null {
  if (/^[0-9]$/.test(word)) return Number(word);
  return DIGITS[word] ?? null;
}

type TSpokenNumber = { text: string; value: number; end: number; decimal: boolean; written: boolean };
type TLast = 'none' | 'digit' | 'teen' | 'tens' | 'hundred' | 'thousand' | 'and';

/** A whole number spoken as words from `start` ("one hundred and twenty" → 120), or null. */
function readWholeNumber(norms: readonly string[], start: number): { value: number; end: number } | null {
  let total = 0;
  let current = 0;
  let last: TLast = 'none';
  let i = start;
  if (norms[i] === 'zero') return { value: 0, end: i + 1 };
  for (; i < norms.length; i += 1) {
    const word = norms[i] ?? '';
    const digit = word === 'zero' ? undefined : DIGITS[word];
    const teen = TEENS[word];
    const tens = TENS[word];
    const opensGroup = last === 'none' || last === 'hundred' || last === 'thousand' || last === 'and';
    if (digit !== undefined && (opensGroup || last === 'tens')) {
      current += digit;
      last = 'digit';
    } else if ((teen !== undefined || tens !== undefined) && opensGroup) {
      current += teen ?? tens ?? 0;
      last = teen !== undefined ? 'teen' : 'tens';
    } else if (word === 'hundred' && (last === 'digit' || last === 'teen') && current % 100 === current) {
      current *= 100;
      last = 'hundred';
    } else if (word === 'thousand' && last !== 'none' && last !== 'and' && last !== 'thousand') {
      total += current * 1000;
      current = 0;
      last = 'thousand';
    } else if (word === 'and' && (last === 'hundred' || last === 'thousand')) {
      const next = norms[i + 1] ?? '';
      if (!((next in DIGITS && next !== 'zero') || next in TEENS || next in TENS)) break;
      last = 'and';
    } else break;
  }
  if (last === 'none') return null;
  return { value: total + current, end: i };
}

/** "twenty twenty four" → 2024, "nineteen ninety nine" → 1999: a year spoken in two pairs. */
function readYear(norms: readonly string[], start: number): TSpokenNumber | null {
  const century = norms[start] === 'twenty' ? 20 : norms[start] === 'nineteen' ? 19 : null;
  if (century === null) return null;
  const rest = readWholeNumber(norms, start + 1);
  if (!rest || rest.value < 10 || rest.value > 99 || rest.end - start > 3) return null;
  const value = century * 100 + rest.value;
  return { text: String(value), value, end: rest.end, decimal: false, written: false };
}

/**
 * A number from `start`: digits the engine already wrote ("3", "3.2") or words, with a decimal part
 * spoken digit by digit ("three point one four" → "3.14", "zero point five" → "0.5").
 */
function readNumber(norms: readonly string[], start: number): TSpokenNumber | null {
  const first = norms[start] ?? '';
  if (/^[0-9]+(\.[0-9]+)?$/.test(first)) {
    return { text: first, value: Number(first), end: start + 1, decimal: first.includes('.'), written: true };
  }
  const year = readYear(norms, start);
  if (year) return year;
  const whole = readWholeNumber(norms, start);
  if (!whole) return null;
  let end = whole.end;
  let fraction = '';
  if (norms[end] === 'point') {
    let j = end + 1;
    for (; j < norms.length; j += 1) {
      const word = norms[j] ?? '';
      const digit = word === 'oh' ? 0 : digitValue(word);
      if (digit === null) break;
      fraction += String(digit);
    }
    if (fraction) end = j;
  }
  const text = fraction ? `${whole.value}.${fraction}` : String(whole.value);
  return { text, value: Number(text), end, decimal: fraction !== '', written: false };
}

/** How a report writes each spoken unit. */
const UNIT_SPELLINGS: [text: string, spellings: string[]][] = [
  ['cm', ['centimetre', 'centimetres', 'centimeter', 'centimeters', 'cm', 'cms']],
  ['mm', ['millimetre', 'millimetres', 'millimeter', 'millimeters', 'mm', 'mms']],
  ['mL', ['millilitre', 'millilitres', 'milliliter', 'milliliters', 'ml', 'mls']],
  ['cc', ['cc', 'ccs']],
  ['HU', ['hu']],
  ['%', ['percent', '%']],
  ['°', ['degree', 'degrees']],
];

/** Spoken units, longest phrases first. */
const UNIT_PHRASES: { words: string[]; text: string }[] = [
  { words: ['cubic', 'centimetres'], text: 'cc' },
  { words: ['cubic', 'centimeters'], text: 'cc' },
  { words: ['hounsfield', 'units'], text: 'HU' },
  { words: ['hounsfield', 'unit'], text: 'HU' },
  { words: ['per', 'cent'], text: '%' },
  ...UNIT_SPELLINGS.flatMap(([text, spellings]) => spellings.map((word) => ({ words: [word], text }))),
];

function readUnit(norms: readonly string[], start: number): { text: string; end: number } | null {
  for (const unit of UNIT_PHRASES) {
    if (unit.words.every((word, k) => norms[start + k] === word)) {
      return { text: unit.text, end: start + unit.words.length };
    }
  }
  return null;
}

/** Words after which a number is an identifier, written in digits even below ten ("segment 7"). */
const NUMBERING_WORDS = new Set([
  'image',
  'images',
  'series',
  'slice',
  'segment',
  'grade',
  'stage',
  'type',
  'category',
  'score',
  'birads',
  'bi-rads',
  'lirads',
  'li-rads',
  'pirads',
  'pi-rads',
  'tirads',
  'ti-rads',
  'number',
]);

/** Spinal levels by region letter, with the highest level number of each region. */
const SPINE_REGIONS: Record<string, number> = { c: 7, t: 12, l: 5, s: 5 };

/** "T two" → T2 (a region letter then a level in range), or null. */
function readLevel(
  norms: readonly string[],
  start: number,
): { text: string; end: number; value: number } | null {
  const region = norms[start] ?? '';
  const highest = SPINE_REGIONS[region];
  if (highest === undefined) return null;
  const number = readNumber(norms, start + 1);
  if (!number || number.decimal || number.value < 1 || number.value > highest) return null;
  return { text: `${region.toUpperCase()}${number.value}`, end: number.end, value: number.value };
}

function literal(text: string): TDictationToken {
  return { text, norm: text.toLowerCase(), kind: 'literal' };
}

/** "L four five" → "L4-5", "L five S one" → "L5-S1"; a bare spinal level → "T2". */
function spinalLevel(norms: readonly string[], start: number): { text: string; end: number } | null {
  const level = readLevel(norms, start);
  if (!level) return null;
  const region = norms[start] ?? '';
  const highest = SPINE_REGIONS[region] ?? 0;
  const nextLevel = readLevel(norms, level.end);
  if (nextLevel) return { text: `${level.text}-${nextLevel.text}`, end: nextLevel.end };
  const next = readNumber(norms, level.end);
  if (next && !next.decimal && next.value === level.value + 1 && next.value <= highest) {
    return { text: `${level.text}-${next.value}`, end: next.end };
  }
  return { text: level.text, end: level.end };
}

/**
 * Numbers as digits where a report writes digits: with a unit, a decimal point, in a dimension
 * ("2 x 3 cm"), after a numbering word ("segment 7"), or ten and above. A number below ten standing
 * alone before an ordinary word stays a word ("one of the nodules", "two small cysts").
 */
export function rewriteNumbers(tokens: readonly TDictationToken[]): TDictationToken[] {
  const norms = tokens.map((token) => (token.kind === 'punct' ? '' : token.norm));
  const out: TDictationToken[] = [];
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i];
    if (!token) break;
    if (token.kind !== 'word') {
      out.push(token);
      i += 1;
      continue;
    }
    const level = spinalLevel(norms, i);
    if (level) {
      out.push(literal(level.text));
      i = level.end;
      continue;
    }
    const first = readNumber(norms, i);
    if (!first) {
      const unit = norms[i] === 'hounsfield' ? readUnit(norms, i) : null;
      out.push(unit ? literal(unit.text) : token);
      i = unit ? unit.end : i + 1;
      continue;
    }
    const dimensions = [first];
    let end = first.end;
    while (norms[end] === 'by' || norms[end] === 'x') {
      const next = readNumber(norms, end + 1);
      if (!next) break;
      dimensions.push(next);
      end = next.end;
    }
    const unit = readUnit(norms, end);
    const previous = out.at(-1);
    const digits =
      unit !== null ||
      dimensions.length > 1 ||
      first.decimal ||
      first.written ||
      first.value >= 10 ||
      (previous !== undefined && NUMBERING_WORDS.has(previous.norm));
    if (!digits) {
      for (let k = i; k < first.end; k += 1) {
        const word = tokens[k];
        if (word) out.push(word);
      }
      i = first.end;
      continue;
    }
    const size = dimensions.map((number) => number.text).join(' x ');
    const attached = unit && (unit.text === '%' || unit.text === '°');
    out.push(literal(unit ? `${size}${attached ? '' : ' '}${unit.text}` : size));
    i = unit ? unit.end : end;
  }
  return out;
}
