// The dictation grammar (issue 17): what a recognised utterance means. The server reads every final
// result of its engines with it (unless the engine recognised the command itself), and the web app
// reads the browser's own speech engine with it, so a spoken phrase means the same everywhere.
//
// - Voice commands, whole phrases anywhere in the utterance, split the text around them.
// - Punctuation words are folded into the text with report spacing, and the next word after a full
//   stop, a new line or a new paragraph is capitalised (engines give lower case).
// - Numbers and measurements become digits with units (dictation-numbers.ts).
import type { TDictationCommand, TDictationSegment } from './dictation.schemas.ts';
import { digitValue, isNumberWord, rewriteNumbers, type TDictationToken } from './dictation-numbers.ts';

/** Spoken command phrases; matched longest first, case-insensitively, as whole words. */
const COMMAND_PHRASES: { words: string[]; command: TDictationCommand }[] = (
  [
    ['new line', 'new-line'],
    ['next line', 'new-line'],
    ['new paragraph', 'new-paragraph'],
    ['next paragraph', 'new-paragraph'],
    ['delete that', 'delete-that'],
    ['scratch that', 'delete-that'],
    ['undo that', 'undo'],
    ['undo', 'undo'],
    ['next field', 'next-field'],
    ['go to impression', 'go-to-impression'],
    ['go to the impression', 'go-to-impression'],
    ['insert template', 'insert-template'],
    ['insert macro', 'insert-macro'],
    ['stop dictation', 'stop-dictation'],
    ['stop listening', 'stop-dictation'],
  ] as const
)
  .map(([phrase, command]) => ({ words: phrase.split(' '), command }))
  .sort((a, b) => b.words.length - a.words.length);

/** Spoken punctuation; longest first. "colon" and "period" are checked in context (see below). */
const PUNCTUATION_PHRASES: { words: string[]; mark: string }[] = (
  [
    ['full stop', '.'],
    ['period', '.'],
    ['comma', ','],
    ['semicolon', ';'],
    ['semi colon', ';'],
    ['colon', ':'],
    ['question mark', '?'],
    ['hyphen', '-'],
    ['open bracket', '('],
    ['open parenthesis', '('],
    ['open paren', '('],
    ['close bracket', ')'],
    ['close parenthesis', ')'],
    ['close paren', ')'],
  ] as const
)
  .map(([phrase, mark]) => ({ words: phrase.split(' '), mark }))
  .sort((a, b) => b.words.length - a.words.length);

/**
 * Every phrase the grammar reads as a command or a mark, as spoken ("new paragraph", "full stop"),
 * except "insert template" / "insert macro", which take a name: what a speech engine's language
 * model must know.
 */
export const SPOKEN_COMMAND_PHRASES: readonly string[] = [...COMMAND_PHRASES, ...PUNCTUATION_PHRASES]
  .map((phrase) => phrase.words.join(' '))
  .filter((phrase) => !phrase.startsWith('insert '));

/** "the sigmoid colon", "colon is unremarkable": the organ, not the punctuation mark. */
const COLON_ORGAN_BEFORE = new Set([
  'the',
  'a',
  'this',
  'sigmoid',
  'rectosigmoid',
  'transverse',
  'ascending',
  'descending',
  'right',
  'left',
  'proximal',
  'distal',
  'mid',
  'entire',
  'whole',
  'redundant',
]);
const COLON_ORGAN_AFTER = new Set([
  'is',
  'was',
  'are',
  'appears',
  'wall',
  'walls',
  'and',
  'with',
  'without',
  'shows',
  'demonstrates',
  'mucosa',
  'cancer',
  'carcinoma',
]);
/** "a period of six months", "the same period": the word, not the full stop. */
const PERIOD_WORD_BEFORE = new Set(['a', 'the', 'this', 'that', 'same', 'interval']);

/** Marks written against the word before them, and those that end a sentence. */
const CLOSING_MARKS = new Set(['.', ',', ':', ';', '?', '!', ')']);
const SENTENCE_ENDS = new Set(['.', '?', '!']);

