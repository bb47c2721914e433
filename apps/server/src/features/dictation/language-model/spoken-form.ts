// Written report text → what a radiologist says when dictating it: lower case, numbers and units
// spelled out ("3.2 cm" → "three point two centimetres"), acronyms as letters ("CT" → "c t"),
// punctuation gone. The language model learns from these sentences, so its words are the words the
// engine hears (the dictation grammar turns them back into "3.2 cm").

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** A whole number as British English words ("one hundred and twenty"); digit by digit past 9999. */
export function integerWords(value: number): string {
  if (value < 20) return ONES[value] ?? '';
  if (value < 100) {
    const ones = value % 10;
    return `${TENS[Math.floor(value / 10)] ?? ''}${ones ? ` ${ONES[ones] ?? ''}` : ''}`;
  }
  if (value < 1000) {
    const rest = value % 100;
    return `${ONES[Math.floor(value / 100)] ?? ''} hundred${rest ? ` and ${integerWords(rest)}` : ''}`;
  }
  if (value < 10_000) {
    const rest = value % 1000;
    const joiner = rest === 0 ? '' : rest < 100 ? ' and ' : ' ';
    return `${ONES[Math.floor(value / 1000)] ?? ''} thousand${rest ? joiner + integerWords(rest) : ''}`;
  }
  return digitWords(String(value));
}

function digitWords(digits: string): string {
  return [...digits].map((digit) => ONES[Number(digit)] ?? '').join(' ');
}

/** "3.25" → "three point two five"; "0.5" → "zero point five"; "12" → "twelve". */
export function numberWords(written: string): string {
  const [whole = '', fraction] = written.split('.');
  const wholeWords =
    whole.length > 1 && whole.startsWith('0') ? digitWords(whole) : integerWords(Number(whole));
  return fraction === undefined ? wholeWords : `${wholeWords} point ${digitWords(fraction)}`;
}

/** Units as said after a number. */
const UNITS: Readonly<Record<string, string>> = {
  cm: 'centimetres',
  mm: 'millimetres',
  ml: 'millilitres',
  cc: 'c c',
  hu: 'hounsfield units',
  kg: 'kilograms',
  mg: 'milligrams',
  cm2: 'square centimetres',
  cm3: 'cubic centimetres',
};

const TOKEN = /\d+(?:\.\d+)?|[A-Za-z]+(?:'[A-Za-z]+)?|[%x×]/g;

function isNumber(token: string | undefined): boolean {
  return token !== undefined && /^\d/.test(token);
}

/** One written sentence → its spoken words (may be empty). */
export function spokenWords(sentence: string): string[] {
  const tokens = sentence.replace(/(\d)\s*[x×]\s*(?=\d)/g, '$1 x ').match(TOKEN) ?? [];
  const letters = sentence.replace(/[^A-Za-z]/g, '');
  // A heading in capitals ("FINDINGS", "NO ACUTE CHANGE") is words, not acronyms.
  const shouting = letters.length > 4 && letters === letters.toUpperCase();
  const words: string[] = [];
  tokens.forEach((token, index) => {
    const previous = tokens[index - 1];
    if (isNumber(token)) words.push(numberWords(token));
    else if (token === '%') words.push('percent');
    else if (token === 'x' || token === '×') {
      if (isNumber(previous) && isNumber(tokens[index + 1])) words.push('by');
      else if (token === 'x') words.push('x');
    } else if (isNumber(previous) && UNITS[token.toLowerCase()] !== undefined) {
      words.push(UNITS[token.toLowerCase()] ?? '');
    } else if (!shouting && /^[A-Z]{2,4}s?$/.test(token)) {
      words.push([...token.replace(/s$/, '')].join(' ').toLowerCase());
    } else words.push(token.toLowerCase());
  });
  return words.join(' ').split(' ').filter(Boolean);
}

/** Text → sentences of spoken words; `punctuated` also says the commas and full stops. */
export function spokenSentences(text: string): { plain: string[]; punctuated: string[] }[] {
  const result: { plain: string[]; punctuated: string[] }[] = [];
  // Sentences end at a line break or at . ! ? ; : before a space or the end (not inside "3.2").
  for (const sentence of text.split(/\n+|(?<=[.!?;:])\s+/)) {
    const plain = spokenWords(sentence);
    if (plain.length === 0) continue;
    const punctuated = sentence
      .split(',')
      .map((part) => spokenWords(part))
      .filter((part) => part.length > 0)
      .flatMap((part, index) => (index === 0 ? part : ['comma', ...part]));
    const ending = /:\s*$/.test(sentence) ? 'colon' : result.length % 2 === 0 ? 'full stop' : 'period';
    result.push({ plain, punctuated: [...punctuated, ...ending.split(' ')] });
  }
  return result;
}