function isPunctuationAt(norms: readonly string[], i: number, words: readonly string[]): boolean {
  const [word] = words;
  if (words.length > 1) return true;
  if (word === 'colon') {
    return !COLON_ORGAN_BEFORE.has(norms[i - 1] ?? '') && !COLON_ORGAN_AFTER.has(norms[i + 1] ?? '');
  }
  if (word === 'period') return norms[i + 1] !== 'of' && !PERIOD_WORD_BEFORE.has(norms[i - 1] ?? '');
  return true;
}

/** The punctuation phrase spoken at `i` (its mark and length), or null. */
function punctuationAt(norms: readonly string[], i: number): { mark: string; length: number } | null {
  for (const phrase of PUNCTUATION_PHRASES) {
    if (phrase.words.every((word, k) => norms[i + k] === word) && isPunctuationAt(norms, i, phrase.words)) {
      return { mark: phrase.mark, length: phrase.words.length };
    }
  }
  return null;
}

function commandAt(
  norms: readonly string[],
  i: number,
): { command: TDictationCommand; length: number } | null {
  for (const phrase of COMMAND_PHRASES) {
    if (phrase.words.every((word, k) => norms[i + k] === word)) {
      return { command: phrase.command, length: phrase.words.length };
    }
  }
  return null;
}

/** Splits the engine's text into words and the punctuation marks it may already have written. */
function tokenize(text: string): TDictationToken[] {
  const tokens: TDictationToken[] = [];
  for (const piece of text.split(/\s+/)) {
    const match = /^([(]*)(.*?)([.,:;?!)]*)$/.exec(piece);
    const [, opening = '', body = '', closing = ''] = match ?? [];
    for (const mark of opening) tokens.push({ text: mark, norm: '', kind: 'punct' });
    // "twenty-five" is two number words; "follow-up" stays one word.
    const parts =
      /^[a-z]+-[a-z]+$/i.test(body) && body.split('-').every((part) => isNumberWord(part.toLowerCase()))
        ? body.split('-')
        : [body];
    for (const part of parts) if (part) tokens.push({ text: part, norm: part.toLowerCase(), kind: 'word' });
    for (const mark of closing) tokens.push({ text: mark, norm: '', kind: 'punct' });
  }
  return tokens;
}

/** A macro's short key: one word, or letters (and digits) spelled one by one ("c t a" → "cta"). */
function readMacroKey(tokens: readonly TDictationToken[], start: number): { key: string; end: number } {
  let key = '';
  let i = start;
  for (; i < tokens.length; i += 1) {
    const token = tokens[i];
    if (!token || token.kind !== 'word') break;
    const digit = key ? digitValue(token.norm) : null;
    if (/^[a-z0-9]$/.test(token.norm)) key += token.norm;
    else if (digit !== null) key += String(digit);
    else break;
  }
  if (key) return { key, end: i };
  const word = tokens[start];
  if (word?.kind === 'word') return { key: word.norm.replace(/[^a-z0-9]/g, ''), end: start + 1 };
  return { key: '', end: start };
}

type TWriter = { capitalizeNext: boolean };

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** Writes a run of words and marks with report spacing and sentence capitals. */
function writeText(tokens: readonly TDictationToken[], writer: TWriter): string {
  const norms = tokens.map((token) => (token.kind === 'word' ? token.norm : ''));
  const folded: TDictationToken[] = [];
  for (let i = 0; i < tokens.length;) {
    const token = tokens[i];
    if (!token) break;
    const punctuation = token.kind === 'word' ? punctuationAt(norms, i) : null;
    if (punctuation) {
      folded.push({ text: punctuation.mark, norm: '', kind: 'punct' });
      i += punctuation.length;
    } else {
      folded.push(token);
      i += 1;
    }
  }
  let out = '';
  let spaceBefore = false;
  for (const token of rewriteNumbers(folded)) {
    if (token.kind === 'punct') {
      if (CLOSING_MARKS.has(token.text)) {
        out += token.text;
        spaceBefore = true;
        // ", and the spleen" goes on with the sentence before it.
        if (SENTENCE_ENDS.has(token.text)) writer.capitalizeNext = true;
        else if (token.text !== ')') writer.capitalizeNext = false;
      } else if (token.text === '(') {
        out += spaceBefore ? ' (' : '(';
        spaceBefore = false;
      } else {
        out += token.text;
        spaceBefore = false;
      }
      continue;
    }
    const text = writer.capitalizeNext && token.kind === 'word' ? capitalize(token.text) : token.text;
    writer.capitalizeNext = false;
    out += spaceBefore ? ` ${text}` : text;
    spaceBefore = true;
  }
  return out;
}

export type TParseDictationOptions = {
  /**
   * Whether the utterance starts a sentence (its first word is capitalised). Default true: engines
   * settle a result at a pause. Pass false when the caret follows unfinished text.
   */
  sentenceStart?: boolean;
};

/**
 * Whether text typed after `preceding` starts a sentence: nothing before it, or it follows a full
 * stop, question or exclamation mark, or a line break. For `parseDictation`'s `sentenceStart`.
 */
export function startsSentence(preceding: string): boolean {
  if (/\n\s*$/.test(preceding)) return true;
  const trimmed = preceding.trimEnd();
  return trimmed === '' || /[.?!]$/.test(trimmed);
}

/**
 * What an utterance means: text to insert (punctuation, capitals, digits and units written as a
 * report writes them) and voice commands, in spoken order. Text segments never begin or end with a
 * space; one beginning with a mark (",") attaches to the text before it.
 */
export function parseDictation(text: string, options: TParseDictationOptions = {}): TDictationSegment[] {
  const tokens = tokenize(text.trim());
  const norms = tokens.map((token) => (token.kind === 'word' ? token.norm : ''));
  const writer: TWriter = { capitalizeNext: options.sentenceStart ?? true };
  const segments: TDictationSegment[] = [];
  let run: TDictationToken[] = [];
  const flush = () => {
    const written = writeText(run, writer);
    if (written) segments.push({ kind: 'text', text: written });
    run = [];
  };
  for (let i = 0; i < tokens.length;) {
    const token = tokens[i];
    if (!token) break;
    const punctuation = token.kind === 'word' ? punctuationAt(norms, i) : null;
    const found = token.kind === 'word' && !punctuation ? commandAt(norms, i) : null;
    if (!found) {
      const length = punctuation?.length ?? 1;
      run.push(...tokens.slice(i, i + length));
      i += length;
      continue;
    }
    flush();
    i += found.length;
    if (found.command === 'insert-template') {
      const name = tokens
        .slice(i)
        .filter((word) => word.kind === 'word')
        .map((word) => word.text)
        .join(' ');
      segments.push(
        name
          ? { kind: 'command', command: found.command, argument: name }
          : { kind: 'command', command: found.command },
      );
      i = tokens.length;
    } else if (found.command === 'insert-macro') {
      const { key, end } = readMacroKey(tokens, i);
      segments.push(
        key
          ? { kind: 'command', command: found.command, argument: key }
          : { kind: 'command', command: found.command },
      );
      i = end;
    } else {
      segments.push({ kind: 'command', command: found.command });
      if (found.command === 'new-line' || found.command === 'new-paragraph') writer.capitalizeNext = true;
    }
  }
  flush();
  return segments;
}

/**
 * The plain text of a recording's transcript: text segments joined with report spacing, a new line
 * as "\n", a new paragraph as "\n\n"; other commands are dropped.
 */
export function segmentsToText(segments: readonly TDictationSegment[]): string {
  let out = '';
  for (const segment of segments) {
    if (segment.kind === 'command') {
      if (segment.command === 'new-line') out += '\n';
      else if (segment.command === 'new-paragraph') out += '\n\n';
      continue;
    }
    const joins = out !== '' && !/[\s(-]$/.test(out) && !/^[.,:;?!)-]/.test(segment.text);
    out += joins ? ` ${segment.text}` : segment.text;
  }
  return out;
}
